// Lighthouse on the low-end phone (ADR-0035): Lighthouse 12.2.3 (the dev dependency; 13 needs
// Node 22) with its default mobile preset (412×823 screen, simulated throttling: slow 4G, 150 ms
// RTT, 1.6 Mbit/s, CPU 4× slower) on five pages of the built app (dist/) served by a local server
// (in-memory PGlite, or PostgreSQL with TEST_DATABASE_URL) holding the demo data at scale
// BENCH_SCALE (default 5, as `npm run seed:demo -- --scale 5 --seed 42`: ~7,000 records,
// created by the first administrator):
// - `login`: /login signed out, in a tab of its own (a fresh browser context);
// - `offlinehp`, `serviceproviders`, `profiles`, `dashboard`: /offlinehp, /serviceproviders,
//   /profiles and / signed in as a real user (role 4, organisation 1: it reads that
//   organisation's clients). The user signs in once through the login screen (Playwright), the
//   bench waits until the first pull of the mirror has ended (bench/signedIn.ts: no sync request
//   for 3 s), and Lighthouse then audits THAT SAME tab (puppeteer-core attached to the same
//   Chromium over its debugging port), with `disableStorageReset`: the session, the local store
//   and the tab's sessionStorage mark survive (ADR-0020: a new tab would show the lock screen; a
//   load in the same tab resumes without the password). So every signed-in run starts from the
//   same state: store full, only the changes since the last pull to fetch. The HTTP cache stays
//   too (each page is loaded once before the runs to fill it): the scripts come from the cache,
//   as for an app used before on the phone (its service worker's precache); the figures of
//   ADR-0035 match this mode. BENCH_CACHE=cold empties it before every run (CDP
//   Network.clearBrowserCache, what Lighthouse's storage reset does for it): every script then
//   crosses the simulated slow 4G, which costs the signed-in pages 20-30 points of performance
//   (FCP and LCP) for about the same TBT. Service workers are blocked (as in the browser
//   tests). After each run the bench checks that Lighthouse audited the screen asked for: its
//   final URL is the page's, and the tab shows neither the lock screen nor (signed in) the login
//   form; otherwise it stops with an error.
// Per page, the median over BENCH_RUNS (default 3) runs of each category's score (performance,
// accessibility, best practices, SEO) and of total blocking time, LCP, FCP, speed index and CLS
// (Lighthouse's simulated figures), then a markdown table. The pages take turns within each run,
// so a load on the shared machine falls on all of them. The audits that lose points in the other
// categories (best practices: e.g. a deprecated `unload` listener) are listed with how many runs
// failed them and their first items.
//
//   npx vite build && npx tsx bench/lighthouse.bench.ts
//
// - BENCH_RUNS: runs per page (default 3);
// - BENCH_SCALE: demo data scale (default 5);
// - BENCH_PAGES: comma-separated page names or paths (default all five:
//   login,offlinehp,serviceproviders,profiles,dashboard);
// - BENCH_CACHE=cold: the HTTP cache emptied before each run (default warm, see above);
// - BENCH_DIST=<dir>: audit that build instead of dist/ (e.g. a copy of main's, for before/after);
// - BENCH_DETAILS=1: for the run of median TBT of each page, where the main thread's time went
//   (top 5 of 'bootup-time', 'long-tasks', 'mainthread-work-breakdown', and unused JavaScript);
// - BENCH_REPORT_DIR=<dir>: every run's Lighthouse report written there as JSON (open one in
//   https://googlechrome.github.io/lighthouse/viewer/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium, type Browser, type Page } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { seedDemo } from '../server/seed/demo';
import { CHROMIUM_ARGS, newPage } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';
import { median } from './median';
import { lockScreen, signedInAfterFirstPull } from './signedIn';
import { withResults } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SCALE = Number(process.env.BENCH_SCALE ?? 5);
const DETAILS = process.env.BENCH_DETAILS === '1';
const REPORT_DIR = process.env.BENCH_REPORT_DIR;
const WARM_CACHE = process.env.BENCH_CACHE !== 'cold';
/** Another build to audit instead of dist/ (e.g. main's, copied): before and after, one command. */
const DIST = process.env.BENCH_DIST;
const USER = { userName: 'lighthouse', password: 'lighthouse-password-1', role: 4, location: 1 };

