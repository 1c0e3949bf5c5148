// Two builds in one run on one database: this tree's server, and (BENCH_COMPARE_DIST, the `dist`
// folder of another build) a second server for that build's files on the same database, so the
// two builds meet the same data and the same machine load (docs/performance.md "How to read").
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { buildApp } from '../server/app';
import { launchBrowser } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer, type TestServer } from '../test/helpers/server';

export interface ComparedBuilds {
  t: TestServer;
  browser: Browser;
  /** [name, address] of each build: 'this', then 'compared' when BENCH_COMPARE_DIST is set. */
  builds: [string, string][];
}

/** A server for another build's files on the same database. */
async function serveOtherBuild(config: Parameters<typeof buildApp>[0], dist: string) {
  const server = await buildApp({ ...config, staticDir: path.resolve(dist) });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`, close: () => server.app.close() };
}

/** Runs `bench` with the servers (the organisations' list in place) and a browser, closed after. */
export async function withComparedBuilds(bench: (builds: ComparedBuilds) => Promise<void>): Promise<void> {
  // The bulk fill can outlast the default statement timeout (and the client's read timeout
  // after it) on a busy shared machine; the measured queries take milliseconds.
  const t = await startTestServer({
    backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    config: { statementTimeoutMs: 300_000 },
  });
  const compareDist = process.env.BENCH_COMPARE_DIST;
  if (compareDist && t.backend !== 'postgres') throw new Error('BENCH_COMPARE_DIST needs TEST_DATABASE_URL (two servers on one database)');
  const browser = await launchBrowser();
  const other = compareDist ? await serveOtherBuild(t.config, compareDist) : undefined;
  try {
    await ensureOrganisations(t.server.db);
    await bench({ t, browser, builds: [['this', t.url], ...(other ? [['compared', other.url] as [string, string]] : [])] });
  } finally {
    await browser.close();
    await other?.close();
    await t.close();
  }
}
