// Online list speed with a large table (ADR-0035: "lists of 100,000 rows still show their
// first page at once"): `npx tsx bench/list.bench.ts` (PGlite in memory), or with
// TEST_DATABASE_URL=postgres://… for PostgreSQL. BENCH_ROWS (default 100000), BENCH_RUNS (7).
import { startTestServer } from '../test/helpers/server';
import { startResults } from './results';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

const results = startResults('list');
const t = await startTestServer({ backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
try {
  await t.server.db.query(
    `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "territory", "createdAt", "updatedAt")
     SELECT lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000', 'Provider ' || n, 1 + n % 4, 1 + n % 8, now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [ROWS],
  );
  await t.server.db.query('ANALYZE "tbl_serviceprovider"');
  const token = await t.login(t.admin.userName, t.admin.password);
  const firstPage = await timed(RUNS, () => t.api('GET', '/sproviers?pageSize=25', { token }));
  const filtered = await timed(RUNS, () => t.api('GET', '/sproviers?pageSize=25&territory=3&sort=sp_Name', { token }));
  const search = await timed(RUNS, () => t.api('POST', '/sproviers/srch', { token, body: { q: 'Provider 9999', pageSize: 25 } }));
  console.log(`# list: ${ROWS} providers on ${t.backend}, median of ${RUNS} over HTTP`);
  console.log(`list.first_page_ms: ${firstPage.toFixed(1)} ms  (25, by name)`);
  console.log(`list.filtered_ms: ${filtered.toFixed(1)} ms  (by territory, by name)`);
  console.log(`list.search_ms: ${search.toFixed(1)} ms  (q, ILIKE)`);
} finally {
  await t.close();
}
results.write();
