// The caseload (docs/product.md §6.5.1, docs/offline-contract.md "The caseload"): what a
// field worker's device mirrors of client data. One rule, here:
// - the clients assigned to the worker (tbl_profiles."assignedTo"), those of the worker's
//   territories (users."territories", the clients' `territory` field), and those the worker
//   pinned ("keep on this device", PINS_TABLE), of the worker's own organisation, not erased;
// - each client with exactly its records of the device's tables (the offline entities owned
//   through the client);
// - at most the server's bound (CASELOAD_BOUND), nearest first: pinned, assigned, territory.
//
// What a worker's devices were given is kept per user in MEMBERS_TABLE: a client enters at a
// time (`since`), from which the pull feed serves its rows, whatever their own time; a client
// leaving leaves a departure per record in CASELOAD_DEPARTURES, which the feed turns into a
// removal. reconcileCaseload brings both up to date before every pull of those tables, so
// whatever moved a client in or out (an assignment, a pin, a territory, an erasure, a move to
// another organisation, the bound) is seen at the next pull, and the change stream wakes the
// devices when it moved anything.
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { profile, serverEntities } from '../../../schemas/index';
import type { CaseloadFigures } from '../../../schemas/caseload';
import { hasCaseload, ownerPath, type Actor } from '../../../schemas/scope';
import type { Db, Queryable } from '../../db/index';
import { countBound } from './count';
import { keyExpression } from './organisation';

export const PINS_TABLE = 'caseload_pins';
export const MEMBERS_TABLE = 'caseload_members';
export const CASELOAD_DEPARTURES = 'caseload_departures';

/** The most clients a device mirrors, unless the server says otherwise (CASELOAD_BOUND). */
export const DEFAULT_CASELOAD_BOUND = 3000;
/** The most clients one worker keeps on their devices by hand. */
export const MAX_PINS = 200;
/** The most clients one assignment moves. */
export const MAX_ASSIGN = 500;

/** The change notification channel (server/plugins/sync/changes.ts CHANGE_CHANNEL). */
const CHANNEL = 'icrs_changes';

/** Rank of a client in the caseload: nearest first (docs/adr/0017-caseload.md "The caseload"). */
export const RANKS = { pinned: 0, assigned: 1, territory: 2 } as const;

/** A caseload device: schemas/scope.ts, shared with the device's data layer. */
export { hasCaseload };

/** The offline entities of client data, the client first: what a caseload's clients bring. */
export const caseloadEntities = (): EntityShape[] => serverEntities.filter((e) => e.offline && isClientData(e));

function isClientData(e: EntityShape): boolean {
  const path = ownerPath(e);
  return path?.root.entity.name === profile.name && path.steps.length <= 1;
}

/** True when `user`'s pull of `e` serves the caseload. */
export const servesCaseload = (e: EntityShape, user: Actor): boolean => hasCaseload(user) && e.offline === true && isClientData(e);

/** The column of `e`'s rows naming their client. */
export function clientColumn(e: EntityShape): string {
  const path = ownerPath(e);
  if (!path || path.root.entity.name !== profile.name) throw new Error(`${e.name}: not client data`);
  return path.steps[0]?.parentField ?? profile.keyFields[0];
}

const P = ident(profile.table);
const KEY = ident(profile.keyFields[0]);
const NOW_MS = "date_trunc('milliseconds', clock_timestamp())";

