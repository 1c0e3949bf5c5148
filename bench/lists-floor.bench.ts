// The floor under a list's first rows (ADR-0035): React, MUI and the MUI DataGrid alone in
// headless Chromium, without the app, and the app's providers list in the same run. The page
// (bench/lists-floor/: index.html, main.tsx and one module per step) is built here with Vite's
// `build()` (production, @vitejs/plugin-react, no PWA) into a temporary folder and served by a
// small node server with one JSON of 25 rows shaped like the providers list. Steps, chosen by
// the page's query string (`?step=`), each adding to the one before:
// - table: React 19 and a plain HTML <table> of the 25 rows fetched;
// - mui-table: MUI's ThemeProvider (createTheme), CssBaseline and MUI's Table;
// - grid: the same theme with the MUI DataGrid (`@mui/x-data-grid`), 6 columns, 25 rows, auto
//   row height, set up and boxed as the app's GridView (src/components/entity/GridView.tsx);
// - grid-fixed: the same grid with its fixed row height (what measuring the rows costs);
// - grid-shell: the grid in a frame like the app's: an AppBar with buttons and a permanent
//   Drawer of 10 ListItemButtons with icons and tooltips;
// - app: the built app (dist/; `npx vite build` first) on a test server with BENCH_ROWS
//   (default 10,000) rows per main table, signed in (role 4, organisation 1) after its first
//   pull: a full page load of /serviceproviders, as bench/lists.bench.ts measures it.
// Each figure is a full page load, from navigation until a mutation observer first sees the
// first data row (the page's clock, as lists.bench.ts); each step has its own browser context,
// warmed by one load not counted (the HTTP and code caches warm, as in the app's signed-in
// context). Median of BENCH_RUNS (default 7); the steps in turn within each run, so drift in the
// machine's load hits them alike. Also printed: each run's figures and load average, the JS the
// page had loaded by its first rows (gzip, files as served), the app / grid-shell ratio, and for
// the floor's steps when the step's code was evaluated (`_module_ms`: the scripts fetched,
// parsed and run; what follows until the first row is React's render, styles and layout) and
// when the rows' JSON arrived (`_rows_answer_ms`).
//
//   npx vite build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/lists-floor.bench.ts
//
// Without TEST_DATABASE_URL the app's server runs on in-memory PGlite.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { launchBrowser } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';
import { fillMainTables } from './seed';
import { median } from './median';
import { signedInAfterFirstPull } from './signedIn';
import { loadText, withResults } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const STEPS = ['table', 'mui-table', 'grid', 'grid-fixed', 'grid-shell', 'app'] as const;
type Step = (typeof STEPS)[number];
const SOURCES = path.resolve('bench/lists-floor');
const USER = { userName: 'office', password: 'office-password-1', role: 4, location: 1 };
/** A data row: the grid's first (the app's selector in lists.bench.ts), or a table body's. */
const GRID_ROW = '.MuiDataGrid-row[data-rowindex="0"]';
const FIRST_ROW = {
  table: 'table tbody tr',
  'mui-table': 'table tbody tr',
  grid: GRID_ROW,
  'grid-fixed': GRID_ROW,
  'grid-shell': GRID_ROW,
  app: GRID_ROW,
};
const APP_LIST = '/serviceproviders';
/** Where the app's page goes between runs, so each run loads the list afresh (lists.bench.ts). */
const APP_OTHER = '/testing';

/** `window.__firstRowAt`: the page's clock when the first data row was first in the page. */
const WATCH_FIRST_ROW = (selector: string) => `(() => {
  window.__firstRowAt = null;
  new MutationObserver(() => {
    if (window.__firstRowAt === null && document.querySelector('${selector}')) window.__firstRowAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
})()`;

/** In each page of the app's signed-in context: the first row's watch. */
const SIGNED_IN_SCRIPTS = [WATCH_FIRST_ROW(GRID_ROW)];

/** The scripts the page had loaded (from the network or a cache), by path. */
const SCRIPTS_LOADED = `performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => /\\.m?js$/.test(p))`;

const TYPES = ['Health', 'Education', 'Legal', 'Livelihood'];
const TERRITORIES = ['Goma', 'Nyiragongo', 'Masisi', 'Rutshuru', 'Walikale', 'Lubero', 'Beni', 'Butembo'];
/** 25 rows shaped like the providers list's page (one line each, as the app's bench rows). */
const ROWS_JSON = JSON.stringify(
  Array.from({ length: 25 }, (_, i) => ({
    id: `row-${i + 1}`,
    name: `Provider ${i + 1}`,
    type: TYPES[i % 4],
    territory: TERRITORIES[i % 8],
    phone: `+243 97 ${String(1000000 + i * 7919).slice(0, 7)}`,
    email: `contact${i + 1}@example.org`,
    date: new Date(Date.UTC(2026, 10, 27) - i * 86_400_000).toISOString().slice(0, 10),
  })),
);

/** Builds the floor's page into a temporary folder; answers the folder. */
async function buildPage(): Promise<string> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'lists-floor-'));
  await build({
    root: SOURCES,
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  });
  return outDir;
}

