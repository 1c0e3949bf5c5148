// The note of an erasure is kept in the append-only log for good, so it must hold none of the
// erased client's values (docs/security.md "What an erasure does"). Refused when it holds:
// - a name (first, middle or last, or a word of 3 letters or more of one), as a whole word,
//   ignoring case and accents;
// - six or more of the phone's digits in a row, ignoring spaces, dots, dashes and brackets
//   between them (so with or without the country prefix or the trunk 0);
// - the birth date in any common form: 23/07/1991, 23-07-1991, 23.07.1991, 1991-07-23,
//   07/23/1991, 23/07/91, 23 juillet 1991, July 23, 1991, 23071991, 230791, 19910723…;
// - the registration number (spaces and dashes ignored);
// - any other text the client's records hold (address, sub-records, referrals) of 4 characters
//   or more, ignoring case and accents.
import type { Row } from '../../db/index';

export type NoteClash = 'name' | 'phone' | 'birthDate' | 'regNo' | 'text';

/** Lower case, accents removed, every run of spaces one space. */
export const plain = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `word` in `text` as a whole word (not inside a longer word). */
const hasWord = (text: string, word: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(word)}($|[^\\p{L}\\p{N}])`, 'u').test(text);

const MONTHS: readonly (readonly string[])[] = [
  ['january', 'jan', 'janvier', 'janv'],
  ['february', 'feb', 'fevrier', 'fevr', 'fev'],
  ['march', 'mar', 'mars'],
  ['april', 'apr', 'avril', 'avr'],
  ['may', 'mai'],
  ['june', 'jun', 'juin'],
  ['july', 'jul', 'juillet', 'juil'],
  ['august', 'aug', 'aout'],
  ['september', 'sept', 'sep', 'septembre'],
  ['october', 'oct', 'octobre'],
  ['november', 'nov', 'novembre'],
  ['december', 'dec', 'decembre'],
];

/** The note with month names written as numbers ("23 juillet 1991" → "23 07 1991"). */
function monthsAsNumbers(text: string): string {
  let out = text;
  MONTHS.forEach((names, i) => {
    const number = String(i + 1).padStart(2, '0');
    for (const name of [...names].sort((a, b) => b.length - a.length))
      out = out.replace(new RegExp(`(^|[^\\p{L}])${name}\\.?(?=$|[^\\p{L}])`, 'gu'), `$1 ${number} `);
  });
  return out;
}

/** Whether the note holds the date `iso` (YYYY-MM-DD) in a common form. */
function hasDate(text: string, iso: string): boolean {
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return false;
  const spelled = monthsAsNumbers(text).replace(/(\d)(st|nd|rd|th|er)\b/g, '$1');
  const sameYear = (n: number, digits: string) => n === y || (digits.length === 2 && n === y % 100);
  // Three numbers in a row with only separators between them: day-month-year, month-day-year,
  // year-month-day (every three in a row, overlapping: "on 12 23/07/1991").
  const tokens = spelled.split(/(\d+)/);
  for (let i = 1; i + 4 < tokens.length; i += 2) {
    const [aDigits = '', gap1 = '', bDigits = '', gap2 = '', cDigits = ''] = tokens.slice(i, i + 5);
    if (![gap1, gap2].every((gap) => /^[\s./\-,]+$/.test(gap))) continue;
    if ([aDigits, bDigits, cDigits].some((digits) => digits.length > 4)) continue;
    const [a, b, c] = [aDigits, bDigits, cDigits].map(Number) as [number, number, number];
    if (a === d && b === m && sameYear(c, cDigits)) return true;
    if (a === m && b === d && sameYear(c, cDigits)) return true;
    if (sameYear(a, aDigits) && b === m && c === d) return true;
  }
  // Written without separators.
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const yyyy = String(y);
  const yy = yyyy.slice(2);
  const compact = [`${dd}${mm}${yyyy}`, `${mm}${dd}${yyyy}`, `${yyyy}${mm}${dd}`, `${dd}${mm}${yy}`, `${mm}${dd}${yy}`, `${yy}${mm}${dd}`];
  return (text.match(/\d+/g) ?? []).some((run) => compact.some((form) => run.includes(form)));
}

/** Whether the note holds six or more of the phone's digits in a row. */
function hasPhoneDigits(text: string, phone: string): boolean {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 6) return false;
  // Digits written in groups ("89 988-77.66", "(0)899") read as one run.
  const runs =
    text
      .replace(/\(0\)/g, '')
      .replace(/(?<=\d)[\s.\-/()]+(?=[\d(])/g, '')
      .replace(/[()]/g, '')
      .match(/\d{6,}/g) ?? [];
  for (let i = 0; i + 6 <= digits.length; i++) {
    const window = digits.slice(i, i + 6);
    if (runs.some((run) => run.includes(window))) return true;
  }
  return false;
}

/**
 * The first kind of the client's values `note` holds, if any. `client` is the profile row;
 * `texts` the other text values of the client's records.
 */
export function noteClash(note: string, client: Row, texts: readonly string[]): NoteClash | undefined {
  const text = plain(note);
  // A whole name of 2 letters or more, and each word of 3 or more of a name of several words
  // ("Jean de la Fontaine": not "de" nor "la", which any French note holds).
  const names = ['firstName', 'middleName', 'lastName']
    .map((name) => client[name])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => [
      plain(v).trim(),
      ...plain(v)
        .split(/[\s\-']+/)
        .filter((word) => word.length >= 3),
    ])
    .filter((v) => v.length >= 2);
  if (names.some((name) => hasWord(text, name))) return 'name';
  if (typeof client.phone === 'string' && hasPhoneDigits(text, client.phone)) return 'phone';
  if (typeof client.birthDate === 'string' && hasDate(text, client.birthDate.slice(0, 10))) return 'birthDate';
  const regNo = typeof client.prof_Reg_No === 'string' ? plain(client.prof_Reg_No).replace(/[\s-]/g, '') : '';
  if (regNo.length >= 4 && text.replace(/[\s-]/g, '').includes(regNo)) return 'regNo';
  if (texts.map((v) => plain(v).trim()).some((v) => v.length >= 4 && text.includes(v))) return 'text';
  return undefined;
}
