// The embedded database's upkeep. A PostgreSQL server's autovacuum keeps each table's planner
// statistics and dead rows in check; PGlite runs no background workers, so without this its
// statistics stay those of the empty tables the migrations made. After a bulk import (a first
// day's data, a restore), the planner then guesses tiny tables and picks plans that read every
// row: a field worker's caseload pull of a 12,000-client organisation took minutes instead of
// seconds (docs/performance.md "The caseload at 4×"). This does autovacuum's work on PGlite with
// autovacuum's own thresholds, from the same counters (pg_stat_user_tables), once a minute.
import type { Db, Queryable } from './index';

/** How often the counters are read (autovacuum's default naptime). */
export const UPKEEP_INTERVAL_MS = 60_000;

// autovacuum_analyze_threshold / _scale_factor and autovacuum_vacuum_threshold / _scale_factor,
// PostgreSQL's defaults.
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;

export interface UpkeepPass {
  analyzed: string[];
  vacuumed: string[];
}

/** One pass: ANALYZE every table never analysed or changed past autovacuum's threshold since its
 * last analysis (the counters start again at zero after a crash: the never-analysed stay
 * known), VACUUM every table whose dead rows passed its threshold. Answers what it did. */
export async function upkeepPass(db: Queryable): Promise<UpkeepPass> {
  const tables = await db.query<{ schema: string; name: string; analyze: boolean; vacuum: boolean }>(
    `SELECT s."schemaname" AS "schema", s."relname" AS "name",
            (c."reltuples" < 0 OR s."n_mod_since_analyze" > $1 + $2 * GREATEST(c."reltuples", 0)) AS "analyze",
            s."n_dead_tup" > $3 + $4 * GREATEST(c."reltuples", 0) AS "vacuum"
       FROM pg_stat_user_tables s JOIN pg_class c ON c."oid" = s."relid"
      ORDER BY s."relname"`,
    [ANALYZE_BASE, ANALYZE_SCALE, VACUUM_BASE, VACUUM_SCALE],
  );
  const done: UpkeepPass = { analyzed: [], vacuumed: [] };
  for (const table of tables) {
    const name = `"${table.schema.replaceAll('"', '""')}"."${table.name.replaceAll('"', '""')}"`;
    if (table.vacuum) {
      await db.query(`VACUUM (ANALYZE) ${name}`);
      done.vacuumed.push(table.name);
      done.analyzed.push(table.name);
    } else if (table.analyze) {
      await db.query(`ANALYZE ${name}`);
      done.analyzed.push(table.name);
    }
  }
  return done;
}

/** On the embedded database: a pass every UPKEEP_INTERVAL_MS, one at a time; answers the stop
 * (a pass under way when the database closes fails quietly). On PostgreSQL, nothing: its
 * autovacuum does it. */
export function keepUp(db: Db, onError: (error: unknown) => void, intervalMs = UPKEEP_INTERVAL_MS): () => void {
  if (db.kind !== 'pglite') return () => undefined;
  let running = false;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = true;
    upkeepPass(db)
      .catch((error: unknown) => stopped || onError(error))
      .finally(() => (running = false));
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