export const CASELOAD_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS ${ident(PINS_TABLE)} (
    "userId" text NOT NULL,
    "prof_Id" text NOT NULL,
    "createdAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY ("userId", "prof_Id")
  )`,
  `CREATE TABLE IF NOT EXISTS ${ident(MEMBERS_TABLE)} (
    "userId" text NOT NULL,
    "prof_Id" text NOT NULL,
    "since" timestamptz NOT NULL,
    "rank" smallint NOT NULL,
    PRIMARY KEY ("userId", "prof_Id")
  )`,
  `CREATE TABLE IF NOT EXISTS ${ident(CASELOAD_DEPARTURES)} (
    "userId" text NOT NULL,
    "table" text NOT NULL,
    "key" text NOT NULL,
    "client" text NOT NULL,
    "updatedAt" timestamptz NOT NULL,
    PRIMARY KEY ("userId", "table", "key")
  )`,
  `CREATE INDEX IF NOT EXISTS "caseload_departures_feed" ON ${ident(CASELOAD_DEPARTURES)} ("userId", "table", "updatedAt", "key")`,
  `CREATE INDEX IF NOT EXISTS "tbl_profiles_assigned" ON ${P} ("assignedTo", "location")`,
  `CREATE INDEX IF NOT EXISTS "tbl_profiles_territory_org" ON ${P} ("territory", "location")`,
];

/** A new client is assigned to whoever registered them, whatever wrote the row. */
export const ASSIGNED_DEFAULT_SQL = [
  `CREATE OR REPLACE FUNCTION icrs_assigned_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."assignedTo" := coalesce(NEW."assignedTo", NEW."createdBy");
  RETURN NEW;
END
$$`,
  `DROP TRIGGER IF EXISTS "tbl_profiles_assigned_default" ON ${P}`,
  `CREATE TRIGGER "tbl_profiles_assigned_default" BEFORE INSERT ON ${P} FOR EACH ROW EXECUTE FUNCTION icrs_assigned_default()`,
];

/** Clients of before are assigned to whoever registered them: bookkeeping, not a change of the
 * record (no audit entry, no new time: devices learn it with the record's next change). */
export const ASSIGNED_BACKFILL_SQL = [
  `ALTER TABLE ${P} DISABLE TRIGGER USER`,
  `UPDATE ${P} SET "assignedTo" = "createdBy" WHERE "assignedTo" IS NULL AND "createdBy" IS NOT NULL`,
  `ALTER TABLE ${P} ENABLE TRIGGER USER`,
];

/** A change of a user's territories, organisation, role or state changes their caseload: their
 * organisation's devices are told to pull the clients (the user's own among them). */
export const USER_CASELOAD_TRIGGER_SQL = [
  `CREATE OR REPLACE FUNCTION icrs_user_caseload() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANNEL}', '${profile.table}:' || coalesce(OLD."location", 0)::text);
  PERFORM pg_notify('${CHANNEL}', '${profile.table}:' || coalesce(NEW."location", 0)::text);
  RETURN NULL;
