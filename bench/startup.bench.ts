// Start-up (ADR-0035): `npm run build && npx tsx bench/startup.bench.ts`. Headless Chromium
// against the built app on a local server (in-memory PGlite):
// - startup.login_js_gzip: the JavaScript the login screen loads (every script response until the
//   form shows and the network is quiet), gzip level 9 of the built files; budget ≤ 350 KB;
//   startup.login_js_wire: the same scripts' bodies as they crossed the network (the build's
//   brotli or gzip copies, server/lib/precompressed.ts);
// - startup.offline_login_ms / startup.offline_home_ms: an installed app (service worker active,
//   precache filled) with the network off, from navigation to the login form / to the offline
//   home (signed in, offline mode); median of BENCH_RUNS (default 7) fresh pages; budget ≤ 1 s;
//   on the page's clock, when it is first in the page (the `_polled_ms` figures: on the bench's
//   clock, when Playwright's check saw it, which backs off to one check per 500 ms);
// - startup.offline_home_ready_ms: the same start until the home shows its counts (store open);
// - BENCH_COMPARE_DIST=<dir>: another build (e.g. main's dist/, copied) installed on a second
//   server and started in turn with this one: its figures and the median ratios of the pairs;
// - BENCH_PROFILE=1: one more offline home start, with what it loaded and where the time went
//   (BENCH_PROFILE=2: and the main thread's time by 100 ms).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer, type TestServer } from '../test/helpers/server';
import { withResults } from './results';

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
  const wire: Promise<number>[] = [];
  const encodings = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('.js') || !url.pathname.startsWith('/assets/')) return;
    scripts.add(url.pathname);
    encodings.add(response.headers()['content-encoding'] ?? 'none');
    wire.push(response.finished().then(async () => (await response.request().sizes()).responseBodySize));
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login' }).waitFor();
  await scriptsQuiet(page, () => scripts.size);
  const wireBytes = (await Promise.all(wire)).reduce((n, size) => n + size, 0);
  await context.close();
  const files = [...scripts].map((p) => readFileSync(path.join('dist', p)));
  return {
    files: files.length,
    raw: files.reduce((n, f) => n + f.length, 0),
    gzip: files.reduce((n, f) => n + gzipSync(f, { level: 9 }).length, 0),
    wire: wireBytes,
    encodings: [...encodings].join(', '),
  };
}

/** What a start waits for: an element matching `selector` whose text contains `text`. */
interface Shown {
  selector: string;
  text: string;
}

/** In every page of `context`: the page's clock (ms from navigation) when each of `watched` is
 * first in the page (a mutation observer, called as soon as the DOM changes). Playwright's own
 * checks back off to one per 500 ms and start after the load event, which the polled figures
 * include. (Animation frames would give the paint itself, but headless Chromium runs none in a
 * page that is not in front.) */
