// A restore ends every session signed before it (ADR-0037). A backup brings back the sessions
// signed out after it was taken (signed_out_sessions), and accounts deactivated or passwords
// reset since: a token of such a session would be valid again until it expires. So the restore
// marks its time, and the server refuses every token issued before the latest mark: everyone
// signs in again, on the restored accounts.
//
// The mark lives in a schema of its own (`icrs_ops`), beside the restored data and never in it:
// the restored tables stay byte for byte the backup's (the drill compares them), backups leave
// it out (pg_dump --exclude-schema), and a restore drops it with the data it replaces.
import type { Queryable } from '../db/index';

export const OPS_SCHEMA = 'icrs_ops';

/** Marks, in the database restored just now, that sessions older than now are over. */
export async function markRestore(db: Queryable): Promise<void> {
  await db.query(`CREATE SCHEMA IF NOT EXISTS "${OPS_SCHEMA}"`);
  await db.query(`CREATE TABLE IF NOT EXISTS "${OPS_SCHEMA}"."restores" ("at" timestamptz NOT NULL DEFAULT now())`);
  await db.query(`INSERT INTO "${OPS_SCHEMA}"."restores" DEFAULT VALUES`);
  // Restored as the owner role (DATABASE_OWNER_URL), read by the app's role at every start: a
  // time is no secret, so every role may read it (and none but the owner write it).
  await db.query(`GRANT USAGE ON SCHEMA "${OPS_SCHEMA}" TO PUBLIC`);
  await db.query(`GRANT SELECT ON "${OPS_SCHEMA}"."restores" TO PUBLIC`);
}

/** The latest restore's time in whole seconds (tokens carry their issue time so), rounded up:
 * a token issued in the second of the restore is refused too. Undefined: never restored. */
export async function lastRestoreSeconds(db: Queryable): Promise<number | undefined> {
  // Two statements: a query naming a table that does not exist fails however it is guarded.
  const [table] = await db.query<{ found: boolean }>(`SELECT to_regclass('"${OPS_SCHEMA}"."restores"') IS NOT NULL AS found`);
  if (!table?.found) return undefined;
  const [row] = await db.query<{ at: number | null }>(
    `SELECT ceil(extract(epoch FROM max("at")))::int AS at FROM "${OPS_SCHEMA}"."restores"`,
  );
  return row?.at ?? undefined;
}
