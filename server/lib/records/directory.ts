// The directory on a field worker's device (docs/product.md §6.5.1, docs/offline-contract.md
// "The caseload"): the providers with their services and trainings, and the jobs with their
// further positions, that a caseload device (server/lib/records/caseload.ts hasCaseload)
// mirrors. One rule, here:
// - an entry (a provider, a job: a root of the directory, which carries a `territory`) is on
//   the device when it belongs to the worker's organisation, is not deleted, and lies in one of
//   the worker's territories, or one of its direct records does (a provider offering a service
//   in the territory), or the worker registered it; a worker without territories: every entry
//   of the organisation;
// - each entry with all its records (a service with its provider, a training with its service);
// - at most the server's bound (CASELOAD_BOUND) entries of each kind, the worker's own first,
//   then newest first (a UUIDv7 key is its creation time), so the cut does not move.
// Members and departures as for the caseload's clients: what a worker's devices were given is
// kept in DIRECTORY_MEMBERS (with the time each entry entered), what left in the caseload's
// departures table (its `client` column holds the entry's key), reconciled before every pull of
// a directory table; a departure is a removal at the device's next pull, never of a pending
// record (src/lib/sync/replication/tablePull.ts decide).
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { serverEntities } from '../../../schemas/index';
import { type Actor, ownerPath } from '../../../schemas/scope';
import type { Db } from '../../db/index';
import { CASELOAD_DEPARTURES, hasCaseload } from './caseload';
import { keyExpression } from './organisation';

export const DIRECTORY_MEMBERS = 'directory_members';

/** The change notification channel (server/plugins/sync/changes.ts CHANGE_CHANNEL). */
const CHANNEL = 'icrs_changes';
const NOW_MS = "date_trunc('milliseconds', clock_timestamp())";

/** Rank of an entry: the worker's own first, then the others. */
const RANKS = { own: 0, other: 1 } as const;

/** The roots of the directory: offline entities owned by their own field, with a territory,
 * that are not client data. */
export const directoryRoots = (): EntityShape[] =>
  serverEntities.filter((e) => {
    const path = ownerPath(e);
    return e.offline === true && path?.steps.length === 0 && e.name !== 'profile' && e.fields.territory?.kind === 'lookup';
  });

/** The root entity of a directory table, or undefined when `e` is not one. */
export function directoryRootOf(e: EntityShape): EntityShape | undefined {
  if (!e.offline) return undefined;
  const root = ownerPath(e)?.root.entity;
  return root && directoryRoots().some((r) => r.name === root.name) ? root : undefined;
}

/** Every directory table, roots before their records. */
export const directoryEntities = (): EntityShape[] => serverEntities.filter((e) => directoryRootOf(e) !== undefined);

/** True when `user`'s pull of `e` serves the directory of their territories. */
export const servesDirectory = (e: EntityShape, user: Actor): boolean => hasCaseload(user) && directoryRootOf(e) !== undefined;

/**
 * How a row of `e` (alias `t`) reaches its root's key: the joins up its parents, and the root
 * key's expression. A root is its own.
 */
export function rootKeyOf(e: EntityShape, alias = 't'): { joins: string; key: string } {
  const path = ownerPath(e);
  if (!path) throw new Error(`${e.name}: not organisation data`);
  let current = alias;
  const joins: string[] = [];
  path.steps.forEach((step, i) => {
    if (i === path.steps.length - 1) return;
    const next = `${alias}_up${i}`;
    joins.push(
      `JOIN ${ident(step.parent.table)} ${next} ON ${next}.${ident(step.parent.keyFields[0] as string)} = ${current}.${ident(step.parentField)}`,
    );
    current = next;
  });
  const last = path.steps.at(-1);
  const key = last ? `${current}.${ident(last.parentField)}::text` : keyExpression(e, `${alias}.`);
  return { joins: joins.join(' '), key };
}

