// A first sign-in's pull at national scale (docs/performance.md "First pull at national scale"):
// a PostgreSQL database of BENCH_CLIENTS clients (default 200,000) in BENCH_ORGS organisations
// (default 10), one of them (2) holding BENCH_OWN clients (default 20,000), each client with five
// sub-records (skills, social, security, business start, a photo's row), built in SQL
// (bench/scale/firstPull.ts). The same data is built for this tree and for BENCH_BASE_DIR (a
// worktree of the commit to compare with, default /work/wt-baseline-sub:
// `git worktree add /work/wt-baseline-sub 685f3df`), each served by its own server process; a
// role-3 user of organisation 2 then pulls every client table from nothing, as a new device does
// (pages of 200 until a short one), BENCH_RUNS times (default 3), the two servers in turn, the
// order alternating. Prints the total time of all pull requests per run, the medians, the median
// of the runs' ratios (this ÷ base), and, with BENCH_EXPLAIN=1, the plans of the feed's queries
// on this tree's database (EXPLAIN (ANALYZE, BUFFERS)).
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/first-pull-scale.bench.ts
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

import { median, pairedRatio } from './median';
import { ADMIN_PASSWORD, api, login, spawnOnFreshDatabase } from './scale/served';
import { buildNationalData, CLIENT_TABLES, measureFirstPull, type NationalData } from './scale/firstPull';
import { startResults } from './results';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const BASE_DIR = process.env.BENCH_BASE_DIR ?? '/work/wt-baseline-sub';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATA: NationalData = {
  clients: Number(process.env.BENCH_CLIENTS ?? 200_000),
  organisations: Number(process.env.BENCH_ORGS ?? 10),
  organisation: 2,
  ownClients: Number(process.env.BENCH_OWN ?? 20_000),
};

if (!ADMIN_URL) throw new Error('set TEST_DATABASE_URL (a PostgreSQL server where the user may create databases)');
if (!existsSync(path.join(BASE_DIR, 'server/main.ts'))) throw new Error(`no tree to compare with at ${BASE_DIR} (BENCH_BASE_DIR)`);

interface Served {
  name: string;
  url: string;
  databaseUrl: string;
  child: ChildProcess;
  token: string;
}

/** A server process of the tree at `dir` on a fresh database, with the national data and a user. */
async function serve(name: string, dir: string, port: number): Promise<Served> {
  const { dbUrl, url, child } = await spawnOnFreshDatabase(ADMIN_URL as string, `icrs_bench_first_pull_${name}`, {
    name: `fp-${name}`,
    dir,
    port,
  });
  const started = performance.now();
  await buildNationalData(dbUrl, DATA);
  console.log(`# ${name}: ${DATA.clients} clients and their sub-records built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const admin = await login(url, 'admin', ADMIN_PASSWORD);
  await api(
    url,
    'POST',
    '/users/',
    { userName: 'bench-field', password: 'bench-field-password', role: 3, location: DATA.organisation, fullName: 'Bench Field' },
    admin,
  );
  return { name, url, databaseUrl: dbUrl, child, token: await login(url, 'bench-field', 'bench-field-password') };
}

const EXPLAINED: [string, string][] = [
  [
    'first pull start, tbl_skills',
    `SELECT t."updatedAt", t."prof_Id"::text FROM "tbl_skills" t WHERE t."organisation" = 2
      ORDER BY t."updatedAt" DESC, t."prof_Id"::text DESC OFFSET 4999 LIMIT 1`,
  ],
  [
    'feed page, tbl_skills',
    `SELECT t.* FROM "tbl_skills" t WHERE t."organisation" = 2 AND t."updatedAt" < now()
      AND (t."updatedAt", t."prof_Id"::text) > (timestamptz '2025-06-01', '') ORDER BY t."updatedAt", t."prof_Id"::text LIMIT 200`,
  ],
  [
    'feed page, tbl_profiles_images (composite key)',
    `SELECT t.* FROM "tbl_profiles_images" t WHERE t."organisation" = 2 AND t."updatedAt" < now()
      AND (t."updatedAt", t."prof_Id" || '|' || t."img_for") > (timestamptz '2025-06-01', '')
      ORDER BY t."updatedAt", t."prof_Id" || '|' || t."img_for" LIMIT 200`,
  ],
  [
    'departures page, tbl_skills',
    `SELECT d."key" FROM "sync_departures" d WHERE d."table" = 'tbl_skills' AND d."organisation" = 2 AND d."updatedAt" < now()
      AND (d."updatedAt", d."key") > (timestamptz '2025-06-01', '') ORDER BY d."updatedAt", d."key" LIMIT 200`,
  ],
  ['scope of a list, tbl_skills (count)', `SELECT count(*) FROM "tbl_skills" t WHERE t."organisation" = 2`],
];

async function explain(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  for (const [what, sql] of EXPLAINED) {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
    console.log(`# plan: ${what}\n${rows.map((r) => `#   ${r['QUERY PLAN']}`).join('\n')}`);
  }
  await db.end();
}

const results = startResults('first-pull-scale');
const ours = await serve('this', process.cwd(), 18_301);
const base = await serve('base', BASE_DIR, 18_302);
try {
  const totals: Record<string, number[]> = { this: [], base: [] };
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 ? [base, ours] : [ours, base];
    for (const served of order) {
      const pull = await measureFirstPull({ baseUrl: served.url, token: served.token, tables: CLIENT_TABLES });
      totals[served.name]?.push(pull.totalMs);
      const perTable = Object.entries(pull.tables)
        .map(([table, s]) => `${table} ${s.rows} rows/${s.requests} req ${s.ms.toFixed(0)} ms`)
        .join(', ');
      console.log(`# run ${run + 1} ${served.name}: ${pull.totalMs.toFixed(0)} ms (${perTable})`);
    }
  }
  console.log(`first_pull_scale.this_total_ms: ${median(totals.this ?? []).toFixed(0)} ms`);
  console.log(`first_pull_scale.base_total_ms: ${median(totals.base ?? []).toFixed(0)} ms`);
  console.log(`first_pull_scale.this_vs_base: ${pairedRatio(totals.this ?? [], totals.base ?? [])}`);
  if (process.env.BENCH_EXPLAIN === '1') await explain(ours.databaseUrl);
} finally {
  for (const served of [ours, base]) served.child.kill('SIGTERM');
}
results.write();