/** The built page, with cache headers as the app's server gives (hashed files kept a year). */
async function servePage(root: string) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/rows.json') {
      return response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(ROWS_JSON);
    }
    const file = url.pathname === '/' ? 'index.html' : path.normalize(url.pathname).replace(/^\/+/, '');
    if (file.startsWith('..')) return response.writeHead(404).end();
    try {
      const body = await readFile(path.join(root, file));
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.css') ? 'text/css' : 'text/javascript';
      const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      response.writeHead(200, { 'content-type': type, 'cache-control': cache }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** A floor step's page in its own context. */
async function floorPage(browser: Browser, baseURL: string, step: Step): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  await context.addInitScript(WATCH_FIRST_ROW(FIRST_ROW[step]));
  return context.newPage();
}

interface Load {
  /** The first row. */
  ms: number;
  /** The floor's page only: when its rows arrived and when the step's code was evaluated. */
  marks: { answer: number; module: number } | null;
  scripts: string[];
}

/** One full page load of `address` until its first row: the page's clock, and the scripts loaded. */
async function firstRows(page: Page, address: string, selector: string): Promise<Load> {
  await page.goto(address);
  await page.locator(selector).first().waitFor({ timeout: 60_000 });
  return {
    ms: await page.evaluate<number>('window.__firstRowAt'),
    marks: await page.evaluate<Load['marks']>('window.__floor ?? null'),
    scripts: await page.evaluate<string[]>(SCRIPTS_LOADED),
  };
}

/** Gzip bytes of the scripts, read from the folder they are served from. */
async function gzipBytes(root: string, scripts: string[]): Promise<number> {
  let total = 0;
  for (const script of new Set(scripts)) total += gzipSync(await readFile(path.join(root, script))).length;
  return total;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
async function main() {
  const dist = path.resolve('dist');
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('no dist/: run `npx vite build` first');
  const built = Date.now();
  const outDir = await buildPage();
  console.log(`# lists_floor: page built in ${((Date.now() - built) / 1000).toFixed(1)} s into ${outDir}`);
  const floor = await servePage(outDir);
  const t = await startTestServer({
    backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    config: { statementTimeoutMs: 300_000 },
  });
  const browser = await launchBrowser();
  const figures = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
  const modules = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
  const answers = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
  const bytes: Partial<Record<Step, number>> = {};
  const loads: string[] = [];
  const loadBefore = loadText();
  try {
    await ensureOrganisations(t.server.db);
    const filled = await fillMainTables(t.server.db, ROWS);
    await t.createUser(USER);
    const pages: Record<Step, Page> = {} as Record<Step, Page>;
    for (const step of STEPS) {
      pages[step] =
        step === 'app' ? await signedInAfterFirstPull(browser, t.url, USER, SIGNED_IN_SCRIPTS) : await floorPage(browser, floor.url, step);
    }
    const address = (step: Step) => (step === 'app' ? APP_LIST : `/?step=${step}`);
    const measure = async (step: Step) => {
      if (step === 'app') await pages.app.goto(APP_OTHER);
      return firstRows(pages[step], address(step), FIRST_ROW[step]);
    };
    for (const step of STEPS) {
      const { scripts } = await measure(step); // warm-up, not counted: caches as a returning user's
      bytes[step] = await gzipBytes(step === 'app' ? dist : outDir, scripts);
    }
    console.log(
      `# lists_floor: headless Chromium, 1280×800, median of ${RUNS} full page loads per step, in turn; app: built dist/ with ${ROWS.toLocaleString('en')} rows per main table on ${t.backend} (${filled.toFixed(1)} s to fill); load average ${loadBefore}`,
    );
    for (let run = 0; run < RUNS; run++) {
      loads.push(loadavg()[0]?.toFixed(1) ?? '?');
      for (const step of run % 2 ? [...STEPS].reverse() : STEPS) {
        const { ms, marks } = await measure(step);
        figures[step].push(ms);
        if (marks) modules[step].push(marks.module);
        if (marks) answers[step].push(marks.answer);
      }
    }
  } finally {
    await browser.close();
    await t.close();
    floor.close();
    await rm(outDir, { recursive: true, force: true });
  }
  for (const step of STEPS) {
    console.log(`lists_floor.${step}_first_rows_ms: ${median(figures[step]).toFixed(0)} ms`);
    if (modules[step].length > 0) console.log(`lists_floor.${step}_module_ms: ${median(modules[step]).toFixed(0)} ms`);
    if (answers[step].length > 0) console.log(`lists_floor.${step}_rows_answer_ms: ${median(answers[step]).toFixed(0)} ms`);
  }
  for (const step of STEPS) console.log(`lists_floor.${step}_js_gzip_kb: ${kb(bytes[step] ?? 0)}`);
  const app = figures.app;
  const shell = figures['grid-shell'];
  const ratios = app.map((v, i) => v / (shell[i] ?? Number.NaN)).filter(Number.isFinite);
  console.log(
    `lists_floor.ratio.app_to_grid_shell: ${median(ratios).toFixed(2)}x (median of the runs' ratios; ${(median(app) / median(shell)).toFixed(2)}x of the medians)`,
  );
  const runs = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
  for (const step of STEPS) {
    console.log(`# ${step} runs: first rows ${runs(figures[step])}${modules[step].length > 0 ? `; module ${runs(modules[step])}` : ''}`);
  }
  console.log(`# load average (1 min) at each run's start: ${loads.join(' ')}; at the end ${loadText()}`);
}

await withResults('lists-floor', main);