/** The entries of `root` the device of `user` keeps, nearest first, within `bound`, as SQL
 * selecting ("id", "rank"); parameters into `params`. */
function keptSql(
  root: EntityShape,
  user: { userId: string; location: number },
  territories: readonly number[],
  bound: number,
  params: unknown[],
): string {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const key = ident(root.keyFields[0] as string);
  const userId = p(user.userId);
  const conditions = [`r."location" = ${p(user.location)}`];
  if (root.softDelete) conditions.push('NOT r."deleted"');
  if (territories.length) {
    const ids = p([...territories]);
    // The entry's own territory, or that of one of its direct records (a provider's services).
    const through = serverEntities
      .filter((c) => c.parent?.entity === root.name && c.fields.territory?.kind === 'lookup' && ownerPath(c)?.steps.length === 1)
      .map((c) => {
        const live = c.softDelete ? ' AND NOT c."deleted"' : '';
        return `EXISTS (SELECT 1 FROM ${ident(c.table)} c WHERE c.${ident(c.parent?.field as string)} = r.${key} AND c."territory" = ANY(${ids}::int[])${live})`;
      });
    conditions.push(`(r."territory" = ANY(${ids}::int[]) OR r."createdBy" = ${userId}${through.map((x) => ` OR ${x}`).join('')})`);
  }
  return `SELECT r.${key}::text AS "id", CASE WHEN r."createdBy" = ${userId} THEN ${RANKS.own} ELSE ${RANKS.other} END AS "rank"
    FROM ${ident(root.table)} r WHERE ${conditions.join(' AND ')}
    ORDER BY 2, 1 DESC LIMIT ${p(bound)}`;
}

/** Brings the directory members and departures of `user` up to date (see the top of this
 * file), in one transaction serialised per user; true when anything moved. */
