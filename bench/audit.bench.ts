// The audit log's cost (ADR-0036): the batched upload (POST /api/sync/push/{table}, batches of
// 50 providers) and the API's create route (POST /api/sproviers/, BENCH_CONCURRENCY requests at
// a time) on this tree, against the same routes of the tree before the audit log (BENCH_BASE,
// default the commit before it), both servers in this process on their own in-memory PGlite (or
// each on a scratch PostgreSQL database with TEST_DATABASE_URL), measured in turn, BENCH_RUNS
// rounds. Prints records/s of each and the paired ratio (aim ≥ 0.9×).
//
//   npx tsx bench/audit.bench.ts
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/audit.bench.ts
//
// The base tree is checked out once as a git worktree in the system's temp folder, with this
// tree's node_modules (the same lock file).
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { median, pairedRatio } from './median';
import { startResults } from './results';

// The tree before the audit log: the parent of the commit that added it (the history before it was squashed).
const BASE = process.env.BENCH_BASE ?? '42b09a8e^';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const CREATES = Number(process.env.BENCH_CREATES ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BATCH = 50;

interface Target {
  name: string;
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The base tree, checked out beside this one (once). */
function baseTree(): string {
  const dir = path.join(tmpdir(), `icrs-bench-base-${BASE}`);
  if (!existsSync(dir)) {
    execFileSync('git', ['worktree', 'add', '--detach', dir, BASE], { stdio: 'ignore' });
    symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  }
  return dir;
}

async function start(name: string, root: string): Promise<Target> {
  const helpers = (await import(path.join(root, 'test/helpers/server.ts'))) as typeof import('../test/helpers/server');
  const records = (await import(path.join(root, 'test/helpers/records.ts'))) as typeof import('../test/helpers/records');
  const t = await helpers.startTestServer({ backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
  await records.ensureOrganisations(t.server.db);
  await t.createUser({ userName: 'bench-writer', password: 'bench-password-1', role: 3, location: 2 });
  return { name, url: t.url, token: await t.login('bench-writer', 'bench-password-1'), close: () => t.close() };
}

const provider = (n: number) => ({ sp_Id: randomUUID(), sp_Name: `Bench provider ${n}`, sp_type: 2, territory: 3 });

async function post(target: Target, apiPath: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${target.url}/api${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${target.name} ${apiPath}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Records per second of BATCHES batches of BATCH new providers. */
async function batched(target: Target): Promise<number> {
  const started = performance.now();
  for (let b = 0; b < BATCHES; b += 1) {
    const records = Array.from({ length: BATCH }, (_, i) => ({ op: 'create', data: provider(b * BATCH + i) }));
    await post(target, '/sync/push/tbl_serviceprovider', { records });
  }
  return (BATCHES * BATCH) / ((performance.now() - started) / 1000);
}

/** Records per second of CREATES single creates, CONCURRENCY at a time. */
async function creates(target: Target): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CREATES) await post(target, '/sproviers/', provider(next++));
    }),
  );
  return CREATES / ((performance.now() - started) / 1000);
}

const results = startResults('audit');
const current = await start('audit', process.cwd());
const base = await start(`base ${BASE}`, baseTree());
const rates = { batched: { audit: [] as number[], base: [] as number[] }, create: { audit: [] as number[], base: [] as number[] } };
await batched(current); // warm-up of both
await batched(base);
for (let run = 0; run < RUNS; run += 1) {
  // In turn, the order swapped each round, so that neither always runs on a warmer machine.
  const pair = run % 2 ? [base, current] : [current, base];
  for (const target of pair) rates.batched[target === current ? 'audit' : 'base'].push(await batched(target));
  for (const target of pair) rates.create[target === current ? 'audit' : 'base'].push(await creates(target));
}
await Promise.all([current.close(), base.close()]);
const db = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`# audit: ${db}, median of ${RUNS} paired runs against the base ${BASE} (before the audit log); aim ≥ 0.9×`);
for (const [route, rate] of Object.entries(rates)) {
  console.log(`audit.${route}_with_audit: ${median(rate.audit).toFixed(0)} records/s`);
  console.log(`audit.${route}_before: ${median(rate.base).toFixed(0)} records/s`);
  console.log(`audit.${route}_vs_before: ${pairedRatio(rate.audit, rate.base)} x`);
}
results.write();
