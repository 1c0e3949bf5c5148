// The pull feed of one table (GET /api/sync/{table}): rows changed after a checkpoint, in
// (updatedAt, key) order, limited to what the user's device should mirror.
import { rowFields, type EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { getEntity } from '../../../schemas/index';
import { mirrorScope, ownerColumn } from '../../../schemas/scope';
import type { Queryable, Row } from '../../db/index';
import { Conditions, scopeSql, selectList } from '../../lib/records';
import { DEPARTURES_TABLE, keyExpression, keyFieldsOf } from '../../lib/records/organisation';
import { CASELOAD_DEPARTURES, clientColumn, MEMBERS_TABLE, servesCaseload } from '../../lib/records/caseload';
import { DIRECTORY_MEMBERS, directoryRootOf, rootKeyOf, servesDirectory } from '../../lib/records/directory';
import type { PublicUser } from '../users/store';

/** The most rows of one table a device mirrors on its first pull (product.md §D6: bounded). */
export const SYNC_WINDOW = 5000;

export interface Checkpoint {
  updatedAt: string;
  id: string;
}

/** The organisation scope of a device's mirror (schemas/scope.ts mirrorScope): its own
 * organisation's records, children through their parent; role 1 without one: everything. */
function scopeCondition(e: EntityShape, user: PublicUser, where: Conditions, alias: string): string | undefined {
  return scopeSql(e, mirrorScope(user, e), where, alias);
}

/**
 * Rows are returned only once no running write transaction can still commit a row that sorts
 * before them: a row's updatedAt is its transaction's start, so everything older than the
 * oldest running writer's start is final. Without writers, now() is the horizon. Only this
 * database's writers count: another database on the same server (another installation, a
 * test's scratch database) commits nothing here, and must not hold the feed back.
 */
export const HORIZON_SQL = `coalesce(
  (SELECT date_trunc('milliseconds', min(xact_start)) FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND datname = current_database()),
  now())`;

/** A time as exact text (microseconds), so a checkpoint sent back compares equal to its row. */
const exactTime = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Where a first pull starts: the SYNC_WINDOW-th newest row of the device's scope. */
async function windowStart(db: Queryable, e: EntityShape, user: PublicUser): Promise<Checkpoint | undefined> {
  const where = new Conditions();
  const scope = scopeCondition(e, user, where, 't.');
  const rows = await db.query<{ updatedAt: string; id: string }>(
    `SELECT ${exactTime('t."updatedAt"')} AS "updatedAt", ${keyExpression(e, 't.')} AS id FROM ${ident(e.table)} t ${scope ? `WHERE ${scope}` : ''}
     ORDER BY t."updatedAt" DESC, ${keyExpression(e, 't.')} DESC OFFSET ${SYNC_WINDOW - 1} LIMIT 1`,
    where.params,
  );
  return rows[0];
}

export async function pullChanges(db: Queryable, e: EntityShape, user: PublicUser, since: Checkpoint | undefined, limit: number) {
  if (servesCaseload(e, user)) return pullMembers(db, e, user, since, limit, caseloadMembers(e));
  if (servesDirectory(e, user)) return pullMembers(db, e, user, since, limit, directoryMembers(e));
  const where = new Conditions();
  const key = keyExpression(e, 't.');
  const scope = scopeCondition(e, user, where, 't.');
  if (scope) where.add(scope);
  where.add(`t."updatedAt" < ${HORIZON_SQL}`);
  const start = since ?? (await windowStart(db, e, user));
  const after = since ? '>' : '>=';
  if (start) where.add(`(t."updatedAt", ${key}) ${after} (${where.param(start.updatedAt)}::timestamptz, ${where.param(start.id)})`);
  const max = where.param(limit);
  const rows = `SELECT ${feedColumns(e)}, ${key} AS "__key", t."updatedAt" AS "__at", false AS "__gone" FROM ${ident(e.table)} t ${where.sql}
     ORDER BY t."updatedAt", ${key} LIMIT ${max}`;
  const gone = departures(e, user, where, start, after, max);
  const page = await db.query<Row & { __key: string; __at: unknown; __gone: boolean; __ts: string }>(
    `SELECT *, ${exactTime('u."__at"')} AS "__ts" FROM (${gone ? `(${rows}) UNION ALL (${gone})` : rows}) u ORDER BY u."__at", u."__key" LIMIT ${max}`,
    where.params,
  );
  const last = page.at(-1);
  const checkpoint = last ? { updatedAt: last.__ts, id: last.__key } : (since ?? null);
  return { documents: page.map(feedDocument), checkpoint };
}

/** A feed row as the device gets it: the record's columns; a departure only its key, its time
 * and `_deleted`. */
function feedDocument({ __key: _key, __at: _at, __gone: gone, __ts: _ts, ...row }: Row & { __gone: boolean }): Row {
  return gone ? Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) : row;
}

