// Possible duplicates of a client being registered (ADR-0028), the rule of
// schemas/duplicates.ts in SQL. Only among the clients the user may read (the organisation
// scope), like every read.
import { profile } from '../../../schemas/index';
import { foldName, MAX_DUPLICATES, MIN_PHONE_DIGITS, phoneDigits, type Duplicate, type DuplicateQuery } from '../../../schemas/duplicates';
import type { Queryable } from '../../db/index';
import { addScope, Conditions, type Access } from '../../lib/records';

/** foldName in SQL: NFD, combining marks (U+0300-U+036F) removed, lower case, spaces collapsed. */
const foldSql = (column: string) =>
  `regexp_replace(btrim(lower(regexp_replace(normalize(${column}, NFD), '[' || chr(768) || '-' || chr(879) || ']', '', 'g'))), '\\s+', ' ', 'g')`;
const digitsSql = (column: string) => `regexp_replace(coalesce(${column}, ''), '[^0-9]', '', 'g')`;

export async function findDuplicates(db: Queryable, query: DuplicateQuery, access: Access): Promise<Duplicate[]> {
  const first = query.firstName ? foldName(query.firstName) : '';
  const last = query.lastName ? foldName(query.lastName) : '';
  const digits = query.phone ? phoneDigits(query.phone) : '';
  const where = new Conditions();
  const byName =
    first && last && query.birthDate
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
