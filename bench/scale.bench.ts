// Lists at any size: the clients and audit lists over HTTP at 10k, 100k and 1M clients in ONE
// organisation (PostgreSQL; databases built by ./scale/build.ts with generate_series and kept
// between runs). One server process per size, all in this process, measured in one interleaved
// run: each round asks every request once of each size in turn (round-robin, the order turning
// each round), so that the machine's noise falls on the three sizes alike. Prints the p50 of
// each request at each size and the 1M ÷ 10k ratio (target ≤ 3×; ≤ 100 ms on a quiet machine),
// as `scale.<request>_<size>_p50_ms` lines and a table.
//
//   npx tsx bench/scale.bench.ts            (npm run bench:scale)
//
// - BENCH_SCALE_SIZES=10000,100000,1000000 the sizes (the first is the ratios' base);
// - BENCH_RUNS=15 rounds; BENCH_REBUILD=1 builds the databases again;
// - BENCH_SCALE_PARTS=lists,streams,firstPull the parts to run (default all three, so that one
//   command runs the whole issue's measurements): after the lists, the change stream's fan-out
//   (bench/scale/streams.ts main(); BENCH_STREAMS, BENCH_BASELINE_DIR) and a first sign-in's pull
//   at national scale (bench/first-pull-scale.bench.ts over bench/scale/firstPull.ts; BENCH_BASE_DIR),
//   each with its own settings (see those files); BENCH_SCALE_PARTS=streams runs one alone;
// - BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of each request's queries at the largest size.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp, type Server } from '../server/app';
import { ensureOrganisations } from '../test/helpers/records';
import { median } from './median';
import {
  COMMON_SURNAME,
  ensureScaleDatabase,
  RARE_SURNAME,
  SCALE_SERVER,
  scaleClient,
  scaleDatabaseUrl,
  scaleServerConfig,
} from './scale/build';
import { withResults } from './results';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PARTS = new Set((process.env.BENCH_SCALE_PARTS ?? 'lists,streams,firstPull').split(','));
const OFFICE = { userName: 'scale-office', password: 'scale-office-password-1', role: 4, location: 1 };
const AUDITOR = { userName: 'scale-auditor', password: 'scale-auditor-password-1', role: 7, location: 1 };

interface SizeServer {
  size: number;
  url: string;
  server: Server;
  office: string;
  auditor: string;
}