END
$$`,
  `DROP TRIGGER IF EXISTS "users_caseload" ON "users"`,
  `CREATE TRIGGER "users_caseload" AFTER UPDATE OF "territories", "location", "role", "active" ON "users"
    FOR EACH ROW EXECUTE FUNCTION icrs_user_caseload()`,
];

/** What a caseload is computed for: a worker, and optionally a proposed change of it. */
export interface CaseloadOf {
  userId: string;
  organisation: number;
  /** Clients to count as assigned to the worker besides those that are (a proposed assignment). */
  assign?: readonly string[];
  /** Territories instead of the worker's own (a proposed territory change). */
  territories?: readonly number[];
}

/**
 * Every client of the caseload with its rank, unbounded, as SQL selecting ("id", "rank"); the
 * parameters go into `params`.
 */
function candidatesSql(of: CaseloadOf, params: unknown[]): string {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const user = p(of.userId);
  const organisation = p(of.organisation);
  // Each branch reads only its own clients, through an index, and checks them where it reads
  // them: the territories as one array of an index's key values (tbl_profiles_territory_org), not
  // a set (`IN (SELECT jsonb_array_elements_text …)`: the planner guessed 100 territories), and
  // no join of the branches' union back to the clients (it guessed that union large, and read
  // every client of the organisation to hash them). Both made a reconciliation read the whole
  // organisation, 1.9 s at 100,000 clients (docs/performance.md "The caseload feed at 10k, 100k
  // and 1M").
  const territories = of.territories
    ? `${p([...of.territories])}::int[]`
    : `ARRAY(SELECT (jsonb_array_elements_text(coalesce(u."territories", '[]'::jsonb)))::int FROM "users" u WHERE u."userId" = ${user})`;
  const live = (alias: string) => `${alias}."location" = ${organisation} AND ${alias}."erasedAt" IS NULL`;
  const assign = of.assign?.length
    ? `UNION ALL SELECT x.${KEY}, ${RANKS.assigned} FROM ${P} x WHERE x.${KEY} = ANY(${p([...of.assign])}::text[]) AND ${live('x')}`
    : '';
  return `SELECT c."id", min(c."rank") AS "rank" FROM (
      SELECT pin."prof_Id" AS "id", ${RANKS.pinned} AS "rank" FROM ${ident(PINS_TABLE)} pin JOIN ${P} p ON p.${KEY} = pin."prof_Id"
        WHERE pin."userId" = ${user} AND ${live('p')}
      UNION ALL SELECT a.${KEY}, ${RANKS.assigned} FROM ${P} a WHERE a."assignedTo" = ${user} AND ${live('a')}
      ${assign}
      UNION ALL SELECT t.${KEY}, ${RANKS.territory} FROM ${P} t WHERE t."territory" = ANY(${territories}) AND ${live('t')}
    ) c
    GROUP BY c."id"`;
}

/** The caseload's clients within the bound, nearest first, then newest first (a UUIDv7 key is
 * its creation time), so that the cut is the same from one pull to the next. */
function keptSql(of: CaseloadOf, bound: number, params: unknown[]): string {
  const candidates = candidatesSql(of, params);
  params.push(bound);
  return `SELECT k."id", k."rank" FROM (${candidates}) k ORDER BY k."rank", k."id" DESC LIMIT $${params.length}`;
}

/**
 * A client a field worker registers is in their caseload from its creation (assigned to them by
 * default): a member at once, in the creation's transaction, from its time. Whatever moves it
 * out before their next pull (an assignment to a colleague, a move, an erasure, the bound) then
 * leaves a departure for their devices, which hold it since they wrote it; without the member,
 * the next reconciliation saw it neither enter nor leave, and it stayed on the device.
 */
export async function joinCreatorsCaseload(tx: Queryable, actor: Actor & { userId: string }, clientId: string): Promise<void> {
  if (!hasCaseload(actor)) return;
  await tx.query(
    `INSERT INTO ${ident(MEMBERS_TABLE)} ("userId", "prof_Id", "since", "rank")
     SELECT $1, p.${KEY}, p."updatedAt", ${RANKS.assigned} FROM ${P} p WHERE p.${KEY} = $2
     ON CONFLICT ("userId", "prof_Id") DO NOTHING`,
    [actor.userId, clientId],
  );
}

/** Brings the members and departures of `user`'s caseload up to date (see the top of this
 * file), in one transaction serialised per user; true when anything moved. */
export async function reconcileCaseload(db: Db, user: { userId: string; location: number }, bound: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('icrs-caseload:' || $1::text))`, [user.userId]);
    // Only the differences between the caseload and what the devices were given come back: a
    // pull asks this before each of its pages, and at 2,000 clients two lists of 2,000 rows
    // each time went to this process to be compared (docs/performance.md "The caseload at 4×").
    const params: unknown[] = [];
    const kept = keptSql({ userId: user.userId, organisation: user.location }, bound, params);
    params.push(user.userId);
    const diff = await tx.query<{ id: string; want: number | null; had: number | null }>(
      `SELECT coalesce(k."id", m."prof_Id") AS "id", k."rank" AS "want", m."rank" AS "had"
       FROM (${kept}) k FULL JOIN (SELECT "prof_Id", "rank" FROM ${ident(MEMBERS_TABLE)} WHERE "userId" = $${params.length}) m
         ON m."prof_Id" = k."id"
       WHERE k."id" IS NULL OR m."prof_Id" IS NULL OR k."rank" <> m."rank"`,
      params,
    );
    const enteredRanks = diff.filter((d) => d.had === null).map((d) => ({ id: d.id, rank: Number(d.want) }));
    const entered = enteredRanks.map((d) => d.id);
    const left = diff.filter((d) => d.want === null).map((d) => d.id);
    const reranked = diff.filter((d) => d.want !== null && d.had !== null).map((d) => ({ id: d.id, rank: Number(d.want) }));
    if (!entered.length && !left.length && !reranked.length) return false;
    // A writer from here on (an xid), then its time: a feed computing its horizon after this
    // sees this transaction running; one that computed it before has a horizon before `since`
    // (server/plugins/sync/feed.ts HORIZON_SQL). Nothing is served at `since` or later until
    // this transaction ends, so no device's checkpoint passes a member it adds.
    await tx.query('SELECT pg_current_xact_id()');
    const [{ since } = { since: '' }] = await tx.query<{ since: string }>(
      `SELECT to_char(${NOW_MS} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "since"`,
    );
    if (left.length) {
      await tx.query(`DELETE FROM ${ident(MEMBERS_TABLE)} WHERE "userId" = $1 AND "prof_Id" = ANY($2::text[])`, [user.userId, left]);
      for (const e of caseloadEntities()) {
        const client = ident(clientColumn(e));
        const source =
          e.name === profile.name
            ? `SELECT $2::text AS "table", id AS "key", id AS "client" FROM unnest($3::text[]) id`
            : `SELECT $2::text, ${keyExpression(e, 't.')}, t.${client} FROM ${ident(e.table)} t WHERE t.${client} = ANY($3::text[])`;
        await tx.query(
          `INSERT INTO ${ident(CASELOAD_DEPARTURES)} ("userId", "table", "key", "client", "updatedAt")
           SELECT $1, s.* , $4::timestamptz FROM (${source}) s
           ON CONFLICT ("userId", "table", "key") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt", "client" = EXCLUDED."client"`,
          [user.userId, e.table, left, since],
        );
      }
    }
    // The devices are told to pull every client table when a client left, or entered with
    // records the device has not seen: someone else's client, or one coming back. A client the
    // worker registered needs no call: its records' own writes woke the device, and each pull
    // reconciles first (an upload of many new clients must not cost every table's pull again).
    const foreign = entered.length
      ? await tx.query(
          `SELECT 1 FROM ${P} p WHERE p.${KEY} = ANY($1::text[]) AND (p."createdBy" IS DISTINCT FROM $2
             OR EXISTS (SELECT 1 FROM ${ident(CASELOAD_DEPARTURES)} d WHERE d."userId" = $2 AND d."client" = p.${KEY})) LIMIT 1`,
          [entered, user.userId],
        )
      : [];
    if (entered.length) {
      await tx.query(
        `INSERT INTO ${ident(MEMBERS_TABLE)} ("userId", "prof_Id", "since", "rank")
         SELECT $1, k."id", $3::timestamptz, k."rank" FROM jsonb_to_recordset($2::jsonb) AS k("id" text, "rank" smallint)
         ON CONFLICT ("userId", "prof_Id") DO NOTHING`,
        [user.userId, JSON.stringify(enteredRanks), since],
      );
      // A client coming back is served again from `since`: its old departures are done.
      await tx.query(`DELETE FROM ${ident(CASELOAD_DEPARTURES)} WHERE "userId" = $1 AND "client" = ANY($2::text[])`, [
        user.userId,
        entered,
      ]);
    }
    for (const k of reranked)
      await tx.query(`UPDATE ${ident(MEMBERS_TABLE)} SET "rank" = $3 WHERE "userId" = $1 AND "prof_Id" = $2`, [user.userId, k.id, k.rank]);
    if (left.length || foreign.length)
      for (const e of caseloadEntities()) await tx.query(`SELECT pg_notify($1, $2)`, [CHANNEL, `${e.table}:${user.location}`]);
    return true;
  });
}

