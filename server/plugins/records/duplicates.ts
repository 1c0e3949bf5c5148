// Possible duplicates of a client being registered (issue 11): clients with the same first and
// last name (case and accents ignored) and the same birth date, or the same phone number
// (digits only). Only among the clients the user may read (the organisation scope), like
// every read.
import { profile } from '../../../schemas/index';
import type { Queryable } from '../../db/index';
import { addScope, Conditions, type Access } from '../../lib/records';

export interface DuplicateQuery {
  firstName?: string | null;
  lastName?: string | null;
  birthDate?: string | null;
  phone?: string | null;
  exclude?: string | null;
}

export interface Duplicate {
  prof_Id: string;
  prof_Reg_No: string;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  phone: string | null;
  /** What matched: 'name' (names and birth date), 'phone', or both. */
  match: ('name' | 'phone')[];
}

/** At most this many are listed: enough to see that a client may exist already. */
export const MAX_DUPLICATES = 20;
/** A phone number is compared when it has at least this many digits. */
export const MIN_PHONE_DIGITS = 6;

/** Lower case without accents, spaces trimmed and collapsed: 'Élodie ' → 'elodie'. The
 * database applies the same folding (foldSql), so 'ÉLODIE' there matches 'elodie' here. */
export function foldName(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

export function phoneDigits(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

/** foldName in SQL: NFD, combining marks (U+0300-U+036F) removed, lower case, spaces collapsed. */
const foldSql = (column: string) =>
  `regexp_replace(btrim(lower(regexp_replace(normalize(${column}, NFD), '[' || chr(768) || '-' || chr(879) || ']', '', 'g'))), '\\s+', ' ', 'g')`;
const digitsSql = (column: string) => `regexp_replace(coalesce(${column}, ''), '[^0-9]', '', 'g')`;

export async function findDuplicates(db: Queryable, query: DuplicateQuery, access: Access): Promise<Duplicate[]> {
  const first = query.firstName ? foldName(query.firstName) : '';
  const last = query.lastName ? foldName(query.lastName) : '';
  const digits = query.phone ? phoneDigits(query.phone) : '';
  const where = new Conditions();
  const byName = first && last && query.birthDate
    ? `(${foldSql('"firstName"')} = ${where.param(first)} AND ${foldSql('"lastName"')} = ${where.param(last)} AND "birthDate" = ${where.param(query.birthDate)}::date)`
    : 'false';
  const byPhone = digits.length >= MIN_PHONE_DIGITS ? `(${digitsSql('"phone"')} = ${where.param(digits)})` : 'false';
  if (byName === 'false' && byPhone === 'false') return [];
  const select = `SELECT "prof_Id", "prof_Reg_No", "firstName", "lastName", to_char("birthDate", 'YYYY-MM-DD') AS "birthDate", "phone",
      ${byName} AS "sameName", ${byPhone} AS "samePhone"
    FROM "tbl_profiles"`;
  where.add(`(${byName} OR ${byPhone})`);
  if (query.exclude) where.add(`"prof_Id" <> ${where.param(query.exclude)}`);
  addScope(profile, access, where);
  const rows = await db.query<Omit<Duplicate, 'match'> & { sameName: boolean; samePhone: boolean }>(
    `${select} ${where.sql} ORDER BY "createdAt" DESC LIMIT ${where.param(MAX_DUPLICATES)}`,
    where.params,
  );
  return rows.map(({ sameName, samePhone, ...row }) => ({
    ...row,
    match: [...(sameName ? ['name' as const] : []), ...(samePhone ? ['phone' as const] : [])],
  }));
}
