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
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { seedLists } from '../server/seed/lists';
import { median, pairedRatio } from './median';
import { buildNationalData, CLIENT_TABLES, measureFirstPull, type NationalData } from './scale/firstPull';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const BASE_DIR = process.env.BENCH_BASE_DIR ?? '/work/wt-baseline-sub';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATA: NationalData = {
  clients: Number(process.env.BENCH_CLIENTS ?? 200_000),
  organisations: Number(process.env.BENCH_ORGS ?? 10),
  organisation: 2,
  ownClients: Number(process.env.BENCH_OWN ?? 20_000),
};
const ADMIN_PASSWORD = 'bench-admin-password-1';

if (!ADMIN_URL) throw new Error('set TEST_DATABASE_URL (a PostgreSQL server where the user may create databases)');
if (!existsSync(path.join(BASE_DIR, 'server/main.ts'))) throw new Error(`no tree to compare with at ${BASE_DIR} (BENCH_BASE_DIR)`);

const databaseUrl = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return databaseUrl(name);
}

interface Served {
  name: string;
  url: string;
  databaseUrl: string;
  child: ChildProcess;
  token: string;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} stopped (${child.exitCode})`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server at ${url} did not start`);
}

async function api(url: string, method: string, apiPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${url}/api${apiPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const login = async (url: string, userName: string, password: string) =>
  ((await api(url, 'POST', '/login', { userName, password })).result as { user: { token: string } }).user.token;

/** A server process of the tree at `dir` on a fresh database, with the national data and a user. */
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

async function serve(name: string, dir: string, port: number): Promise<Served> {
  const dbUrl = await freshDatabase(`icrs_bench_first_pull_${name}`);
  const child = spawn(path.join(dir, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `icrs-bench-fp-${name}-`)),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(tmpdir(), 'icrs-bench-no-dist'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const organisations = seedLists.find((l) => l.key === 'organisation');
  await db.query(`INSERT INTO "lists" ("id", "key", "items") VALUES ($1, 'organisation', $2) ON CONFLICT ("key") DO NOTHING`, [
    '01900000-0000-7000-8000-0000000000aa',
    JSON.stringify(organisations?.items ?? []),
  ]);
  await db.end();
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