export type { CaseloadFigures };

/**
 * What a row of client data costs on a device, as a multiple of its size in the database: the
 * JSON document, sealed (encrypted, base64: 4/3), the sync fields, RxDB's meta and IndexedDB's
 * indexes (docs/adr/0017-caseload.md "The caseload"). Bench/ compares the estimate with the device's
 * navigator.storage.estimate().
 */
const DEVICE_BYTES_PER_DB_BYTE = 3;
/** RxDB's and IndexedDB's own cost of a document beyond its data: measured by
 * bench/caseload.bench.ts (2,000 clients, 12,000 rows: 31.2 MB in Chromium's IndexedDB after
 * the fill, where 400 gave 11.4 MB; docs/adr/0017-caseload.md "The caseload", size estimate). */
const DEVICE_BYTES_PER_ROW = 2000;

/** The figures of a caseload, as it is or with a proposed change (`of.assign`, `of.territories`). */
export async function caseloadFigures(db: Queryable, of: CaseloadOf, bound: number): Promise<CaseloadFigures> {
  const params: unknown[] = [];
  const candidates = candidatesSql(of, params);
  params.push(bound);
  const limit = `$${params.length}`;
  const sizes = caseloadEntities()
    .map((e) => {
      const client = ident(clientColumn(e));
      const live = e.softDelete ? ' AND NOT t."deleted"' : '';
      return `SELECT count(*)::int AS "rows", coalesce(sum(pg_column_size(t.*)), 0)::bigint AS "bytes" FROM ${ident(e.table)} t JOIN kept ON kept."id" = t.${client} WHERE true${live}`;
    })
    .join(' UNION ALL ');
  params.push(of.organisation);
  const organisation = `$${params.length}`;
  // The organisation's clients are counted up to the caseload's bound and the lists' count bound
  // beyond it, never all of them, as a list's count (docs/adr/0035-performance.md "A list's count
  // is bounded"): a request's cost must not grow with the organisation. Past it, `outside` is a
  // lower bound.
  const organisationLimit = bound + countBound();
  const [row] = await db.query<Record<string, string | number>>(
    `WITH cand AS (${candidates}),
       kept AS (SELECT "id", "rank" FROM cand ORDER BY "rank", "id" DESC LIMIT ${limit}),
       sizes AS (${sizes})
     SELECT (SELECT count(*) FROM kept)::int AS "clients", (SELECT count(*) FROM cand)::int AS "candidates",
       (SELECT count(*) FROM kept WHERE "rank" = ${RANKS.pinned})::int AS "pinned",
       (SELECT count(*) FROM kept WHERE "rank" = ${RANKS.assigned})::int AS "assigned",
       (SELECT count(*) FROM kept WHERE "rank" = ${RANKS.territory})::int AS "territory",
       (SELECT count(*) FROM (SELECT 1 FROM ${P} p WHERE p."location" = ${organisation} AND p."erasedAt" IS NULL LIMIT ${organisationLimit + 1}) o)::int AS "organisation",
       (SELECT coalesce(sum("rows"), 0) FROM sizes)::int AS "rows", (SELECT coalesce(sum("bytes"), 0) FROM sizes)::bigint AS "bytes"`,
    params,
  );
  const n = (name: string) => Number(row?.[name] ?? 0);
  const bytes = n('bytes') * DEVICE_BYTES_PER_DB_BYTE + n('rows') * DEVICE_BYTES_PER_ROW;
  return {
    clients: n('clients'),
    candidates: n('candidates'),
    overflow: Math.max(0, n('candidates') - n('clients')),
    bound,
    pinned: n('pinned'),
    assigned: n('assigned'),
    territory: n('territory'),
    outside: Math.max(0, Math.min(n('organisation'), organisationLimit) - n('clients')),
    outsideIsLowerBound: n('organisation') > organisationLimit,
    rows: n('rows'),
    megabytes: Math.round((bytes / 1e6) * 100) / 100,
  };
}
