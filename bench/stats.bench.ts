// Timings of the stats queries on demo data: `npx vitest bench bench/stats.bench.ts`.
// BENCH_SCALE (default 10: 500 providers, 1,500 services, 2,000 clients) sets the demo scale;
// DATABASE_URL runs them on a PostgreSQL database instead of in-memory PGlite (the demo
// rows are added to it, so give it a scratch database).
import { bench, describe } from 'vitest';
import { openDb } from '../server/db/index';
import { migrate } from '../server/db/migrations';
import { statsIndexes } from '../server/plugins/stats/indexes';
import * as q from '../server/plugins/stats/queries';
import { seedDemo } from '../server/seed/demo';

const scale = Number(process.env.BENCH_SCALE ?? 10);
const db = await openDb({ dataDir: 'memory://', databaseUrl: process.env.DATABASE_URL || undefined });
await migrate(db);
for (const statement of statsIndexes) await db.query(statement); // until migrations.ts has them
await seedDemo(db, { scale });

// Role 1 without an organisation counts everything; an organisation's user, its own clients.
const admin = { role: 1, location: 0 };
const member = { role: 3, location: 2 };

describe(`stats on ${db.kind}, demo scale ${scale}`, () => {
  bench('gen', () => q.general(db, admin).then(() => undefined));
  bench('geo markers, full read (once per server start)', () => q.markerRows(db, null).then(() => undefined));
  bench('pendings', () => q.pendings(db, admin).then(() => undefined));
  bench('byspdtype', () => q.servicesByCategory(db).then(() => undefined));
  bench('byoffrall', () => q.providersByType(db).then(() => undefined));
  bench('byter/referrals', () => q.countByTerritory(db, 'referrals', admin).then(() => undefined));
  bench('byterCateMain', () => q.servicesByTerritoryCategory(db, { territory: 1 }, true).then(() => undefined));
  bench('gen, one organisation', () => q.general(db, member).then(() => undefined));
  bench('pendings, one organisation', () => q.pendings(db, member).then(() => undefined));
  bench('getKPIs, one organisation', () => q.kpis(db, {}, member).then(() => undefined));
  bench('getKPIs', () => q.kpis(db, {}, admin).then(() => undefined));
});
