// Start-up (issue 16): `npm run build && npx tsx bench/startup.bench.ts`. Headless Chromium
// against the built app on a local server (in-memory PGlite):
// - startup.login_js_gzip: the JavaScript the login screen loads (every script response until the
//   form shows and the network is quiet), gzip level 9 of the built files; budget ≤ 350 KB;
// - startup.offline_login_ms / startup.offline_home_ms: an installed app (service worker active,
//   precache filled) with the network off, from navigation to the login form / to the offline
//   home (signed in, offline mode); median of BENCH_RUNS (default 7) fresh pages; budget ≤ 1 s;
// - startup.offline_home_ready_ms: the same start until the home shows its counts (store open);
// - BENCH_PROFILE=1: one more offline home start, with what it loaded and where the time went.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Waits until no script has been requested for `quietMs`. */
async function scriptsQuiet(page: Page, seen: () => number, quietMs = 750): Promise<void> {
  let last = seen();
  for (;;) {
    await page.waitForTimeout(quietMs);
    if (seen() === last) return;
    last = seen();
  }
}

async function loginScripts(baseURL: string, browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const { context, page } = await newPage(browser, { baseURL, lang: 'en' });
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js') && url.pathname.startsWith('/assets/')) scripts.add(url.pathname);
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login' }).waitFor();
  await scriptsQuiet(page, () => scripts.size);
  await context.close();
  const files = [...scripts].map((p) => readFileSync(path.join('dist', p)));
  return {
    files: files.length,
    raw: files.reduce((n, f) => n + f.length, 0),
    gzip: files.reduce((n, f) => n + gzipSync(f, { level: 9 }).length, 0),
  };
}

/** Milliseconds from navigation to each of `steps` (in order) in RUNS fresh pages of `context`. */
async function coldStarts(context: BrowserContext, url: string, ...steps: ((page: Page) => Promise<unknown>)[]): Promise<number[][]> {
  const times: number[][] = steps.map(() => []);
  for (let run = 0; run < RUNS; run += 1) {
    const fresh = await context.newPage();
    const started = performance.now();
    await fresh.goto(url);
    for (const [i, step] of steps.entries()) {
      await step(fresh);
      times[i]?.push(performance.now() - started);
    }
    await fresh.close();
  }
  return times;
}

/** BENCH_PROFILE=1: one more cold start of `url` with what it loaded (start, end, size), the
 * performance marks (IndexedDB opens are marked) and the main thread's time per script (CPU
 * profile: self time of the functions of each file, compile and evaluation included). */
async function profile(context: BrowserContext, url: string, shown: (page: Page) => Locator) {
  await context.addInitScript(() => {
    const open = indexedDB.open.bind(indexedDB);
    indexedDB.open = (name: string, version?: number) => {
      performance.mark(`idb-open ${name}`);
      return open(name, version);
    };
  });
  const fresh = await context.newPage();
  const cdp = await context.newCDPSession(fresh);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await fresh.goto(url);
  await shown(fresh).waitFor();
  const { profile: cpu } = await cdp.send('Profiler.stop');
  const timings = await fresh.evaluate(() => ({
    shown: performance.now(),
    marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
    loads: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => r.name.includes('/assets/'))
      .map((r) => ({ name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd, size: r.decodedBodySize })),
  }));
  await fresh.close();
  console.log(`# profile ${url}: shown ${timings.shown.toFixed(0)} ms after navigation start`);
  for (const s of timings.loads) {
    console.log(`#   ${s.start.toFixed(0).padStart(5)}-${s.end.toFixed(0).padStart(5)} ms ${(s.size / 1024).toFixed(0).padStart(5)} KB ${s.name}`);
  }
  for (const m of timings.marks) console.log(`#   ${m.at.toFixed(0).padStart(5)} ms mark: ${m.name}`);
  const selfMs = new Map<string, number>();
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  (cpu.samples ?? []).forEach((id, i) => {
    const node = byId.get(id);
    const file = node?.callFrame.url ? new URL(node.callFrame.url).pathname : `(${node?.callFrame.functionName || 'program'})`;
    selfMs.set(file, (selfMs.get(file) ?? 0) + (cpu.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [file, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`#   ${ms.toFixed(0).padStart(5)} ms cpu ${file}`);
}

async function main() {
  const t = await startTestServer();
  await ensureOrganisations(t.server.db);
  await t.createUser({ userName: 'field', password: 'field-password-1', role: 3, location: 1 });
  const browser = await launchBrowser();
  try {
    const login = await loginScripts(t.url, browser);
    console.log('# startup: headless Chromium, built app (dist/), local server');
    console.log(`startup.login_js_files: ${login.files} files`);
    console.log(`startup.login_js_raw: ${(login.raw / 1024).toFixed(1)} KB`);
    console.log(`startup.login_js_gzip: ${(login.gzip / 1024).toFixed(1)} KB`);

    // Installed: signed in once online, the worker active and its precache filled.
    const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'en', serviceWorkers: 'allow' });
    await signIn(page, 'field', 'field-password-1');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await page.evaluate(() => localStorage.setItem('mode', 'offline'));
    await context.setOffline(true);

    const homeShown = (p: Page) => p.getByRole('heading', { name: 'Data collected Offline' });
    // Ready: the store is open and the counts of unsent records are shown.
    const homeReady = (p: Page) => p.getByTestId('offline-total').filter({ hasText: 'waiting to be uploaded' });
    const [home = [], ready = []] = await coldStarts(context, '/', (p) => homeShown(p).waitFor(), (p) => homeReady(p).waitFor());
    if (process.env.BENCH_PROFILE) await profile(context, '/', homeReady);
    // Signed out (the session keys removed), the same installed app shows the login form.
    await page.evaluate(() => {
      localStorage.removeItem('token');
      localStorage.removeItem('user');
    });
    const [offlineLogin = []] = await coldStarts(context, '/login', (p) => p.getByRole('button', { name: 'Login' }).waitFor());
    await context.close();
    console.log(`startup.offline_home_ms: ${median(home).toFixed(0)} ms`);
    console.log(`startup.offline_home_ready_ms: ${median(ready).toFixed(0)} ms`);
    console.log(`startup.offline_login_ms: ${median(offlineLogin).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await t.close();
  }
}

if (process.env.VITEST) {
  const { bench } = await import('vitest');
  bench.skip('startup: run `npx tsx bench/startup.bench.ts`', () => undefined);
} else {
  await main();
}
