// Dashboard speed (ADR-0031): every call the dashboard makes on opening, sent together over
// HTTP as the app does, with BENCH_ROWS rows (default 100,000) in each main table: providers,
// services, jobs, clients and referrals; 92 % of providers and jobs have coordinates, as in
// the demo data. Aim: ≤ 300 ms for all calls together.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/dashboard.bench.ts
//   npx tsx bench/dashboard.bench.ts                       # PGlite in memory
//
// BENCH_RUNS (default 7) sets the runs; the median is printed, with each call's own median.
// /stats/geo's whole map is answered from a cache until providers or jobs change: the figures
// show a dashboard opened again and the first one after a change (the server reads the changed
// rows only and makes the whole map's answer again from memory). Above MAP_POINTS_LIMIT
// markers (20,000) it answers clusters; the map then asks for its view when moved, timed apart.
import * as q from '../server/plugins/stats/queries';
import { startTestServer } from '../test/helpers/server';
import { startResults } from './results';
import { fillMainTables } from './seed';
import { median } from './median';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

/** The dashboard's calls (src/features/home/dashboardData.ts), as the browser sends them. */
const CALLS = [
  '/lists/profilelist',
  '/stats/gen',
  '/stats/geo',
  '/stats/byspdtype',
  '/stats/bySpdTerr',
  '/stats/byServiceType',
  '/stats/getJbSec/',
];

const results = startResults('dashboard');
const t = await startTestServer({ backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
try {
  const db = t.server.db;
  const seconds = await fillMainTables(db, ROWS);
  console.log(`${ROWS.toLocaleString('en')} rows in each of 5 tables on ${t.backend} (${seconds.toFixed(1)} s to fill)`);

  const token = await t.login(t.admin.userName, t.admin.password);
  const perCall: Record<string, number[]> = Object.fromEntries(CALLS.map((c) => [c, []]));
  const together: number[] = [];
  const bytes: Record<string, number> = {};
  await Promise.all(CALLS.map((c) => t.api('GET', c, { token }))); // warm-up: plans, caches
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await Promise.all(
      CALLS.map(async (call) => {
        const began = performance.now();
        const response = await fetch(`${t.url}/api${call}`, { headers: { authorization: `Bearer ${token}` } });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${call}: ${response.status}`);
        bytes[call] = text.length;
        perCall[call]?.push(performance.now() - began);
      }),
    );
    together.push(performance.now() - start);
  }
  // The first dashboard after a change of providers or jobs: the map's answer is made again.
  const afterChange: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await db.query(`UPDATE "tbl_serviceprovider" SET "updatedAt" = now() WHERE "sp_Id" = (SELECT min("sp_Id") FROM "tbl_serviceprovider")`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the notification reaches the server
    const start = performance.now();
    await Promise.all(CALLS.map((call) => t.api('GET', call, { token })));
    afterChange.push(performance.now() - start);
  }
  const counts: number[] = [];
  const aggregates = CALLS.filter((c) => c !== '/stats/geo');
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await Promise.all(aggregates.map((call) => t.api('GET', call, { token })));
    counts.push(performance.now() - start);
  }
  const markers = await t.api('GET', '/stats/geo', { token });
  const markerCount = (markers.body.counts as number[]).reduce((a, b) => a + b, 0);
  console.log(
    `dashboard.together_ms: ${median(together).toFixed(0)} ms  (all ${CALLS.length} calls, median of ${RUNS}; aim ≤ 300 ms; ${markerCount.toLocaleString('en')} map markers)`,
  );
  console.log(`dashboard.after_change_ms: ${median(afterChange).toFixed(0)} ms  (the same, first after a change of providers or jobs)`);
  console.log(`dashboard.aggregates_ms: ${median(counts).toFixed(0)} ms  (the ${aggregates.length} calls other than /stats/geo together)`);
  const sql: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const began = performance.now();
    const { rows } = await q.markerRows(db, null);
    sql.push(performance.now() - began);
    if (!rows.length) throw new Error('no markers');
  }
  console.log(`dashboard.geo_full_read_ms: ${median(sql).toFixed(0)} ms  (/stats/geo's read of every marker, once per server start)`);
  // What the map asks when moved: a view at zoom 7.5 and 11 around the markers' centre (a
  // 1,280 × 480 px map), answered as clusters or as the view's points.
  const center = markers.body.center as { lat: number; lng: number };
  for (const zoom of [7.5, 11]) {
    const [halfWidth, halfHeight] = [(640 * 360) / (512 * 2 ** zoom), (240 * 360) / (512 * 2 ** zoom)];
    const view = `zoom=${zoom}&west=${center.lng - halfWidth}&east=${center.lng + halfWidth}&south=${center.lat - halfHeight}&north=${center.lat + halfHeight}`;
    const times: number[] = [];
    let answer: { points?: unknown[]; clusters?: unknown[] } = {};
    let size = 0;
    for (let run = 0; run < RUNS; run++) {
      const began = performance.now();
      const response = await fetch(`${t.url}/api/stats/geo?${view}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      times.push(performance.now() - began);
      answer = JSON.parse(text) as typeof answer;
      size = text.length;
    }
    const what = answer.points ? `${answer.points.length.toLocaleString('en')} points` : `${answer.clusters?.length ?? 0} clusters`;
    console.log(
      `dashboard.geo_zoom_${zoom}_ms: ${median(times).toFixed(0)} ms  (/stats/geo of a view: ${what}, ${(size / 1024).toFixed(0)} KiB)`,
    );
  }
  for (const call of CALLS) {
    console.log(
      `  ${call.padEnd(22)} ${median(perCall[call] ?? [])
        .toFixed(0)
        .padStart(5)} ms  ${((bytes[call] ?? 0) / 1024).toFixed(0).padStart(6)} KiB`,
    );
  }
} finally {
  await t.close();
}
results.write();
