// The server's side of the date ranges declared in schemas/ (schemas/dates.ts): a write holding an
// impossible date (a birth date in the future, a referral dated next year) is refused before
// anything is written, 400 `validation.dateOutOfRange` naming the field and the allowed days.
import { dateOutOfRange } from '../../../schemas/dates';
import type { EntityShape } from '../../../schemas/define';
import { HttpError } from '../errors';

const DAY_MS = 86_400_000;

/** "Today" for the server: the UTC date one day on, so that a device east of UTC past its own
 * midnight (UTC+1 to UTC+14) is not refused a date that is today where it is. The lower bound
 * moves by the same day: a range of years is not about one day. */
export function serverToday(now = Date.now()): string {
  return new Date(now + DAY_MS).toISOString().slice(0, 10);
}

/** Refuses `values` of `e` holding a date outside its declared range. */
export function assertDatesInRange(e: EntityShape, values: Readonly<Record<string, unknown>>): void {
  const out = dateOutOfRange(e, values, serverToday());
  if (out) throw new HttpError(400, 'validation.dateOutOfRange', { field: out.field, min: out.min, max: out.max }, { field: out.field });
}