interface PageSpec {
  name: string;
  path: string;
  signedIn: boolean;
}

const ALL_PAGES: readonly PageSpec[] = [
  { name: 'login', path: '/login', signedIn: false },
  { name: 'offlinehp', path: '/offlinehp', signedIn: true },
  { name: 'serviceproviders', path: '/serviceproviders', signedIn: true },
  { name: 'profiles', path: '/profiles', signedIn: true },
  { name: 'dashboard', path: '/', signedIn: true },
];

function pickPages(): PageSpec[] {
  const wanted = process.env.BENCH_PAGES?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!wanted?.length) return [...ALL_PAGES];
  return wanted.map((w) => {
    const found = ALL_PAGES.find((p) => p.name === w || p.path === w);
    if (!found) throw new Error(`BENCH_PAGES: unknown page ${w} (one of ${ALL_PAGES.map((p) => p.name).join(', ')})`);
    return found;
  });
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  tbt: 'total-blocking-time',
  lcp: 'largest-contentful-paint',
  fcp: 'first-contentful-paint',
  si: 'speed-index',
  cls: 'cumulative-layout-shift',
} as const;
type Metric = keyof typeof METRICS;

/** One Lighthouse run of one page, reduced to what the bench prints. */
interface Run {
  scores: Partial<Record<(typeof CATEGORIES)[number], number>>;
  metrics: Partial<Record<Metric, number>>;
  finalUrl: string;
  lhr: Result;
}

/** A free TCP port on 127.0.0.1 for Chromium's debugging endpoint. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The browser tests' Chromium (CHROMIUM_ARGS), with a debugging port that puppeteer-core, and
 * through it Lighthouse, attaches to. */
async function launchWithDebuggingPort(): Promise<{ browser: Browser; port: number }> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'],
  });
  return { browser, port };
}

/** The puppeteer-core page of the tab Playwright drives as `page`: found by a mark in its
 * window.name, set for that lookup only. */
async function samePageInPuppeteer(pptr: PuppeteerBrowser, page: Page, mark: string): Promise<PuppeteerPage> {
  await page.evaluate(`window.name = ${JSON.stringify(mark)}`);
  for (const candidate of await pptr.pages()) {
    if ((await candidate.evaluate('window.name')) === mark) return candidate;
  }
  throw new Error(`puppeteer-core does not see the tab marked ${mark}`);
}

const FLAGS: Flags = {
  output: 'json',
  logLevel: 'error',
  // Keep the session, the store, the tab's unlock mark and the HTTP cache (BENCH_CACHE=cold:
  // the bench empties the cache itself).
  disableStorageReset: true,
};

