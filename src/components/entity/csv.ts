// CSV export of "the filtered rows" (product.md §D5): every page of the current query, fetched
// through the same `load` as the grid (so it works offline too), written as a file Excel opens
// correctly in both languages.
import type { ListQuery, ListResult } from '../../lib/data';

/** Byte order mark: without it Excel reads UTF-8 as the local code page ('Ã©' for 'é'). */
export const BOM = '\uFEFF';

/** Largest page the API serves (docs/api.md PAGE_SIZES). */
export const EXPORT_PAGE_SIZE = 200;

/** Rows an export fetches at most: the device's offline mirror is bounded the same way
 * (SYNC_WINDOW), and beyond that a spreadsheet of the whole base is a report, not a list. */
export const EXPORT_ROW_CAP = 5000;

/** Excel takes the list separator of the system's region: ';' where the decimal mark is a
 * comma (French), ',' elsewhere. A 'sep=' line would pick it explicitly, but Excel then ignores
 * the BOM and breaks accents, so the language decides. */
export function csvSeparator(lang: string): ',' | ';' {
  return lang === 'en' ? ',' : ';';
}

const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/** A cell a spreadsheet would run as a formula ('=HYPERLINK(…)', '@SUM', '+cmd|…') is prefixed
 * with an apostrophe (OWASP CSV injection). Only plain signed numbers are left alone: a phone
 * number '+243 81 …' is prefixed too, since Excel would read it as a formula and show #NULL!. */
function defuse(text: string): string {
  if (/^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text)) return `'${text}`;
  return text;
}

/** One cell: quoted when it holds the separator, a quote, a line break or edge spaces;
 * quotes doubled (RFC 4180). */
export function csvCell(value: string, separator: string): string {
  const text = defuse(value);
  const quote = text.includes(separator) || /["\r\n]/.test(text) || text !== text.trim();
  return quote ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: BOM, a header line, one line per row, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[], separator: string): string {
  const lines = [header, ...rows].map((cells) => cells.map((cell) => csvCell(cell, separator)).join(separator));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

export interface AllRows<R> {
  rows: R[];
  total: number;
  /** More rows matched than EXPORT_ROW_CAP. */
  truncated: boolean;
}

/** Every row of `query` (its filters, search and sort), page after page, up to `cap`. */
export async function fetchAllRows<R>(
  load: (query: ListQuery) => Promise<ListResult<R>>,
  query: ListQuery,
  cap = EXPORT_ROW_CAP,
): Promise<AllRows<R>> {
  const rows: R[] = [];
  let total = 0;
  for (let page = 1; rows.length < cap; page += 1) {
    const result = await load({ ...query, page, pageSize: EXPORT_PAGE_SIZE });
    total = result.total;
    rows.push(...result.rows);
    // A short page is the last one, whatever `total` says (rows deleted meanwhile).
    if (result.rows.length < EXPORT_PAGE_SIZE || rows.length >= total) break;
  }
  return { rows: rows.slice(0, cap), total, truncated: total > cap };
}

/** 'Service provider' → 'service-provider', 'Prestataire de services' → 'prestataire-de-services'. */
export function fileSlug(text: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'export';
}
