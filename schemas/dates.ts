// Dates that mean what they say: the range a date field declares (`range` in schemas/entities,
// define.ts DateRange) turned into its first and last allowed days. One rule for the device's
// forms (src/components/entity/validation.ts, offline too) and the server's writes
// (server/lib/records/dates.ts), docs/adr/0042-date-ranges.md "Dates that mean what they say".
import type { EntityShape } from './define.ts';

/** 'YYYY-MM-DD' of a day. */
function isoDay(year: number, month: number, day: number): string {
  // Date.UTC takes 29 Feb to 1 Mar in a year without it, which is what a whole-year step means.
  return new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);
}

/** The first and last allowed days of a date of `range`, seen from `today` ('YYYY-MM-DD'). */
export function dateBounds(range: { pastYears: number; futureYears: number }, today: string): { min: string; max: string } {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  return { min: isoDay(year - range.pastYears, month - 1, day), max: isoDay(year + range.futureYears, month - 1, day) };
}

/** Today on this device, in its own time zone: what a person calls today. */
export function localToday(now = new Date()): string {
  return isoDay(now.getFullYear(), now.getMonth(), now.getDate());
}

/** A date field of `entity` whose value lies outside its declared range, with the bounds. */
export interface DateOutOfRange {
  field: string;
  min: string;
  max: string;
}

/** The first date of `values` outside its field's range, seen from `today`, or undefined. */
export function dateOutOfRange(entity: EntityShape, values: Readonly<Record<string, unknown>>, today: string): DateOutOfRange | undefined {
  for (const [name, value] of Object.entries(values)) {
    const field = entity.fields[name];
    if (field?.kind !== 'string' || !field.range || typeof value !== 'string' || !value) continue;
    const { min, max } = dateBounds(field.range, today);
    if (value < min || value > max) return { field: name, min, max };
  }
  return undefined;
}