async function watchPaints(context: BrowserContext, watched: Shown[]): Promise<void> {
  // No named function inside: tsx keeps names with a helper the page does not have.
  await context.addInitScript((all: Shown[]) => {
    const seen: (number | null)[] = all.map(() => null);
    (window as unknown as { __painted: (number | null)[] }).__painted = seen;
    new MutationObserver((_, observer) => {
      const now = performance.now();
      all.forEach((w, i) => {
        if (seen[i] !== null) return;
        for (const el of document.querySelectorAll(w.selector)) {
          if (el.textContent?.includes(w.text)) {
            seen[i] = now;
            break;
          }
        }
      });
      if (seen.every((t) => t !== null)) observer.disconnect();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, watched);
}

interface StartTimes {
  /** Node's clock from the navigation to Playwright's check that saw it. */
  polled: number[];
  /** The page's clock when it was first in the page. */
  painted: number[];
}

/** Milliseconds from navigation to each of `steps` (in order) in RUNS fresh pages of `context`;
 * `index` is the step's place in `WATCHED`. */
async function coldStarts(
  context: BrowserContext,
  url: string,
  runs: number,
  ...steps: { shown: Shown; index: number }[]
): Promise<StartTimes[]> {
  const times: StartTimes[] = steps.map(() => ({ polled: [], painted: [] }));
  for (let run = 0; run < runs; run += 1) {
    const fresh = await context.newPage();
    const started = performance.now();
    await fresh.goto(url);
    for (const [i, step] of steps.entries()) {
      await fresh.locator(step.shown.selector).filter({ hasText: step.shown.text }).first().waitFor();
      times[i]?.polled.push(performance.now() - started);
      const painted = await fresh.evaluate((at) => (window as unknown as { __painted: (number | null)[] }).__painted[at], step.index);
      if (painted != null) times[i]?.painted.push(painted);
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
    console.log(
      `#   ${s.start.toFixed(0).padStart(5)}-${s.end.toFixed(0).padStart(5)} ms ${(s.size / 1024).toFixed(0).padStart(5)} KB ${s.name}`,
    );
  }
  for (const m of timings.marks.sort((a, b) => a.at - b.at)) console.log(`#   ${m.at.toFixed(0).padStart(5)} ms mark: ${m.name}`);
  const selfMs = new Map<string, number>();
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  (cpu.samples ?? []).forEach((id, i) => {
    const node = byId.get(id);
    const file = node?.callFrame.url ? new URL(node.callFrame.url).pathname : `(${node?.callFrame.functionName || 'program'})`;
    selfMs.set(file, (selfMs.get(file) ?? 0) + (cpu.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [file, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`#   ${ms.toFixed(0).padStart(5)} ms cpu ${file}`);
  // BENCH_PROFILE=2: the main thread's time by 100 ms of the start (from the profile's own
  // start, a few ms before navigation): the two files (or native parts) that took most of it.
  if (process.env.BENCH_PROFILE !== '2') return;
  const buckets = new Map<number, Map<string, number>>();
  let at = 0;
  (cpu.samples ?? []).forEach((id, i) => {
    const delta = (cpu.timeDeltas?.[i] ?? 0) / 1000;
    at += delta;
    const node = byId.get(id);
    const file = node?.callFrame.url
      ? new URL(node.callFrame.url).pathname.replace('/assets/', '')
      : `(${node?.callFrame.functionName || 'program'})`;
    const bucket = buckets.get(Math.floor(at / 100)) ?? new Map<string, number>();
    bucket.set(file, (bucket.get(file) ?? 0) + delta);
    buckets.set(Math.floor(at / 100), bucket);
  });
  for (const [n, bucket] of [...buckets].sort((a, b) => a[0] - b[0])) {
    const top = [...bucket]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([f, ms]) => `${f} ${ms.toFixed(0)}`);
    console.log(`#   ${String(n * 100).padStart(5)} ms: ${top.join(', ')}`);
  }
}

// Shown: the offline home's first section title; ready: the store is open and the counts are
// shown; the login form.
const WATCHED: Shown[] = [
  { selector: 'h2', text: 'Data collected Offline' },
  { selector: '[data-testid="offline-total"]', text: 'waiting to be uploaded' },
  { selector: 'button', text: 'Login' },
];
const [HOME, READY, LOGIN] = WATCHED.map((shown, index) => ({ shown, index })) as [
  { shown: Shown; index: number },
  { shown: Shown; index: number },
  { shown: Shown; index: number },
];

interface Build {
  name: string;
  server: TestServer;
  context: BrowserContext;
  page: Page;
  home: StartTimes;
  ready: StartTimes;
  login: StartTimes;
}

/** The app of `server` installed: signed in once online, the worker active and its precache
 * filled; then offline mode and the network cut. */
async function install(browser: Browser, name: string, server: TestServer): Promise<Build> {
  await ensureOrganisations(server.server.db);
  await server.createUser({ userName: 'field', password: 'field-password-1', role: 3, location: 1 });
  const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
  await signIn(page, 'field', 'field-password-1');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  await page.evaluate(() => localStorage.setItem('mode', 'offline'));
  await context.setOffline(true);
  await watchPaints(context, WATCHED);
  const none = () => ({ polled: [], painted: [] });
  return { name, server, context, page, home: none(), ready: none(), login: none() };
}

const push = (into: StartTimes, from: StartTimes | undefined) => {
  into.polled.push(...(from?.polled ?? []));
  into.painted.push(...(from?.painted ?? []));
};

/** RUNS cold starts of each build, one of each in turn (the order alternating), so that a
 * comparison meets the same load. */
async function measure(builds: Build[], afterHome: () => Promise<void>): Promise<void> {
  for (let run = 0; run < RUNS; run += 1) {
    for (const build of run % 2 ? [...builds].reverse() : builds) {
      const [home, ready] = await coldStarts(build.context, '/', 1, HOME, READY);
      push(build.home, home);
      push(build.ready, ready);
    }
  }
  await afterHome();
  for (const build of builds) {
    // Signed out (the session keys removed), the same installed app shows the login form.
    await build.page.evaluate(() => {
      localStorage.removeItem('token');
      localStorage.removeItem('user');
    });
  }
  for (let run = 0; run < RUNS; run += 1) {
    for (const build of run % 2 ? [...builds].reverse() : builds)
      push(build.login, (await coldStarts(build.context, '/login', 1, LOGIN))[0]);
  }
}

function report(build: Build, prefix: string): void {
  const figure = (name: string, times: StartTimes) => {
    console.log(`${prefix}${name}_ms: ${median(times.painted).toFixed(0)} ms`);
    console.log(`${prefix}${name}_polled_ms: ${median(times.polled).toFixed(0)} ms`);
  };
  figure('offline_home', build.home);
  figure('offline_home_ready', build.ready);
  figure('offline_login', build.login);
}

/** Median of the ratios this/that of the runs in turn. */
function pairedRatio(these: number[], those: number[]): number {
  return median(these.map((v, i) => v / (those[i] ?? Number.NaN)).filter(Number.isFinite));
}

async function main() {
  // BENCH_COMPARE_DIST=<another build's dist/>: its app on a second server, started in turn.
  const compareDist = process.env.BENCH_COMPARE_DIST;
  const t = await startTestServer();
  const other = compareDist ? await startTestServer({ config: { staticDir: path.resolve(compareDist) } }) : undefined;
  const browser = await launchBrowser();
  try {
    const login = await loginScripts(t.url, browser);
    console.log(`# startup: headless Chromium, built app (dist/), local server; load ${loadAverage()}`);
    console.log(`startup.login_js_files: ${login.files} files`);
    console.log(`startup.login_js_raw: ${(login.raw / 1024).toFixed(1)} KB`);
    console.log(`startup.login_js_gzip: ${(login.gzip / 1024).toFixed(1)} KB`);
    console.log(`startup.login_js_wire: ${(login.wire / 1024).toFixed(1)} KB (as served, encoding: ${login.encodings})`);

    const builds = [await install(browser, 'dist', t)];
    if (other && compareDist) builds.push(await install(browser, compareDist, other));
    const [build, compared] = builds as [Build, Build | undefined];
    await measure(builds, async () => {
      if (process.env.BENCH_PROFILE)
        await profile(build.context, '/', (p) => p.getByTestId('offline-total').filter({ hasText: 'waiting to be uploaded' }));
    });
    for (const b of builds) await b.context.close();
    report(build, 'startup.');
    if (compared) {
      console.log(`# compared with ${compared.name}, started in turn with the above (median of ${RUNS} each); load ${loadAverage()}`);
      report(compared, 'startup.compared.');
      console.log(`startup.offline_home_vs_compared: ${pairedRatio(build.home.painted, compared.home.painted).toFixed(2)} x`);
      console.log(`startup.offline_home_ready_vs_compared: ${pairedRatio(build.ready.painted, compared.ready.painted).toFixed(2)} x`);
      console.log(`startup.offline_login_vs_compared: ${pairedRatio(build.login.painted, compared.login.painted).toFixed(2)} x`);
    }
  } finally {
    await browser.close();
    await t.close();
    await other?.close();
  }
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

if (process.env.VITEST) {
  const { bench } = await import('vitest');
  bench.skip('startup: run `npx tsx bench/startup.bench.ts`', () => undefined);
} else {
  await withResults('startup', main);
}
