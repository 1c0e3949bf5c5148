// The metrics' cost (ADR-0038): requests per second with the metrics on (the default) against a
// server with METRICS=off, in one run: two servers on the same kind of database with the same
// BENCH_ROWS rows (default 20,000) per main table, autocannon in a process of its own, the two
// measured in turn (each going first in every other round), and the time of one scrape.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/metrics.bench.ts
//
// Without TEST_DATABASE_URL: in-memory PGlite. BENCH_RUNS (default 3) rounds of BENCH_SECONDS
// (default 5) per route and server, BENCH_CONNECTIONS (10) connections.
import { serviceProvider } from '../schemas/index';

import { startTestServer, type TestServer } from '../test/helpers/server';
import { hammer, type Load } from './load';
import { officeOnFilledServer } from './seed';
import { median, pairedRatio } from './median';

import { withResults } from './results';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SCRAPE_TOKEN = 'bench-scrape-token-0123456789abcdef';
const SCRAPES = 50;

type Mode = 'on' | 'off';

async function serverWith(mode: Mode): Promise<{ t: TestServer; loads: Record<string, Load> }> {
  const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const t = await startTestServer({
    backend,
    config: { logLevel: 'info', metrics: mode === 'on', metricsToken: SCRAPE_TOKEN },
    logStream: { write: () => undefined },
  });
  const { token, providerGets } = await officeOnFilledServer(t, ROWS);
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    t,
    loads: {
      get: providerGets,
      list: {
        url: `${t.url}/api${serviceProvider.rest}/srch`,
        method: 'POST',
        headers: auth,
        body: { page: 1, pageSize: 20, sort: 'sp_Name', dir: 'asc', territory: 3 },
      },
    },
  };
}

/** Median time of one GET /api/metrics, after the load filled the series. */
async function scrapeMs(t: TestServer): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SCRAPES; i += 1) {
    const started = performance.now();
    const response = await fetch(`${t.url}/api/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
    if (response.status !== 200) throw new Error(`the scrape answered ${response.status}`);
    await response.text();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main() {
  const servers = { on: await serverWith('on'), off: await serverWith('off') };
  try {
    console.log(
      `# metrics: ${ROWS.toLocaleString('en')} rows per main table on ${servers.on.t.backend}, two servers (METRICS on and off), autocannon ${CONNECTIONS} connections × ${SECONDS} s, median of ${RUNS} rounds`,
    );
    for (const route of ['get', 'list']) {
      const rps: Record<Mode, number[]> = { on: [], off: [] };
      for (let round = 0; round < RUNS; round += 1) {
        for (const mode of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
          const outcome = await hammer(servers[mode].loads[route] as Load, { seconds: SECONDS, connections: CONNECTIONS });
          if (outcome.bad > 0) throw new Error(`${route} (metrics ${mode}): ${outcome.bad} failed requests`);
          rps[mode].push(outcome.rps);
        }
      }
      console.log(`metrics.${route}_on_rps: ${median(rps.on).toFixed(0)} req/s`);
      console.log(`metrics.${route}_off_rps: ${median(rps.off).toFixed(0)} req/s`);
      console.log(`metrics.${route}_on_vs_off: ${pairedRatio(rps.on, rps.off)} x`);
    }
    const scrape = await fetch(`${servers.on.t.url}/api/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } }).then((r) =>
      r.text(),
    );
    console.log(
      `metrics.scrape: ${(await scrapeMs(servers.on.t)).toFixed(1)} ms for ${(scrape.length / 1024).toFixed(1)} KB (${scrape.split('\n').filter((l) => l && !l.startsWith('#')).length} series)`,
    );
  } finally {
    await servers.on.t.close();
    await servers.off.t.close();
  }
}

await withResults('metrics', main);