/** Lighthouse on `url` in the tab `tab` (Playwright's `page`); checks it audited that screen. */
async function audit(tab: PuppeteerPage, page: Page, url: string, spec: PageSpec): Promise<Run> {
  if (!WARM_CACHE) {
    const session = await tab.createCDPSession();
    await session.send('Network.clearBrowserCache');
    await session.detach();
  }
  await tab.bringToFront();
  const result = await lighthouse(url, FLAGS, undefined, tab);
  if (!result) throw new Error(`${spec.path}: Lighthouse gave no result`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${spec.path}: Lighthouse failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const finalUrl = lhr.finalDisplayedUrl;
  const problems: string[] = [];
  if (new URL(finalUrl).pathname !== spec.path) problems.push(`final URL ${finalUrl}`);
  if (new URL(page.url()).pathname !== spec.path) problems.push(`the tab is at ${page.url()}`);
  if (await lockScreen(page).isVisible()) problems.push('the tab shows the lock screen');
  const loginForm = await page.getByRole('button', { name: 'Login', exact: true }).isVisible();
  if (spec.signedIn && loginForm) problems.push('the tab shows the login form');
  if (!spec.signedIn && !loginForm) problems.push('the tab does not show the login form');
  if (problems.length) throw new Error(`${spec.path}: Lighthouse did not audit the intended screen: ${problems.join('; ')}`);
  const scores: Run['scores'] = {};
  for (const id of CATEGORIES) {
    const score = lhr.categories[id]?.score;
    if (typeof score === 'number') scores[id] = Math.round(score * 100);
  }
  const metrics: Run['metrics'] = {};
  for (const [key, id] of Object.entries(METRICS) as [Metric, string][]) {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value === 'number') metrics[key] = value;
  }
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(path.join(REPORT_DIR, `${spec.name}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  return { scores, metrics, finalUrl, lhr };
}

const ms = (v: number | undefined) => (v === undefined ? '–' : `${Math.round(v).toLocaleString('en')} ms`);
const score = (v: number | undefined) => (v === undefined ? '–' : String(v));
const medianOf = (values: (number | undefined)[]) => {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length ? median(known) : undefined;
};

type AuditResult = Result['audits'][string];
type Details = NonNullable<AuditResult['details']>;

/** The rows of an audit's table or opportunity details (other kinds: none). */
function items(a: AuditResult | undefined): Record<string, unknown>[] {
  const details: Details | undefined = a?.details;
  if (!details || (details.type !== 'table' && details.type !== 'opportunity')) return [];
  return details.items as unknown as Record<string, unknown>[];
}

/** A short text for a value of a details row (a URL, a source location, a text or a number). */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(Math.round(value));
  if (typeof value === 'string') return value.replace(/^https?:\/\/127\.0\.0\.1:\d+/, '');
  if (typeof value === 'object') {
    const v = value as { type?: string; url?: string; line?: number; column?: number; value?: unknown; text?: string };
    if (v.type === 'source-location' && v.url) return `${cell(v.url)}:${(v.line ?? 0) + 1}:${(v.column ?? 0) + 1}`;
    if (v.url) return cell(v.url);
    if (v.text) return v.text;
    if (v.value !== undefined) return cell(v.value);
  }
  return JSON.stringify(value).slice(0, 80);
}

/** The audits of the categories other than performance that failed in any run: id, title, how
 * many runs, and the first items of the last failing run. */
function failedAudits(runs: Run[]): string[] {
  const lines: string[] = [];
  const failed = new Map<string, { category: string; title: string; count: number; sample: AuditResult }>();
  for (const run of runs) {
    for (const category of CATEGORIES.filter((c) => c !== 'performance')) {
      for (const ref of run.lhr.categories[category]?.auditRefs ?? []) {
        const a = run.lhr.audits[ref.id];
        if (!a || a.score === null || a.score >= 1 || ref.weight === 0) continue;
        const key = `${category}/${ref.id}`;
        const seen = failed.get(key) ?? { category, title: a.title, count: 0, sample: a };
        failed.set(key, { ...seen, count: seen.count + 1, sample: a });
      }
    }
  }
  for (const [key, f] of failed) {
    lines.push(`#   fails ${key} (${f.count}/${runs.length} runs): ${f.title}`);
    for (const row of items(f.sample).slice(0, 4)) {
      const text = Object.values(row).map(cell).filter(Boolean).join(' | ');
      lines.push(`#     - ${text.slice(0, 200)}`);
    }
  }
  return lines;
}

/** BENCH_DETAILS=1: where the main thread's time went in one run. */
function details(run: Run): string[] {
  const lines: string[] = [`#   details of the run with the median TBT (${ms(run.metrics.tbt)}):`];
  const top = (id: string, label: string, format: (row: Record<string, unknown>) => string, sortKey: string) => {
    const rows = [...items(run.lhr.audits[id])].sort((a, b) => Number(b[sortKey] ?? 0) - Number(a[sortKey] ?? 0)).slice(0, 5);
    const a = run.lhr.audits[id];
    lines.push(`#   ${label}${a?.displayValue ? ` (${a.displayValue})` : ''}:`);
    for (const row of rows) lines.push(`#     ${format(row)}`);
    if (!rows.length && id === 'unused-javascript' && WARM_CACHE)
      lines.push('#     (none counted: scripts from the cache cross no network; BENCH_CACHE=cold lists them)');
  };
  top(
    'bootup-time',
    'bootup-time, per script (total / scripting / parse+compile)',
    (r) => `${ms(Number(r.total))} / ${ms(Number(r.scripting))} / ${ms(Number(r.scriptParseCompile))}  ${cell(r.url)}`,
    'total',
  );
  top(
    'long-tasks',
    'long-tasks (duration at start, simulated)',
    (r) => `${ms(Number(r.duration))} at ${ms(Number(r.startTime))}  ${cell(r.url)}`,
    'duration',
  );
  top(
    'mainthread-work-breakdown',
    'mainthread-work-breakdown',
    (r) => `${ms(Number(r.duration))}  ${cell(r.groupLabel ?? r.group)}`,
    'duration',
  );
  const api = items(run.lhr.audits['network-requests'])
    .map((r) => new URL(String(r.url)).pathname)
    .filter((p) => p.startsWith('/api/'));
  const repeated = [...new Set(api.filter((p, i) => api.indexOf(p) !== i))];
  lines.push(
    `#   API calls during the load: ${api.length} (${api.filter((p) => p.startsWith('/api/sync/')).length} of them /api/sync/…)${repeated.length ? `; asked more than once: ${repeated.join(', ')}` : ''}`,
  );
  top(
    'unused-javascript',
    'unused-javascript (wasted / total bytes)',
    (r) => `${Math.round(Number(r.wastedBytes) / 1024)} / ${Math.round(Number(r.totalBytes) / 1024)} KiB  ${cell(r.url)}`,
    'wastedBytes',
  );
  return lines;
}

async function main() {
  const pages = pickPages();
  const t = await startTestServer({
    backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    config: { statementTimeoutMs: 300_000, ...(DIST ? { staticDir: path.resolve(DIST) } : {}) },
  });
  const { browser, port } = await launchWithDebuggingPort();
  let pptr: PuppeteerBrowser | undefined;
  try {
    await ensureOrganisations(t.server.db);
    const [admin] = await t.server.db.query<{ userId: string }>(
      `SELECT "userId" FROM "users" WHERE "role" = 1 AND "active" ORDER BY "createdAt" LIMIT 1`,
    );
    const seeded = performance.now();
    const summary = await seedDemo(t.server.db, { scale: SCALE, seed: 42, createdBy: admin?.userId ?? null });
    const records = Object.entries(summary)
      .filter(([k]) => k !== 'lists')
      .reduce((n, [, v]) => n + v, 0);
    const seedSeconds = (performance.now() - seeded) / 1000;
    await t.createUser(USER);

    // One tab per kind: signed out for /login, signed in (after the first pull) for the others.
    const tabs = new Map<boolean, Page>();
    if (pages.some((p) => !p.signedIn)) tabs.set(false, (await newPage(browser, { baseURL: t.url, lang: 'en' })).page);
    let pullSeconds = 0;
    if (pages.some((p) => p.signedIn)) {
      const started = performance.now();
      tabs.set(true, await signedInAfterFirstPull(browser, t.url, USER));
      pullSeconds = (performance.now() - started) / 1000;
    }
    pptr = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
    const pptrTabs = new Map<boolean, PuppeteerPage>();
    for (const [signedIn, page] of tabs)
      pptrTabs.set(signedIn, await samePageInPuppeteer(pptr, page, `lighthouse-${signedIn ? 'signed-in' : 'signed-out'}`));

    const version = await browser.version();
    console.log(
      `# lighthouse: Lighthouse 12.2.3 mobile preset on the built app, headless Chromium ${version}; demo data scale ${SCALE} (${records.toLocaleString('en')} records, ${seedSeconds.toFixed(1)} s to seed) on ${t.backend}; user role ${USER.role}, organisation ${USER.location} (sign-in and first pull ${pullSeconds.toFixed(0)} s); median of ${RUNS}; HTTP cache ${WARM_CACHE ? 'warm' : 'emptied before each run'}; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );

    if (WARM_CACHE) {
      for (const spec of pages) {
        const page = tabs.get(spec.signedIn);
        await page?.goto(spec.path, { waitUntil: 'load' });
        await page?.waitForTimeout(2_000);
      }
    }
    const runs = new Map<string, Run[]>(pages.map((p) => [p.name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const spec of pages) {
        const tab = pptrTabs.get(spec.signedIn);
        const page = tabs.get(spec.signedIn);
        if (!tab || !page) throw new Error(`no tab for ${spec.name}`);
        const result = await audit(tab, page, new URL(spec.path, t.url).href, spec);
        runs.get(spec.name)?.push(result);
        const s = result.scores;
        console.log(
          `# run ${run + 1} ${spec.path}: performance ${score(s.performance)}, TBT ${ms(result.metrics.tbt)}, LCP ${ms(result.metrics.lcp)}, best practices ${score(s['best-practices'])}, accessibility ${score(s.accessibility)} (final URL ${result.finalUrl.replace(t.url, '')}); load ${loadavg()[0]?.toFixed(1)}`,
        );
      }
    }

    const first = [...runs.values()][0]?.[0]?.lhr;
    if (first) {
      const c = first.configSettings;
      console.log(
        `# settings: formFactor ${c.formFactor}, throttling ${c.throttlingMethod} (rtt ${c.throttling.rttMs} ms, ${c.throttling.throughputKbps} kbit/s, cpu ${c.throttling.cpuSlowdownMultiplier}×), screen ${c.screenEmulation.width}×${c.screenEmulation.height}; benchmarkIndex ${first.environment.benchmarkIndex}`,
      );
    }
    const table = ['| page | performance | TBT | LCP | FCP | best practices | accessibility | SEO |', '|---|---|---|---|---|---|---|---|'];
    for (const spec of pages) {
      const all = runs.get(spec.name) ?? [];
      const sc = (id: (typeof CATEGORIES)[number]) => medianOf(all.map((r) => r.scores[id]));
      const me = (m: Metric) => medianOf(all.map((r) => r.metrics[m]));
      console.log(`lighthouse.${spec.name}.performance: ${score(sc('performance'))}`);
      console.log(`lighthouse.${spec.name}.accessibility: ${score(sc('accessibility'))}`);
      console.log(`lighthouse.${spec.name}.best_practices: ${score(sc('best-practices'))}`);
      console.log(`lighthouse.${spec.name}.seo: ${score(sc('seo'))}`);
      console.log(`lighthouse.${spec.name}.tbt_ms: ${ms(me('tbt'))}`);
      console.log(`lighthouse.${spec.name}.lcp_ms: ${ms(me('lcp'))}`);
      console.log(`lighthouse.${spec.name}.fcp_ms: ${ms(me('fcp'))}`);
      console.log(`lighthouse.${spec.name}.speed_index_ms: ${ms(me('si'))}`);
      console.log(`lighthouse.${spec.name}.cls: ${me('cls')?.toFixed(3) ?? '–'}`);
      console.log(
        `#   runs: performance ${all.map((r) => score(r.scores.performance)).join(' ')}; TBT ${all.map((r) => Math.round(r.metrics.tbt ?? Number.NaN)).join(' ')} ms`,
      );
      for (const line of failedAudits(all)) console.log(line);
      if (DETAILS && all.length) {
        const byTbt = [...all].sort((a, b) => (a.metrics.tbt ?? 0) - (b.metrics.tbt ?? 0));
        for (const line of details(byTbt[Math.floor((byTbt.length - 1) / 2)] as Run)) console.log(line);
      }
      table.push(
        `| \`${spec.path}\` | ${score(sc('performance'))} | ${ms(me('tbt'))} | ${ms(me('lcp'))} | ${ms(me('fcp'))} | ${score(sc('best-practices'))} | ${score(sc('accessibility'))} | ${score(sc('seo'))} |`,
      );
    }
    console.log('');
    console.log(table.join('\n'));
  } finally {
    await pptr?.disconnect();
    await browser.close();
    await t.close();
  }
}

await withResults('lighthouse', main);
