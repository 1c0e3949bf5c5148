// A calendar day as staff type it: day, month, year in that order, in both languages
// (docs/adr/0043-date-entry.md "Dates typed in the interface's order"). Records keep 'YYYY-MM-DD'; this
// module turns one into the other, and is the one place that knows the typed form.
import { MAX_YEAR, MIN_YEAR } from '../../../schemas/derive/json-schema';
import type { Lang } from '../session';

/** The days any date field takes: the server's years 1900 to 2100 (json-schema.ts MIN_YEAR/MAX_YEAR). */
export const DAY_MIN = `${MIN_YEAR}-01-01`;
export const DAY_MAX = `${MAX_YEAR}-12-31`;

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
// 10/05/2031, 10.05.2031, 10-05-2031, 1/5/2031: day, month, four-digit year.
const TYPED = /^(\d{1,2})[/.\-\s](\d{1,2})[/.\-\s](\d{4})$/;
// 10052031, as a phone's number pad types it.
const DIGITS = /^(\d{2})(\d{2})(\d{4})$/;

/** What the empty field shows: 'jj/mm/aaaa' in French, 'dd/mm/yyyy' in English. */
export function dayPattern(lang: Lang | string): string {
  return lang.startsWith('en') ? 'dd/mm/yyyy' : 'jj/mm/aaaa';
}

function isoOf(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The day a text names, as 'YYYY-MM-DD'; '' for an empty text; null for a text that is no day
 * (31/02/2026, 10/05/31, "demain"). A pasted 'YYYY-MM-DD' is read as well. */
export function parseDay(text: string): string | null {
  const t = text.trim();
  if (t === '') return '';
  const iso = ISO.exec(t);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = TYPED.exec(t) ?? DIGITS.exec(t);
  return m ? isoOf(Number(m[3]), Number(m[2]), Number(m[1])) : null;
}

/** A stored day 'YYYY-MM-DD' as it is typed: '10/05/2031'. Any other text is given back as is. */
export function dayText(value: string | null | undefined): string {
  if (!value) return '';
  const iso = ISO.exec(value);
  return iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : value;
}

/** Typing on a number pad: the slash after the day and the month comes by itself ('10' →
 * '10/'), only while the text grows, so deleting a slash works. A doubled separator is one. */
export function withSlashes(previous: string, next: string): string {
  const text = next.replace(/([/.\-\s])[/.\-\s]+/g, '$1');
  if (text.length <= previous.length) return text;
  return /^\d{2}$|^\d{1,2}\/\d{2}$/.test(text) ? `${text}/` : text;
}

/** Whether a value is a real day 'YYYY-MM-DD' (a field that keeps what was typed may hold text). */
export function isDay(value: string): boolean {
  return ISO.test(value) && parseDay(value) === value;
}
