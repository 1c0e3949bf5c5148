// The dashboard map with many markers in headless Chromium (ADR-0031): BENCH_MARKERS (default
// 10,000) providers and open jobs with coordinates around North Kivu; the time from opening
// the dashboard until the map is interactive (MapLibre loaded and idle, markers drawn, a
// cluster answers a query), and the frame rate while it pans and zooms. Aim: ≤ 1.5 s.
//
//   npm run build && npx tsx bench/map.bench.ts
//
// BENCH_RUNS (default 5) page loads; the median is printed. Software WebGL (SwiftShader) in
// headless Chromium draws slower than a phone's GPU: these are upper bounds.
// BENCH_DIST serves another build than dist/; BENCH_COMPARE=dir adds a second build (e.g. an old
// one copied aside) whose loads alternate with the first's, on a second server, so both are
// measured in the same minutes; BENCH_TRACE=file.json writes a Chromium trace of the last load
// of each build (file-0.json, file-1.json; open them in the browser's Performance panel).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { startTestServer, type TestServer } from '../test/helpers/server';
import { loadText, startResults } from './results';

const MARKERS = Number(process.env.BENCH_MARKERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

// Page scripts as text: tsx would add its own helpers to functions passed to the page.
const MAP = `document.querySelector('[data-testid="dashboard-map"] .maplibregl-map')?.maplibreMap`;
const LAYERS = `['icrs-point-clusters', 'icrs-point-circles', 'icrs-point-pins']`;
/** Resolves with performance.now() (ms since navigation) once the map is loaded, idle and drawing markers. */
const INTERACTIVE = `new Promise((resolve) => {
  const marks = {};
  const check = () => {
    const map = ${MAP};
    if (!marks.figures && /\\d/.test(document.querySelector('[data-testid="fetched-at"]')?.textContent ?? '')) marks.figures = performance.now();
    if (!marks.canvas && map) marks.canvas = performance.now();
    if (map && map.loaded() && !map.isMoving() && map.queryRenderedFeatures({ layers: ${LAYERS} }).length > 0) resolve({ ...marks, interactive: performance.now() });
    else requestAnimationFrame(check);
  };
  check();
})`;
/** Frames per second while the map eases to another view for one second. */
const PAN_FPS = `new Promise((resolve) => {
  const map = ${MAP};
  let count = 0;
  const start = performance.now();
  const tick = () => {
    count += 1;
    if (performance.now() - start < 1000) requestAnimationFrame(tick);
    else resolve(count / ((performance.now() - start) / 1000));
  };
  map.easeTo({ center: [29.2, -1.2], zoom: 9, duration: 1000 });
  requestAnimationFrame(tick);
})`;

const DIST = process.env.BENCH_DIST;
const COMPARE = process.env.BENCH_COMPARE;
const TRACE = process.env.BENCH_TRACE;
interface Build {
  name: string;
  t: TestServer;
  page: Page;
  context: BrowserContext;
  figures: number[];
  canvas: number[];
  interactive: number[];
  frames: number[];
}

/** A server serving `dist` (a build directory; default dist/) with the markers, and a signed-in page. */
async function serve(browser: Browser, dist: string | undefined, providers: number, jobs: number): Promise<Build> {
  const t = await startTestServer(dist ? { config: { staticDir: path.resolve(dist) } } : {});
  // Spread over North Kivu (lat -2..0.5, lng 28..29.8), every provider type.
  await t.server.db.query(
    `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "sp_Address", "territory", "lat", "lng", "createdAt", "updatedAt")
     SELECT lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000001', 'Provider ' || n, 1 + n % 4, 'Avenue ' || n, 1 + n % 8,
       -2 + (n * 7919 % 2500) / 1000.0, 28 + (n * 104729 % 1800) / 1000.0, now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [providers],
  );
  await t.server.db.query(
    `INSERT INTO "available-jobs" ("jb_Id", "title", "employer", "sector", "territory", "address", "open", "positions", "lat", "lng", "createdAt", "updatedAt")
     SELECT lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000003', 'Job ' || n, 'Employer', 1 + n % 11, 1 + n % 8, 'Rue ' || n, true, 1,
       -2 + (n * 6007 % 2500) / 1000.0, 28 + (n * 7727 % 1800) / 1000.0, now(), now()
     FROM generate_series(1, $1::int) AS n`,
    [jobs],
  );
  const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'en' });
  const own = new URL(t.url).host;
  await context.route(
    (url) => url.host !== own,
    (route) => route.abort(),
  );
  await signIn(page, t.admin.userName, t.admin.password);
  return { name: dist ?? 'dist', t, page, context, figures: [], canvas: [], interactive: [], frames: [] };
}

/** One load of the dashboard: its marks, then the frames of a pan; a trace of it when asked. */
async function measure(build: Build, trace: string | undefined): Promise<void> {
  const { page, context } = build;
  const cdp = trace ? await context.newCDPSession(page) : null;
  const traced: unknown[] = [];
  if (cdp) {
    cdp.on('Tracing.dataCollected', (event: { value: unknown[] }) => traced.push(...event.value));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,gpu,blink.user_timing',
      transferMode: 'ReportEvents',
    });
  }
  await page.goto('/');
  // Interactive: the map loaded and idle with its markers drawn, measured from navigation start.
  const marks = (await page.evaluate(INTERACTIVE)) as { figures: number; canvas: number; interactive: number };
  if (cdp && trace) {
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    await writeFile(trace, JSON.stringify({ traceEvents: traced }));
    await cdp.detach();
  }
  build.interactive.push(marks.interactive);
  build.figures.push(marks.figures);
  build.canvas.push(marks.canvas);
  // Smoothness: frames drawn during a one-second pan and zoom.
  build.frames.push((await page.evaluate(PAN_FPS)) as number);
}

const results = startResults('map');
const browser = await launchBrowser();
const builds: Build[] = [];
try {
  const jobs = Math.round(MARKERS * 0.3);
  const providers = MARKERS - jobs;
  builds.push(await serve(browser, DIST, providers, jobs));
  // BENCH_COMPARE: a second build, its loads alternating with the first's (same minutes, same load).
  if (COMPARE) builds.push(await serve(browser, COMPARE, providers, jobs));
  const loadBefore = loadText();
  for (let run = 0; run < RUNS; run++) {
    for (const build of run % 2 ? [...builds].reverse() : builds)
      await measure(build, TRACE && run === RUNS - 1 ? TRACE.replace(/(\.json)?$/, `-${builds.indexOf(build)}.json`) : undefined);
  }
  const first = builds[0] as Build;
  const geo = await first.t.api('GET', '/stats/geo', { token: await first.t.login(first.t.admin.userName, first.t.admin.password) });
  const shown = (geo.body.counts as number[]).reduce((a, b) => a + b, 0);
  console.log(
    `${shown.toLocaleString('en')} markers (${providers} providers, ${jobs} jobs), headless Chromium, median of ${RUNS} loads${COMPARE ? ' per build, alternating' : ''}`,
  );
  console.log(`  load average before / after          ${loadBefore} / ${loadText()}`);
  for (const [i, build] of builds.entries()) {
    // From the dashboard's opening; the second build's figures (BENCH_COMPARE) as map.compared.*.
    const prefix = i ? 'map.compared.' : 'map.';
    console.log(`# build ${build.name}:`);
    console.log(`${prefix}figures_shown_ms: ${median(build.figures).toFixed(0)} ms`);
    console.log(`${prefix}map_loaded_ms: ${median(build.canvas).toFixed(0)} ms`);
    console.log(
      `${prefix}map_interactive_ms: ${median(build.interactive).toFixed(0)} ms  (aim ≤ 1500 ms; runs: ${build.interactive.map((v) => v.toFixed(0)).join(', ')})`,
    );
    console.log(`${prefix}frames_per_s: ${median(build.frames).toFixed(0)} /s  (while panning and zooming)`);
  }
  if (builds.length === 2) {
    const [a, b] = builds as [Build, Build];
    const ratios = a.interactive.map((v, i) => v / (b.interactive[i] as number));
    console.log(`map.interactive_vs_compared: ${median(ratios).toFixed(2)} x  (${a.name} / ${b.name}, median of the paired ratios)`);
  }
} finally {
  for (const build of builds) await build.context.close().catch(() => undefined);
  await browser.close();
  for (const build of builds) await build.t.close();
}
results.write();
