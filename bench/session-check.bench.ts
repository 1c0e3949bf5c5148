// The cost of reading the session's user row for every request on PostgreSQL (docs/adr/0004-sessions-across-processes.md
// "A signed-out session is refused everywhere at once") against keeping it 2 s as before: two
// servers on PostgreSQL with the same BENCH_ROWS rows (default 2,000) per main table, one reading
// per request (the default), one keeping rows KEEP_MS; autocannon in a process of its own on two
// routes, the two servers measured in turn (each going first in every other round). Then the
// read itself: the median time of one session read (findSessionUser) by primary key.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/session-check.bench.ts
//
// BENCH_RUNS (default 3) rounds of BENCH_SECONDS (default 5) per route and server,
// BENCH_CONNECTIONS (10) connections.

import { findSessionUser } from '../server/plugins/users/store';
import { KEEP_MS } from '../server/plugins/users/sessionUsers';

import { startTestServer, type TestServer } from '../test/helpers/server';
import { hammer, type Load } from './load';
import { officeOnFilledServer } from './seed';
import { median, pairedRatio } from './median';

import { withResults } from './results';

const ROWS = Number(process.env.BENCH_ROWS ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const READS = 500;

type Mode = 'read' | 'kept';

async function serverWith(mode: Mode): Promise<{ t: TestServer; userId: string; loads: Record<string, Load> }> {
  const t = await startTestServer({ backend: 'postgres', sessionKeepMs: mode === 'read' ? 0 : KEEP_MS });
  const { userId, token, providerGets } = await officeOnFilledServer(t, ROWS);
  return {
    t,
    userId,
    loads: {
      get: providerGets,
      lists: { url: `${t.url}/api/lists`, method: 'GET', headers: { authorization: `Bearer ${token}` } },
    },
  };
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) throw new Error('the session is read per request on PostgreSQL only: set TEST_DATABASE_URL');
  const servers = { read: await serverWith('read'), kept: await serverWith('kept') };
  try {
    console.log(
      `# session check on PostgreSQL: ${ROWS.toLocaleString('en')} rows per main table, two servers (user row read per request, kept ${KEEP_MS} ms), autocannon ${CONNECTIONS} connections × ${SECONDS} s, median of ${RUNS} rounds`,
    );
    for (const route of ['get', 'lists']) {
      const rps: Record<Mode, number[]> = { read: [], kept: [] };
      const p99: Record<Mode, number[]> = { read: [], kept: [] };
      for (let round = 0; round < RUNS; round += 1) {
        for (const mode of round % 2 === 0 ? (['read', 'kept'] as const) : (['kept', 'read'] as const)) {
          const outcome = await hammer(servers[mode].loads[route] as Load, { seconds: SECONDS, connections: CONNECTIONS });
          if (outcome.bad > 0) throw new Error(`${route} (${mode}): ${outcome.bad} failed requests`);
          rps[mode].push(outcome.rps);
          p99[mode].push(outcome.p99);
        }
      }
      for (const mode of ['read', 'kept'] as const)
        console.log(`session.${route}_${mode}: ${median(rps[mode]).toFixed(0)} req/s, p99 ${median(p99[mode]).toFixed(0)} ms`);
      console.log(`session.${route}_read_vs_kept: ${pairedRatio(rps.read, rps.kept)} x`);
    }
    const { t, userId } = servers.read;
    const times: number[] = [];
    for (let i = 0; i < READS; i += 1) {
      const started = performance.now();
      await findSessionUser(t.server.db, userId);
      times.push(performance.now() - started);
    }
    console.log(
      `session.read: ${median(times).toFixed(2)} ms median for one user row and its signed-out sessions (${READS} reads in a row)`,
    );
  } finally {
    await servers.read.t.close();
    await servers.kept.t.close();
  }
}

await withResults('session-check', main);
