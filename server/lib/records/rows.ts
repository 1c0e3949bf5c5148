// Generic reads and writes of any entity declared in schemas/: one implementation of list,
// get, insert and update for every table, so routes are derived, not written per entity. Each
// goes through the organisation scope (./scope.ts) of the user it is made for.
import { rowFields, writableFields, type EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import type { ListParams, ListRequest } from '../../../schemas/listQuery';
import type { Queryable, Row } from '../../db/index';
import { HttpError, isUniqueViolation } from '../errors';
import { getEntity } from '../../../schemas/index';
import { Conditions } from './conditions';
import { boundedCount } from './count';
import { orderBySql } from './listIndexes';
import { assertDatesInRange } from './dates';
import { addScope, assertRefsInScope, type Access } from './scope';

export interface Page<T = Row> {
  rows: T[];
  /** Exact, or a lower bound when `totalIsLowerBound` (./count.ts). */
  total: number;
  totalIsLowerBound: boolean;
  page: number;
  pageSize: number;
}

const keyField = (e: EntityShape) => e.keyFields[0];

/** The columns an answer may carry: never hidden ones (password hashes). */
export function selectList(e: EntityShape): string {
  return rowFields(e)
    .map(([name]) => ident(name))
    .join(', ');
}

/** Keeps the live records of `e`: not soft-deleted, and neither an erased client's row (ADR-0036),
 * which stays, blanked, for the statistics and the devices' pull, nor any record of that
 * client (sub-records, photos, referrals): reads answer 404 and lists leave them out
 * (docs/security.md "Erased means gone"). `alias` is the table's in the query (its name by default). */
export function addLive(e: EntityShape, where: Conditions, alias = ''): Conditions {
  if (e.softDelete) where.add(`NOT ${alias}"deleted"`);
  if (e.fields.erasedAt) where.add(`${alias}"erasedAt" IS NULL`);
  const client = clientEntity(e);
  if (client && e.parent) {
    const column = `${alias || `${ident(e.table)}.`}${ident(e.parent.field)}`;
    where.add(
      `NOT EXISTS (SELECT 1 FROM ${ident(client.table)} erased WHERE erased.${ident(client.keyFields[0])} = ${column} AND erased."erasedAt" IS NOT NULL)`,
    );
  }
  return where;
}

/** The client `e`'s records belong to, when its parent is one that can be erased (a profile). */
function clientEntity(e: EntityShape): EntityShape | undefined {
  const parent = e.parent && getEntity(e.parent.entity);
  return parent?.fields.erasedAt ? parent : undefined;
}

/** True when `row` of `e` is an erased client, or one of its records. */
async function ofErasedClient(db: Queryable, e: EntityShape, row: Row): Promise<boolean> {
  // `erasedAt` is not in the answered columns: asked of the table.
  const client = e.fields.erasedAt ? e : clientEntity(e);
  const key = e.fields.erasedAt ? row[e.keyFields[0]] : e.parent && row[e.parent.field];
  if (!client || key === undefined) return false;
  const found = await db.query(`SELECT 1 FROM ${ident(client.table)} WHERE ${ident(client.keyFields[0])} = $1 AND "erasedAt" IS NOT NULL`, [
    key,
  ]);
  return found.length > 0;
}

/** The list filters of `query` for `e`, plus the soft-delete rule and the organisation scope. */
export function listConditions(e: EntityShape, query: ListParams, where = new Conditions(), access?: Access): Conditions {
  addScope(e, access, where);
  addLive(e, where);
  for (const name of e.list?.filters ?? []) {
    const value = query[name];
    if (value !== undefined) where.add(`${ident(name)} = ${where.param(value)}`);
  }
  const q = query.q?.trim();
  if (q && e.list?.search.length) {
    const pattern = where.param(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.add(`(${e.list.search.map((name) => `${ident(name)} ILIKE ${pattern}`).join(' OR ')})`);
  }
  const dateColumn = ident(e.list?.dateField ?? 'createdAt');
  if (query.dateFrom) where.add(`${dateColumn} >= ${where.param(query.dateFrom)}::date`);
  if (query.dateTo) where.add(`${dateColumn} < (${where.param(query.dateTo)}::date + 1)`);
  return where;
}

export async function listRows(db: Queryable, e: EntityShape, query: ListRequest, where?: Conditions, access?: Access): Promise<Page> {
  const conditions = listConditions(e, query, where, access);
  const sort = query.sort ?? e.list?.defaultSort.field ?? keyField(e);
  const dir = query.dir ?? e.list?.defaultSort.dir ?? 'asc';
  const filterParams = [...conditions.params];
  const from = `FROM ${ident(e.table)} ${conditions.sql}`;
  const skipped = (Math.max(query.page, 1) - 1) * query.pageSize;
  const limit = conditions.param(query.pageSize);
  const offset = conditions.param(skipped);
  // The page and the count travel together (two pooled connections on PostgreSQL): a list
  // answer costs one round trip to the database instead of two (ADR-0035, "api" benchmark).
  // The page is read along a list index (./listIndexes.ts), the count stops at its bound (./count.ts).
  const [rows, counted] = await Promise.all([
    db.query(`SELECT ${selectList(e)} ${from} ${orderBySql(e, sort, dir)} LIMIT ${limit} OFFSET ${offset}`, conditions.params),
    boundedCount(db, from, filterParams, skipped + query.pageSize),
  ]);
  return { rows, ...counted, page: query.page, pageSize: query.pageSize };
}

/** Condition matching one record by its key (composite keys take the values in key order). */
function keyConditions(e: EntityShape, key: string | readonly string[], where = new Conditions()): Conditions {
  const values = typeof key === 'string' ? [key] : key;
  e.keyFields.forEach((name, i) => where.add(`${ident(name)} = ${where.param(values[i])}`));
  return where;
}

export async function getRow(
  db: Queryable,
  e: EntityShape,
  key: string | readonly string[],
  access?: Access,
  includeDeleted = false,
): Promise<Row | undefined> {
  const where = keyConditions(e, key);
  addScope(e, access, where);
  if (!includeDeleted) addLive(e, where);
  const rows = await db.query(`SELECT ${selectList(e)} FROM ${ident(e.table)} ${where.sql}`, where.params);
  return rows[0];
}

/** The record, or 404 when it does not exist, is soft-deleted or is outside the user's scope;
 * `tellDeleted` (an edit): the 404 of a deleted record says when, by whom and why. */
export async function getRowOr404(
  db: Queryable,
  e: EntityShape,
  key: string | readonly string[],
  access?: Access,
  tellDeleted = false,
): Promise<Row> {
  const row = await getRow(db, e, key, access);
  if (!row) throw tellDeleted ? await missingRecord(db, e, key, access) : new HttpError(404, 'http.recordNotFound');
  return row;
}

/** Only the writable fields of a body, so server-owned columns can never be set by a client. */
export function writableValues(e: EntityShape, body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const allowed = new Set(writableFields(e).map(([name]) => name));
  return Object.fromEntries(Object.entries(body).filter(([name, value]) => allowed.has(name) && value !== undefined));
}

/** Columns to write (server-set values such as status or image names may be added by the caller). */
export type Values = Record<string, unknown>;

const NOW = "date_trunc('milliseconds', now())";

function jsonReady(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value) ? JSON.stringify(value) : value;
}

/** Inserts a record. A key that exists already answers 409 'duplicate entry' (product.md §D2). */
export async function insertRow(db: Queryable, e: EntityShape, values: Values, userId: string | null, access?: Access): Promise<Row> {
  assertDatesInRange(e, values);
  await assertRefsInScope(db, e, values, access);
  const columns = Object.keys(values);
  const params = columns.map((name) => jsonReady(values[name]));
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  params.push(userId);
  const by = `$${params.length}`;
  try {
    const rows = await db.query(
      `INSERT INTO ${ident(e.table)} (${[...columns.map(ident), '"createdAt"', '"updatedAt"', '"createdBy"', '"updatedBy"'].join(', ')})
       VALUES (${[...placeholders, NOW, NOW, by, by].join(', ')}) RETURNING ${selectList(e)}`,
      params,
    );
    return rows[0];
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'http.duplicate');
    if (isForeignKeyViolation(error)) throw new HttpError(400, 'http.parentMissing');
    throw error;
  }
}

