// The audit log's retention (ADR-0036): AUDIT_RETENTION_DAYS, 0 (the default) keeping every
// entry forever. With a retention, entries older than it (and their client values) go at start
// and then daily, through the one function the log's guards let through (icrs_audit_purge,
// ./triggers.ts). The function reads the retention from a table the tables' owner writes at
// start (server/db/roles.ts): on PostgreSQL with two roles, the app cannot shorten it
// (docs/security.md "Audit log").
import type { Db, Queryable } from '../../db/index';
import { AUDIT_SETTINGS_TABLE } from './triggers';

const DAY_MS = 86_400_000;

/** Writes the retention the purge applies; run by the tables' owner (at start, after migrating).
 * No row is the default, forever: a server started with it changes nothing in the database. */
export async function writeRetention(tx: Queryable, days: number): Promise<void> {
  if (days <= 0) {
    await tx.query(`DELETE FROM "${AUDIT_SETTINGS_TABLE}" WHERE "key" = 'retentionDays'`);
    return;
  }
  await tx.query(
    `INSERT INTO "${AUDIT_SETTINGS_TABLE}" ("key", "value") VALUES ('retentionDays', $1)
     ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value" WHERE "${AUDIT_SETTINGS_TABLE}"."value" IS DISTINCT FROM EXCLUDED."value"`,
    [String(days)],
  );
}

/** Deletes the entries older than the stored retention; answers how many went. */
export async function purgeAudit(db: Queryable): Promise<number> {
  const [row] = await db.query<{ gone: number }>('SELECT icrs_audit_purge() AS gone');
  return row?.gone ?? 0;
}

/** Purges now and every day; answers the stop. */
export function keepRetention(db: Db, days: number, onError: (error: unknown) => void): () => void {
  if (days <= 0) return () => undefined;
  const purge = () => void purgeAudit(db).catch(onError);
  purge();
  const timer = setInterval(purge, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