export async function reconcileDirectory(db: Db, user: { userId: string; location: number }, bound: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('icrs-directory:' || $1::text))`, [user.userId]);
    const [row] = await tx.query<{ territories: unknown }>(`SELECT "territories" FROM "users" WHERE "userId" = $1`, [user.userId]);
    const territories = Array.isArray(row?.territories) ? row.territories.map(Number) : [];
    let moved = false;
    let since: string | undefined;
    for (const root of directoryRoots()) {
      const params: unknown[] = [];
      const kept = await tx.query<{ id: string; rank: number }>(keptSql(root, user, territories, bound, params), params);
      const members = await tx.query<{ id: string; rank: number }>(
        `SELECT "key" AS "id", "rank" FROM ${ident(DIRECTORY_MEMBERS)} WHERE "userId" = $1 AND "table" = $2`,
        [user.userId, root.table],
      );
      const wanted = new Map(kept.map((k) => [k.id, Number(k.rank)]));
      const had = new Map(members.map((m) => [m.id, Number(m.rank)]));
      const entered = kept.filter((k) => !had.has(k.id));
      const left = members.filter((m) => !wanted.has(m.id)).map((m) => m.id);
      const reranked = kept.filter((k) => had.has(k.id) && had.get(k.id) !== Number(k.rank));
      if (!entered.length && !left.length && !reranked.length) continue;
      moved = true;
      if (since === undefined) {
        // As for the caseload: an xid first, then the time, so no feed's horizon passes what
        // this transaction adds before it commits (server/plugins/sync/feed.ts HORIZON_SQL).
        await tx.query('SELECT pg_current_xact_id()');
        const [{ at } = { at: '' }] = await tx.query<{ at: string }>(
          `SELECT to_char(${NOW_MS} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at"`,
        );
        since = at;
      }
      const tables = directoryEntities().filter((e) => directoryRootOf(e)?.name === root.name);
      if (left.length) {
        await tx.query(`DELETE FROM ${ident(DIRECTORY_MEMBERS)} WHERE "userId" = $1 AND "table" = $2 AND "key" = ANY($3::text[])`, [
          user.userId,
          root.table,
          left,
        ]);
        for (const e of tables) {
          const { joins, key } = rootKeyOf(e);
          // The entry itself by its key, whatever became of its row; its records by their root.
          const source =
            e.name === root.name
              ? `SELECT id, id FROM unnest($3::text[]) id`
              : `SELECT ${keyExpression(e, 't.')}, ${key} FROM ${ident(e.table)} t ${joins} WHERE ${key} = ANY($3::text[])`;
          await tx.query(
            `INSERT INTO ${ident(CASELOAD_DEPARTURES)} ("userId", "table", "key", "client", "updatedAt")
             SELECT $1, $2, s.*, $4::timestamptz FROM (${source}) s
             ON CONFLICT ("userId", "table", "key") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt", "client" = EXCLUDED."client"`,
            [user.userId, e.table, left, since],
          );
        }
      }
      const ids = entered.map((k) => k.id);
      // The devices pull every table of the entries when one left, or entered with records (a
      // provider coming in with its services): a new entry alone is served by the pull that
      // reconciled it, and its records' own writes wake the device.
      let notify = left.length > 0;
      if (entered.length) {
        await tx.query(
          `INSERT INTO ${ident(DIRECTORY_MEMBERS)} ("userId", "table", "key", "since", "rank")
           SELECT $1, $2, k."id", $4::timestamptz, k."rank" FROM jsonb_to_recordset($3::jsonb) AS k("id" text, "rank" smallint)
           ON CONFLICT ("userId", "table", "key") DO NOTHING`,
          [user.userId, root.table, JSON.stringify(entered), since],
        );
        // An entry coming back is served again from `since`: its old departures are done.
        const tableNames = tables.map((e) => e.table);
        await tx.query(
          `DELETE FROM ${ident(CASELOAD_DEPARTURES)} WHERE "userId" = $1 AND "table" = ANY($2::text[]) AND "client" = ANY($3::text[])`,
          [user.userId, tableNames, ids],
        );
        for (const e of tables.filter((t) => t.name !== root.name)) {
          if (notify) break;
          const { joins, key } = rootKeyOf(e);
          const [found] = await tx.query(`SELECT 1 FROM ${ident(e.table)} t ${joins} WHERE ${key} = ANY($1::text[]) LIMIT 1`, [ids]);
          notify = found !== undefined;
        }
      }
      for (const k of reranked)
        await tx.query(`UPDATE ${ident(DIRECTORY_MEMBERS)} SET "rank" = $4 WHERE "userId" = $1 AND "table" = $2 AND "key" = $3`, [
          user.userId,
          root.table,
          k.id,
          k.rank,
        ]);
      if (notify) for (const e of tables) await tx.query(`SELECT pg_notify($1, $2)`, [CHANNEL, `${e.table}:${user.location}`]);
    }
    return moved;
  });
}

export const DIRECTORY_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS ${ident(DIRECTORY_MEMBERS)} (
    "userId" text NOT NULL,
    "table" text NOT NULL,
    "key" text NOT NULL,
    "since" timestamptz NOT NULL,
    "rank" smallint NOT NULL,
    PRIMARY KEY ("userId", "table", "key")
  )`,
];

/** A change of a user's territories, organisation, role or state changes their caseload and
 * their directory: their organisation's devices are told to pull the clients and the directory
 * tables (the user's own among them). Replaces the caseload's trigger function. */
export function userCaseloadTriggerSql(clientTable: string): string[] {
  const tables = [clientTable, ...directoryEntities().map((e) => e.table)];
  const notifies = tables.flatMap((table) => [
    `  PERFORM pg_notify('${CHANNEL}', '${table}:' || coalesce(OLD."location", 0)::text);`,
    `  PERFORM pg_notify('${CHANNEL}', '${table}:' || coalesce(NEW."location", 0)::text);`,
  ]);
  return [
    `CREATE OR REPLACE FUNCTION icrs_user_caseload() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${notifies.join('\n')}
  RETURN NULL;
END
$$`,
  ];
}
