// What the schema-driven parts need to know about an entity's fields: which ones a list or a
// form shows, their labels, and how a stored value reads for people (lists, pages) and for a
// spreadsheet (CSV export).
import { type EntityShape, enumLabel, type Field } from '../../../schemas/define';
import type { LookupLists } from '../../lib/data';
import { formatDate, formatDateTime, formatNumber } from '../../lib/ui';
import { type Lang, type Say } from '../../lib/session';
import { lookupLabel, type Option } from './lookups';

/** Translates a message id: a component's useSay(), or a test double. */
export type Translate = Say;

export interface DisplayContext {
  lang: Lang;
  lists: LookupLists | null;
  t: Translate;
}

/** Declared and system fields of the entity by name. */
export function fieldOf(entity: EntityShape, name: string): Field | undefined {
  return entity.fields[name] ?? entity.systemFields[name];
}

export function requireField(entity: EntityShape, name: string, who: string): Field {
  const field = fieldOf(entity, name);
  if (!field) throw new Error(`${who}: ${entity.name} has no field ${name}`);
  return field;
}

export function fieldLabel(entity: EntityShape, name: string, t: Translate): string {
  return t(fieldOf(entity, name)?.label ?? `field.${entity.name}.${name}`);
}

/** Fields people read in a list by default: no keys, no bytes, no structured data. */
export function isListable(field: Field): boolean {
  return field.kind !== 'id' && field.kind !== 'json' && field.kind !== 'image' && !field.hidden && !field.clientOnly && !field.writeOnly;
}

/** The server sorts on scalar row fields (json-schema.ts sortableFields). */
export function isSortable(field: Field): boolean {
  return field.kind !== 'json' && field.kind !== 'image' && !field.clientOnly && !field.writeOnly && !field.hidden;
}

export function isDateField(field: Field): boolean {
  return field.kind === 'string' && (field.format === 'date' || field.format === 'date-time');
}

export function enumOptions(entity: EntityShape, name: string, t: Translate): Option<string | number>[] {
  const field = fieldOf(entity, name);
  if (field?.kind !== 'enum') return [];
  return field.values.map((value) => ({ value, label: t(enumLabel(entity.name, name, field, value)) }));
}

/** How an unanswered yes/no question reads (docs/adr/0045-three-state-booleans.md "Yes/no questions have three states"). */
export const UNANSWERED = '—';

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/** A stored value as people read it: lookup and enum labels, 'Nov 21, 2026', grouped numbers. */
export function displayValue(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): string {
  const field = fieldOf(entity, name);
  if (!field || isEmpty(value)) return '';
  switch (field.kind) {
    case 'lookup':
      return field.allowNone && Number(value) === 0 ? '' : lookupLabel(ctx.lists, field.list, value, ctx.lang);
    case 'enum':
      return ctx.t(enumLabel(entity.name, name, field, value as string | number));
    case 'boolean':
      return ctx.t(value ? 'entityGrid.yes' : 'entityGrid.no');
    case 'integer':
    case 'number':
      return formatNumber(value as number, ctx.lang);
    case 'lat':
    case 'lng':
      return formatNumber(value as number, ctx.lang, { maximumFractionDigits: 6 });
    case 'string':
      if (field.format === 'date') return formatDate(value as string, ctx.lang);
      if (field.format === 'date-time') return formatDateTime(value as string, ctx.lang);
      return String(value);
    case 'json':
      if (field.itemsOf && Array.isArray(value))
        return value.map((id) => lookupLabel(ctx.lists, field.itemsOf as string, id, ctx.lang)).join(', ');
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local 'YYYY-MM-DD HH:MM': what spreadsheets read as a date-time in every language. */
function spreadsheetDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A stored value for a CSV cell. Labels as on screen, but dates in ISO order and numbers
 * without grouping (decimal comma in French), because a spreadsheet must read them as dates and
 * numbers, not as text: 'Nov 21, 2026' is text to a French Excel. */
export function exportValue(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): string {
  const field = fieldOf(entity, name);
  // An unanswered yes/no question reads "—", as on the client's page: never an empty "no".
  if (field?.kind === 'boolean' && isEmpty(value)) return UNANSWERED;
  if (!field || isEmpty(value)) return '';
  switch (field.kind) {
    case 'integer':
    case 'number':
    case 'lat':
    case 'lng':
      return formatNumber(value as number, ctx.lang, { useGrouping: false, maximumFractionDigits: 8 });
    case 'string':
      if (field.format === 'date-time') return spreadsheetDateTime(String(value));
      return String(value);
    default:
      return displayValue(entity, name, value, ctx);
  }
}
