// API under load (ADR-0035): autocannon on loopback against the real server on PostgreSQL with
// BENCH_ROWS rows (default 100,000) in each main table, signed in as a real user (role 4,
// organisation 1), the server logging at its production level (`info`, into a sink):
// - api.list: a list page of 20 providers filtered by territory, sorted by name, as the app
//   asks it (POST /api/sproviers/srch, the grid's query);
// - api.bare: the same two queries (page and count) behind a bare Fastify route with pg (no
//   token, no validation, no logging), alternated with api.list in the same run;
// - api.get: a provider by id; api.create: a new provider (POST /api/sproviers/).
// Budget: list ≥ 0.8× bare, p99 ≤ 50 ms.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/api.bench.ts
//
// Without TEST_DATABASE_URL: in-memory PGlite (one connection, in the server's process).
// BENCH_RUNS (default 3) rounds of BENCH_SECONDS (default 5) per route, BENCH_CONNECTIONS (10)
// connections. autocannon runs in a process of its own, so it does not share the server's thread.
import Fastify from 'fastify';
import pg from 'pg';
import { serviceProvider } from '../schemas/index';
import type { Queryable } from '../server/db/index';
import { selectList } from '../server/lib/records';
import { boundedCount } from '../server/lib/records/count';

import { startTestServer, type TestServer } from '../test/helpers/server';
import { hammer, type Load, type Outcome } from './load';
import { officeOnFilledServer } from './seed';

import { median } from './median';
import { withResults } from './results';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TERRITORY = 3;
const LIST_QUERY = { page: 1, pageSize: 20, sort: 'sp_Name', dir: 'asc', territory: TERRITORY };

/** The list's page and count, as the server runs them, behind a route with nothing else: its
 * own pg pool on PostgreSQL; on PGlite (in-process, one connection) the server's database. */
async function bareServer(t: TestServer) {
  const pool = t.config.databaseUrl ? new pg.Pool({ connectionString: t.config.databaseUrl, max: 10 }) : undefined;
  const db: Queryable = pool
    ? { query: async (sql, params) => (await pool.query(sql, params ? [...params] : undefined)).rows }
    : t.server.db;
  const app = Fastify();
  const columns = selectList(serviceProvider);
  app.post('/bare', async (request) => {
    const { territory, pageSize, page } = request.body as { territory: number; pageSize: number; page: number };
    const where = 'WHERE NOT "deleted" AND "territory" = $1';
    const [rows, count] = await Promise.all([
      db.query(`SELECT ${columns} FROM "tbl_serviceprovider" ${where} ORDER BY "sp_Name" ASC NULLS LAST, "sp_Id" ASC LIMIT $2 OFFSET $3`, [
        territory,
        pageSize,
        (page - 1) * pageSize,
      ]),
      // The app's bounded count (docs/adr/0035-performance.md "A list's count is bounded").
      boundedCount(db, `FROM "tbl_serviceprovider" ${where}`, [territory], page * pageSize),
    ]);
    return { rows, total: count.total, page, pageSize };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: async () => (await app.close(), await pool?.end()) };
}

const print = (name: string, outcome: { rps: number; p99: number }) => {
  console.log(`api.${name}_rps: ${outcome.rps.toFixed(0)} req/s`);
  console.log(`api.${name}_p99: ${outcome.p99.toFixed(1)} ms`);
};

async function main() {
  const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const t = await startTestServer({ backend, config: { logLevel: 'info' }, logStream: { write: () => undefined } });
  const bare = await bareServer(t);
  try {
    const { filled, token, providerGets } = await officeOnFilledServer(t, ROWS);
    const json = { 'content-type': 'application/json' };
    const auth = { ...json, authorization: `Bearer ${token}` };
    const loads: Record<string, Load> = {
      list: { url: `${t.url}/api/sproviers/srch`, method: 'POST', headers: auth, body: LIST_QUERY },
      bare: { url: `${bare.url}/bare`, method: 'POST', headers: json, body: LIST_QUERY },
      get: providerGets,
      create: { url: `${t.url}/api/sproviers/`, method: 'POST', headers: auth, body: 'provider' },
    };
    // Same answers from both (the page of 20 and the total), then a warm-up of each.
    const [app, plain] = await Promise.all([
      t.api('POST', '/sproviers/srch', { token, body: LIST_QUERY }),
      fetch(`${bare.url}/bare`, { method: 'POST', headers: json, body: JSON.stringify(LIST_QUERY) }).then((r) => r.json()),
    ]);
    if (app.status !== 200 || app.body.total !== plain.total || app.body.rows.length !== 20)
      throw new Error(`list answers differ: ${app.status} ${app.body.total} vs ${plain.total}`);
    console.log(
      `# api: ${ROWS.toLocaleString('en')} rows per main table on ${t.backend} (${filled.toFixed(1)} s to fill), autocannon ${CONNECTIONS} connections × ${SECONDS} s, median of ${RUNS} rounds; list page: 20 of ${app.body.total} providers in territory ${TERRITORY}`,
    );

    const outcomes: Record<string, Outcome[]> = { list: [], bare: [], get: [], create: [] };
    const ratios: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      // list and bare alternate, each going first in every other round.
      const pair = round % 2 === 0 ? (['list', 'bare'] as const) : (['bare', 'list'] as const);
      const measured: Partial<Record<string, Outcome>> = {};
      for (const name of [...pair, 'get', 'create']) {
        const outcome = await hammer(loads[name] as Load, { seconds: SECONDS, connections: CONNECTIONS });
        if (outcome.bad > 0) throw new Error(`${name}: ${outcome.bad} failed requests`);
        measured[name] = outcome;
        outcomes[name]?.push(outcome);
      }
      ratios.push((measured.list as Outcome).rps / (measured.bare as Outcome).rps);
    }
    const summary = (name: string) => ({
      rps: median((outcomes[name] ?? []).map((o) => o.rps)),
      p99: median((outcomes[name] ?? []).map((o) => o.p99)),
    });
    for (const name of ['list', 'bare', 'get', 'create']) print(name, summary(name));
    console.log(`api.list_vs_bare: ${median(ratios).toFixed(2)} x`);
  } finally {
    await bare.close();
    await t.close();
  }
}

await withResults('api', main);