/**
 * Updates the given columns of a record. With `baseUpdatedAt` (an offline edit), a record
 * changed on the server since then is not overwritten: 409 'conflict' with the server's copy.
 */
export async function updateRow(
  db: Queryable,
  e: EntityShape,
  key: string | readonly string[],
  values: Values,
  userId: string | null,
  baseUpdatedAt?: string,
  access?: Access,
): Promise<Row> {
  assertDatesInRange(e, values);
  await assertRefsInScope(db, e, values, access);
  const where = new Conditions();
  const sets = Object.keys(values).map((name) => `${ident(name)} = ${where.param(jsonReady(values[name]))}`);
  sets.push(`"updatedAt" = ${NOW}`, `"updatedBy" = ${where.param(userId)}`);
  keyConditions(e, key, where);
  addScope(e, access, where);
  addLive(e, where);
  if (baseUpdatedAt) where.add(`"updatedAt" = ${where.param(baseUpdatedAt)}::timestamptz`);
  let rows: Row[];
  try {
    rows = await db.query(`UPDATE ${ident(e.table)} SET ${sets.join(', ')} ${where.sql} RETURNING ${selectList(e)}`, where.params);
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'http.duplicate');
    if (isForeignKeyViolation(error)) throw new HttpError(400, 'http.parentMissing');
    throw error;
  }
  if (rows[0]) return rows[0];
  const current = await getRow(db, e, key, access);
  if (!current) throw await missingRecord(db, e, key, access);
  throw new HttpError(409, 'http.conflict', {}, { result: 'conflict', server: current });
}