/**
 * The rows that left the device's organisation after the checkpoint (server/lib/records/
 * organisation.ts DEPARTURES_TABLE), as removals in the feed's order: a client moved to another
 * organisation, and its records with it, leave the old organisation's devices at their next
 * pull (docs/offline-contract.md "Leaving an organisation"). Only the key travels, never what the
 * row holds now. Undefined when the device mirrors every organisation, or none.
 */
function departures(
  e: EntityShape,
  user: PublicUser,
  where: Conditions,
  start: Checkpoint | undefined,
  after: string,
  max: string,
): string | undefined {
  const scope = mirrorScope(user, e);
  if (typeof scope !== 'object' || !ownerColumn(e)) return undefined;
  const columns = departureColumns(e);
  const conditions = [
    `d."table" = ${where.param(e.table)}`,
    `d."organisation" = ${where.param(scope.organisation)}`,
    `d."updatedAt" < ${HORIZON_SQL}`,
  ];
  if (start) conditions.push(`(d."updatedAt", d."key") ${after} (${where.param(start.updatedAt)}::timestamptz, ${where.param(start.id)})`);
  return `SELECT ${columns.join(', ')}, true AS "_deleted", d."key" AS "__key", d."updatedAt" AS "__at", true AS "__gone"
     FROM ${ident(DEPARTURES_TABLE)} d WHERE ${conditions.join(' AND ')} ORDER BY d."updatedAt", d."key" LIMIT ${max}`;
}

/** A departure's columns as a feed row: the key's fields, its time, nothing else (NULL). */
function departureColumns(e: EntityShape): string[] {
  const fromKey = new Map(keyFieldsOf(e, 'd."key"'));
  return rowFields(e).map(([name]) => `${fromKey.get(name) ?? (name === 'updatedAt' ? 'd."updatedAt"' : 'NULL')} AS ${ident(name)}`);
}

/** How a member feed finds the members a row belongs to: joins after the table `t` (its
 * parents, then the members `m`), given the user's id parameter. */
type MembersJoin = (where: Conditions, userId: string) => string;

/** A client table's rows by the caseload's clients (server/lib/records/caseload.ts). */
const caseloadMembers =
  (e: EntityShape): MembersJoin =>
  (_where, userId) =>
    `JOIN ${ident(MEMBERS_TABLE)} m ON m."userId" = ${userId} AND m."prof_Id" = t.${ident(clientColumn(e))}`;

/** A directory table's rows by the entries of the worker's directory (server/lib/records/
 * directory.ts): up its parents to its provider or job. */
function directoryMembers(e: EntityShape): MembersJoin {
  const root = directoryRootOf(e);
  if (!root) throw new Error(`${e.name}: not a directory table`);
  const { joins, key } = rootKeyOf(e);
  return (where, userId) =>
    `${joins} JOIN ${ident(DIRECTORY_MEMBERS)} m ON m."userId" = ${userId} AND m."table" = ${where.param(root.table)} AND m."key" = ${key}`;
}

/**
 * The pull feed of a table a device mirrors by members, the caseload's clients or the
 * directory's entries of a field worker (server/lib/records/caseload.ts, directory.ts;
 * docs/offline-contract.md "The caseload"): the rows of the members, each at its own time or
 * the time its member entered, whichever is later, and the departures of the members that
 * left. No window: the bound of the members is the bound. The caller reconciled them just
 * before.
 */