/** The requests of the table: a name and the API path (with its query) at a size. */
const REQUESTS: { name: string; who: 'office' | 'auditor'; path: (size: number) => string }[] = [
  { name: 'first page (default sort)', who: 'office', path: () => '/profile?page=1&pageSize=10' },
  { name: 'sorted by last name', who: 'office', path: () => '/profile?page=1&pageSize=10&sort=lastName&dir=asc' },
  {
    name: 'name search (substring)',
    who: 'office',
    path: () => `/profile?page=1&pageSize=10&q=${encodeURIComponent(RARE_SURNAME.slice(2, 12))}`,
  },
  { name: 'common name search', who: 'office', path: () => `/profile?page=1&pageSize=10&q=${COMMON_SURNAME}` },
  {
    name: 'one registration number',
    who: 'office',
    path: (size) => `/profile?page=1&pageSize=10&q=${scaleClient(Math.floor(size / 2)).prof_Reg_No}`,
  },
  { name: 'page 500', who: 'office', path: () => '/profile?page=500&pageSize=10' },
  { name: 'audit list, role 7', who: 'auditor', path: () => '/audit?page=1&pageSize=10' },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bench reads arbitrary JSON answers
async function api(url: string, method: string, apiPath: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/api${apiPath}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function login(url: string, userName: string, password: string): Promise<string> {
  const { status, body } = await api(url, 'POST', '/login', undefined, { userName, password });
  if (status !== 200) throw new Error(`login of ${userName}: ${status} ${JSON.stringify(body)}`);
  return body.result.user.token as string;
}

async function startSize(size: number): Promise<SizeServer> {
  const server = await buildApp({ ...scaleServerConfig(size), staticDir: path.resolve('dist') });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  await ensureOrganisations(server.db);
  const admin = await login(url, 'admin', 'admin-password-1');
  for (const user of [OFFICE, AUDITOR]) {
    const { status } = await api(url, 'POST', '/users/', admin, { fullName: `Scale ${user.userName}`, ...user });
    if (status !== 201 && status !== 409) throw new Error(`creating ${user.userName}: ${status}`);
  }
  return {
    size,
    url,
    server,
    office: await login(url, OFFICE.userName, OFFICE.password),
    auditor: await login(url, AUDITOR.userName, AUDITOR.password),
  };
}

async function timed(target: SizeServer, request: (typeof REQUESTS)[number]): Promise<number> {
  const started = performance.now();
  const { status, body } = await api(target.url, 'GET', request.path(target.size), target[request.who]);
  const ms = performance.now() - started;
  if (status !== 200 || !Array.isArray(body?.rows) || body.rows.length === 0)
    throw new Error(`${request.name} at ${target.size}: ${status} ${JSON.stringify(body).slice(0, 200)}`);
  return ms;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const sizeName = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);

async function measureLists(targets: SizeServer[]): Promise<void> {
  const samples = new Map<string, number[]>();
  // One warm-up round (plans cached, pages in the database's memory), not counted.
  for (const target of targets) for (const request of REQUESTS) await timed(target, request);
  for (let run = 0; run < RUNS; run++) {
    for (const request of REQUESTS) {
      const order = run % 2 ? [...targets].reverse() : targets;
      for (const target of order) {
        const key = `${request.name}@${target.size}`;
        samples.set(key, [...(samples.get(key) ?? []), await timed(target, request)]);
      }
    }
  }
  const base = targets[0] as SizeServer;
  const top = targets[targets.length - 1] as SizeServer;
  const header = `| request | ${targets.map((t) => sizeName(t.size)).join(' | ')} | ${sizeName(top.size)} ÷ ${sizeName(base.size)} |`;
  const lines = [header, `|---|${targets.map(() => '---|').join('')}---|`];
  for (const request of REQUESTS) {
    const p50 = targets.map((t) => median(samples.get(`${request.name}@${t.size}`) ?? []));
    targets.forEach((t, i) => console.log(`scale.${request.name.replace(/\W+/g, '_')}_${t.size}_p50_ms: ${fmt(p50[i] as number)} ms`));
    const ratio = (p50[p50.length - 1] as number) / (p50[0] as number);
    lines.push(`| ${request.name} | ${p50.map(fmt).join(' | ')} | ${ratio.toFixed(1)}× |`);
  }
  console.log(`\np50 over HTTP, ms (${RUNS} rounds, interleaved):\n${lines.join('\n')}\n`);
}

/** EXPLAIN (ANALYZE, BUFFERS) of the list queries at `size`, as the server sends them. */
async function explain(size: number): Promise<void> {
  const client = new pg.Client({ connectionString: scaleDatabaseUrl(size) });
  await client.connect();
  const page = (order: string, where = '', offset = 0) =>
    `SELECT * FROM "tbl_profiles" WHERE "location" = 1 AND "erasedAt" IS NULL ${where} ${order} LIMIT 10 OFFSET ${offset}`;
  const count = (where = '') =>
    `SELECT count(*) FROM (SELECT 1 FROM "tbl_profiles" WHERE "location" = 1 AND "erasedAt" IS NULL ${where} LIMIT 10001) c`;
  const search = (q: string) =>
    `AND ("prof_Reg_No" ILIKE '%${q}%' OR "firstName" ILIKE '%${q}%' OR "lastName" ILIKE '%${q}%' OR "phone" ILIKE '%${q}%')`;
  const byDate = 'ORDER BY "createdAt" DESC, "prof_Id" DESC';
  const queries: [string, string][] = [
    ['first page', page(byDate)],
    ['first page count', count()],
    ['sorted by last name', page('ORDER BY "lastName" ASC, "prof_Id" ASC')],
    ['name search', page(byDate, search(RARE_SURNAME.slice(2, 12)))],
    ['name search count', count(search(RARE_SURNAME.slice(2, 12)))],
    ['common name search', page(byDate, search(COMMON_SURNAME))],
    ['common name search count', count(search(COMMON_SURNAME))],
    ['registration number', page(byDate, search(scaleClient(Math.floor(size / 2)).prof_Reg_No))],
    ['page 500', page(byDate, '', 4990)],
    ['audit list, role 7', `SELECT * FROM "audit_log" a WHERE a."location" = 1 ORDER BY a."id" DESC LIMIT 10`],
    ['audit list count', `SELECT count(*) FROM (SELECT 1 FROM "audit_log" a WHERE a."location" = 1 LIMIT 10001) c`],
  ];
  for (const [name, sql] of queries) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
    console.log(`\n-- ${name} (${sizeName(size)})\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  await client.end();
}

/** A part of the measurements in a module of its own, run when it is there: its `main()`
 * when it exports one (bench/scale/streams.ts), else its own bench script in a child process
 * (bench/first-pull-scale.bench.ts for bench/scale/firstPull.ts, which needs TEST_DATABASE_URL). */
async function runPart(name: string, file: string, script: string): Promise<void> {
  if (!PARTS.has(name) || !existsSync(path.join(import.meta.dirname, 'scale', `${file}.ts`))) return;
  console.log(`\n== ${name}`);
  const part = (await import(`./scale/${file}`)) as { main?: () => Promise<void> };
  if (part.main) return part.main();
  const env = { ...process.env, TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? `${SCALE_SERVER}/postgres` };
  const child = spawn(path.resolve('node_modules/.bin/tsx'), [path.join(import.meta.dirname, script)], { stdio: 'inherit', env });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${script} ended with ${code}`);
}

async function main(): Promise<void> {
  if (PARTS.has('lists')) {
    console.log(`Databases (${SIZES.join(', ')} clients, one organisation):`);
    for (const size of SIZES) await ensureScaleDatabase(size);
    const targets: SizeServer[] = [];
    for (const size of SIZES) targets.push(await startSize(size));
    try {
      await measureLists(targets);
    } finally {
      for (const target of targets) await target.server.app.close();
    }
    if (process.env.BENCH_EXPLAIN === '1') await explain(SIZES[SIZES.length - 1] as number);
  }
  await runPart('streams', 'streams', 'stream-fanout.bench.ts');
  await runPart('firstPull', 'firstPull', 'first-pull-scale.bench.ts');
}

await withResults('scale', main);