/** The 404 of an edit whose record is not there. One the user could see that was deleted says
 * when, by whom and why, in `deleted` (ADR-0023): an offline edit of it can then be discarded
 * knowingly instead of retried for ever. A record of an erased client (or the client itself) is
 * 410 `http.clientErased`, which devices keep until the user discards the edit. */
async function missingRecord(db: Queryable, e: EntityShape, key: string | readonly string[], access?: Access): Promise<HttpError> {
  const gone = e.softDelete || e.fields.erasedAt || clientEntity(e) ? await getRow(db, e, key, access, true) : undefined;
  // An erased client's record is refused as every write naming that client (./scope.ts assertNotErased).
  if (gone && (await ofErasedClient(db, e, gone))) return new HttpError(410, 'http.clientErased');
  const at = gone && gone.deletedAt;
  if (!gone || !at) return new HttpError(404, 'http.recordNotFound');
  const userId = gone.deletedBy;
  const [user] = userId
    ? await db.query<{ name: string }>('SELECT coalesce(nullif("fullName", \'\'), "userName") AS "name" FROM "users" WHERE "userId" = $1', [
        userId,
      ])
    : [];
  const reason = typeof gone.deleteReason === 'string' && gone.deleteReason ? gone.deleteReason : null;
  return new HttpError(
    404,
    'http.recordDeleted',
    {},
    { deleted: { at: new Date(at as string).toISOString(), by: user?.name ?? null, reason } },
  );
}

export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23503';
}

/** Creates the record of `values` or, when its key exists, replaces the columns it names. */
export async function upsertRow(
  db: Queryable,
  e: EntityShape,
  values: Values,
  userId: string | null,
  access?: Access,
): Promise<{ row: Row; inserted: boolean }> {
  assertDatesInRange(e, values);
  // The key holds the parent (profile sub-records and images): a parent in scope is a record in scope.
  await assertRefsInScope(db, e, values, access);
  const columns = Object.keys(values);
  const params = columns.map((name) => jsonReady(values[name]));
  params.push(userId);
  const by = `$${params.length}`;
  const updates = columns.filter((name) => !e.keyFields.includes(name)).map((name) => `${ident(name)} = EXCLUDED.${ident(name)}`);
  updates.push(`"updatedAt" = ${NOW}`, `"updatedBy" = EXCLUDED."updatedBy"`);
  try {
    const rows = await db.query(
      `INSERT INTO ${ident(e.table)} (${[...columns.map(ident), '"createdAt"', '"updatedAt"', '"createdBy"', '"updatedBy"'].join(', ')})
       VALUES (${[...columns.map((_, i) => `$${i + 1}`), NOW, NOW, by, by].join(', ')})
       ON CONFLICT (${e.keyFields.map(ident).join(', ')}) DO UPDATE SET ${updates.join(', ')}
       RETURNING ${selectList(e)}, (xmax = 0) AS "__inserted"`,
      params,
    );
    const { __inserted, ...row } = rows[0];
    return { row, inserted: Boolean(__inserted) };
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new HttpError(400, 'http.parentMissing');
    throw error;
  }
}