async function pullMembers(
  db: Queryable,
  e: EntityShape,
  user: PublicUser,
  since: Checkpoint | undefined,
  limit: number,
  members: MembersJoin,
) {
  const where = new Conditions();
  const key = keyExpression(e, 't.');
  const userId = where.param(user.userId);
  const at = 'greatest(t."updatedAt", m."since")';
  const join = members(where, userId);
  const scope = scopeCondition(e, user, where, 't.');
  if (scope) where.add(scope);
  where.add(`${at} < ${HORIZON_SQL}`);
  const departed = [`d."userId" = ${userId}`, `d."table" = ${where.param(e.table)}`, `d."updatedAt" < ${HORIZON_SQL}`];
  if (since) {
    const sinceAt = where.param(since.updatedAt);
    const sinceId = where.param(since.id);
    where.add(`(${at}, ${key}) > (${sinceAt}::timestamptz, ${sinceId})`);
    departed.push(`(d."updatedAt", d."key") > (${sinceAt}::timestamptz, ${sinceId})`);
  }
  const max = where.param(limit);
  const rows = `SELECT ${feedColumns(e)}, ${key} AS "__key", ${at} AS "__at", false AS "__gone"
     FROM ${ident(e.table)} t ${join}
     ${where.sql} ORDER BY ${at}, ${key} LIMIT ${max}`;
  const gone = `SELECT ${departureColumns(e).join(', ')}, true AS "_deleted", d."key" AS "__key", d."updatedAt" AS "__at", true AS "__gone"
     FROM ${ident(CASELOAD_DEPARTURES)} d WHERE ${departed.join(' AND ')} ORDER BY d."updatedAt", d."key" LIMIT ${max}`;
  const page = await db.query<Row & { __key: string; __at: unknown; __gone: boolean; __ts: string }>(
    `SELECT *, ${exactTime('u."__at"')} AS "__ts" FROM ((${rows}) UNION ALL (${gone})) u ORDER BY u."__at", u."__key" LIMIT ${max}`,
    where.params,
  );
  const last = page.at(-1);
  const checkpoint = last ? { updatedAt: last.__ts, id: last.__key } : (since ?? null);
  return { documents: page.map(feedDocument), checkpoint };
}

/** True for a row of an erased client (ADR-0036): the client's own row, or one of its records. */
function erasedSql(e: EntityShape): string {
  if (e.fields.erasedAt) return 't."erasedAt" IS NOT NULL';
  const parent = e.parent && getEntity(e.parent.entity);
  if (!e.parent || !parent?.fields.erasedAt) return 'false';
  // A scalar lookup of the row's own client (its primary key), not an EXISTS: the planner turned
  // that into one scan of every client for the erased ones (no index serves "erasedAt"), about
  // 80 ms per page at 200,000 clients whatever the page's size (docs/performance.md "First pull
  // at national scale").
  return `coalesce((SELECT c."erasedAt" IS NOT NULL FROM ${ident(parent.table)} c WHERE c.${ident(parent.keyFields[0] as string)} = t.${ident(e.parent.field)}), false)`;
}

/** A feed row's columns: the record's, and whether it was deleted (or its client erased: the
 * device drops it at its next pull). */
function feedColumns(e: EntityShape): string {
  const columns = selectList(e)
    .split(', ')
    .map((c) => `t.${c}`)
    .join(', ');
  return `${columns}, (${e.softDelete ? 't."deleted"' : 'false'} OR ${erasedSql(e)}) AS "_deleted"`;
}

/**
 * The device's mirror rows of some keys, as the feed gives them, whatever their time: for a
 * record whose local edit was dropped (discarded, or settled in favour of the server's copy)
 * after the feed had passed its server row. A key missing from the answer is not in the
 * device's scope any more, or not on the server.
 */
export async function pullKeys(db: Queryable, e: EntityShape, user: PublicUser, keys: readonly string[]) {
  const where = new Conditions();
  const scope = scopeCondition(e, user, where, 't.');
  if (scope) where.add(scope);
  where.add(`${keyExpression(e, 't.')} = ANY(${where.param([...keys])}::text[])`);
  // A device mirroring a caseload or a directory by members gets only its members' rows:
  // another key is gone from it.
  const members = servesCaseload(e, user) ? caseloadMembers(e) : servesDirectory(e, user) ? directoryMembers(e) : undefined;
  const join = members ? members(where, where.param(user.userId)) : '';
  const rows = await db.query<Row>(`SELECT ${feedColumns(e)} FROM ${ident(e.table)} t ${join} ${where.sql}`, where.params);
  return { documents: rows };
}
