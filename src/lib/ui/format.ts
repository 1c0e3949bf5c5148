// Dates and numbers as staff read them (product.md §9: "short month, day and year"), in the user's
// language: 'Nov 21, 2026' in English, '21 nov. 2026' in French. One module, so every list,
// page and export shows the same thing.
import type { Lang } from '../session';

/** Explicit regions: a bare 'en' or 'fr' resolves through the ICU data of the runtime, which
 * differs between browsers and Node; these two give the same text everywhere. */
const LOCALES: Record<Lang, string> = { en: 'en-US', fr: 'fr-FR' };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function localeOf(lang: string): string {
  return lang === 'en' ? LOCALES.en : LOCALES.fr;
}

// Formatters are costly to build and a grid formats hundreds of cells: keep one per option set.
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `d|${lang}|${JSON.stringify(options)}`;
  let format = cache.get(id) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(localeOf(lang), options);
    cache.set(id, format);
  }
  return format;
}

function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `n|${lang}|${JSON.stringify(options)}`;
  let format = cache.get(id) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), options);
    cache.set(id, format);
  }
  return format;
}

export type DateInput = string | number | Date | null | undefined;

/** A calendar date 'YYYY-MM-DD' is a day, not an instant: read in local time it would show the
 * day before west of Greenwich. It is therefore formatted in UTC; instants in local time. */
function toDate(value: DateInput): { date: Date; dayOnly: boolean } | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const day = DATE_ONLY.exec(value);
    const date = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : new Date(value);
    return Number.isNaN(date.getTime()) ? null : { date, dayOnly: Boolean(day) };
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : { date, dayOnly: false };
}

const SHORT_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/** 'Nov 21, 2026' / '21 nov. 2026'; '' for an empty or unreadable value. */
export function formatDate(value: DateInput, lang: string): string {
  const parsed = toDate(value);
  if (!parsed) return '';
  return dateFormat(lang, parsed.dayOnly ? { ...SHORT_DATE, timeZone: 'UTC' } : SHORT_DATE).format(parsed.date);
}

/** The short date followed by the local time: 'Nov 21, 2026, 2:05 PM' / '21 nov. 2026, 14:05'. */
export function formatDateTime(value: DateInput, lang: string): string {
  const parsed = toDate(value);
  if (!parsed) return '';
  if (parsed.dayOnly) return formatDate(value, lang);
  return dateFormat(lang, { ...SHORT_DATE, hour: 'numeric', minute: '2-digit' }).format(parsed.date);
}

/** Grouped digits in the user's language: '1,234.5' / '1 234,5'; '' for a non-number. */
export function formatNumber(value: number | string | null | undefined, lang: string, options: Intl.NumberFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? numberFormat(lang, options).format(n) : '';
}
