// The embedded database's upkeep (server/db/upkeep.ts): PGlite has no autovacuum, so the server
// analyses and vacuums its tables on autovacuum's thresholds. PGlite only: on a PostgreSQL server
// autovacuum does this work, and the upkeep does nothing there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/index';
import { keepUp, upkeepPass } from '../../server/db/upkeep';

let db: Db;

/** PGlite reports a transaction's row counts to the statistics at most once a second. */
async function countersSettled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await db.query('SELECT 1');
}

const estimate = async (table: string) =>
  (await db.query<{ rows: number }>(`SELECT "reltuples"::int AS "rows" FROM pg_class WHERE "relname" = $1`, [table]))[0]?.rows;

beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await db.query('CREATE TABLE "bulk" ("id" int PRIMARY KEY, "name" text)');
  await db.query('CREATE TABLE "quiet" ("id" int PRIMARY KEY)');
});
afterAll(async () => {
  await db?.close();
});

describe('the embedded database keeps its statistics without autovacuum', () => {
  it('analyses a table after a bulk import and a never-analysed one, then leaves them until they change past the threshold', async () => {
    expect(await estimate('bulk')).toBe(-1); // never analysed: the planner guesses
    await db.query(`INSERT INTO "bulk" SELECT g, 'row ' || g FROM generate_series(1, 5000) g`);
    await countersSettled();
    expect(await upkeepPass(db)).toEqual({ analyzed: ['bulk', 'quiet'], vacuumed: [] });
    expect(await estimate('bulk')).toBe(5000);
    expect(await estimate('quiet')).toBe(0);

    await db.query(`UPDATE "bulk" SET "name" = 'changed' WHERE "id" <= 100`); // 100 < 50 + 10 % of 5,000
    await countersSettled();
    expect(await upkeepPass(db)).toEqual({ analyzed: [], vacuumed: [] });
    await db.query(`INSERT INTO "bulk" SELECT g, 'row ' || g FROM generate_series(5001, 6000) g`);
    await countersSettled();
    expect(await upkeepPass(db)).toEqual({ analyzed: ['bulk'], vacuumed: [] });
    expect(await estimate('bulk')).toBe(6000);
  });

  it('vacuums a table whose dead rows passed the threshold', async () => {
    await db.query(`DELETE FROM "bulk" WHERE "id" > 3000`);
    await countersSettled();
    expect(await upkeepPass(db)).toEqual({ analyzed: ['bulk'], vacuumed: ['bulk'] });
    await countersSettled();
    const [stats] = await db.query<{ dead: number }>(
      `SELECT "n_dead_tup"::int AS "dead" FROM pg_stat_user_tables WHERE "relname" = 'bulk'`,
    );
    expect(stats?.dead).toBe(0);
    expect(await estimate('bulk')).toBe(3000);
  });

  it('runs by itself at its interval while the server runs, and stops with it', async () => {
    const errors: unknown[] = [];
    const stop = keepUp(db, (error) => errors.push(error), 200);
    try {
      await db.query(`INSERT INTO "bulk" SELECT g, 'again ' || g FROM generate_series(10001, 14000) g`);
      await expect.poll(() => estimate('bulk'), { timeout: 10_000, interval: 200 }).toBe(7000);
    } finally {
      stop();
    }
    expect(errors).toEqual([]);
  });
});
