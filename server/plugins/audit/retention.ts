// The audit log's retention (issue 28 §5): AUDIT_RETENTION_DAYS, 0 (the default) keeping every
// entry forever. With a retention, entries older than it (and their client values) go at start
// and then daily, the one delete the log's triggers let through (./triggers.ts).
import type { Db } from '../../db/index';
import { AUDIT_TABLE, AUDIT_VALUES_TABLE } from './triggers';

const DAY_MS = 86_400_000;

/** Deletes the entries older than `days`; answers how many went. */
export async function purgeAudit(db: Db, days: number): Promise<number> {
  if (days <= 0) return 0;
  return db.transaction(async (tx) => {
    await tx.query("SELECT set_config('icrs.retention_days', $1, true)", [String(days)]);
    const cutoff = `now() - make_interval(days => ${Number(days)})`;
    await tx.query(`DELETE FROM "${AUDIT_VALUES_TABLE}" v USING "${AUDIT_TABLE}" a WHERE v."entryId" = a."id" AND a."at" < ${cutoff}`);
    const gone = await tx.query(`DELETE FROM "${AUDIT_TABLE}" WHERE "at" < ${cutoff} RETURNING 1`);
    return gone.length;
  });
}

/** Purges now and every day; answers the stop. */
export function keepRetention(db: Db, days: number, onError: (error: unknown) => void): () => void {
  if (days <= 0) return () => undefined;
  const purge = () => void purgeAudit(db, days).catch(onError);
  purge();
  const timer = setInterval(purge, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
