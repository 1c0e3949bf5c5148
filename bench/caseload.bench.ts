// The field worker's caseload on a phone (docs/performance.md "The caseload at 4×"): an
// organisation of BENCH_CLIENTS clients (default 12,000), each with its sub-records (skills,
// social, security, business start, a photo's row; bench/scale/firstPull.ts, built in SQL), and a
// role-3 worker assigned BENCH_CASELOAD of them (default 2,000). Two builds, each its own server
// process (its tree's server/main.ts) on its own PostgreSQL database holding the same data,
// serving its own dist/: this tree and BENCH_BASE_DIR (default /work/wt-base38: `git worktree add
// /work/wt-base38 aee0ca0`, the last commit before the caseload, node_modules linked, `npx vite
// build` there). The base build's device mirrors the newest 5,000 rows of each table of the
// organisation (its window); this one the caseload. Prints:
// - caseload.*: the first sign-in on a fresh device at BENCH_CPU× (default 4), the two builds in
//   turn, BENCH_RUNS each (default 3), the order alternating (bench/first-signin.bench.ts
//   firstSignIn, landing on the client list): mirror_complete_ms (click on Login until every
//   mirrored table's IndexedDB store holds what the feed gives the user), rows_per_s (those rows
//   ÷ that time), longest_task_pull_ms (the longest main-thread task from the first pull request
//   until complete; aim ≤ 100 ms), first_rows_ms (the client list's first row, from the click,
//   while it fills; aim ≤ 5 s); the medians and the median of the runs' ratios (this ÷ base);
// - caseload.size.*: the server's figures for the worker (GET /api/caseload: clients, rows, MB)
//   beside the device's navigator.storage.estimate() after this build's fill (IndexedDB's part
//   where the browser says it), and their ratio;
// - BENCH_PROFILE=1: one more fill of this build, not counted, with its CPU profile;
// - BENCH_LANDING=<path>: the page the sign-in lands on (default /profiles, the client list,
//   which draws the clients as they come; /help draws nothing of the store: the fill alone);
// - caseload.offline.*: the offline client list of this build with the caseload on the device,
//   at BENCH_CPU× (bench/offline-clients.bench.ts: first rows on a full load, in-app, sort,
//   search; median of BENCH_OFFLINE_RUNS, default 5). Aim ≤ 1 s for first rows and search.
//   Each run measures a wide screen's data grid (1280×720) and a phone's list (412×915, no sort:
//   its first column is the full name) on the same device, in turn: caseload.offline.* and
//   caseload.offline.phone.* (BENCH_OFFLINE_LAYOUTS=phone: the phone's alone).
//   BENCH_SERVICE_WORKER=1: the pages served by the app's service worker.
//   BENCH_OFFLINE_COMPARE_DIST=<dir>: another build of the app (e.g. main's dist/ copied) served by
//   a second server process of this tree on the same database, in its own browser context (its
//   own store, filled by its own first pull), measured in turn with this one, the order
//   alternating: its figures as caseload.offline.compared.*, and the medians of the runs' ratios.
//   With BENCH_PROFILE=1, one more run of each build, not counted, with a CPU profile per phase.
//   BENCH_TIMELINE=1: one full load per layout first, with the page's marks, requests and
//   decryptions (before the first row, and in all); with BENCH_TRACE=1 (or =phone, =desktop)
//   two more loads under Chromium's tracing, up to the first row: the main thread's self time per
//   trace event, then (the sampler on, which slows the load) its JavaScript per script and per
//   function; BENCH_TRACE_FROM=frame: from the first contentful paint (the frame) only.
//
//   npx vite build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/caseload.bench.ts
//   BENCH_ONLY=offline BENCH_OFFLINE_COMPARE_DIST=/tmp/main-dist TEST_DATABASE_URL=… npx tsx bench/caseload.bench.ts
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';

import { launchBrowser } from '../test/helpers/browser';
import { feedCounts, firstSignIn, MIRRORED, PASSWORD, type Build, type Run } from './first-signin.bench';
import { median, pairedRatio } from './median';
import {
  FIGURES as OFFLINE_FIGURES,
  LAYOUTS as OFFLINE_LAYOUTS,
  NEEDLE,
  noFigures,
  offlineHome,
  oneRun,
  phaseProfiler,
  prepared,
  printPhaseProfiles,
  report as offlineReport,
  type Build as OfflineBuild,
} from './offline-clients.bench';
import { buildNationalData, type NationalData } from './scale/firstPull';
import { ADMIN_PASSWORD, api, login, spawnOnFreshDatabase, spawnServer } from './scale/served';
import { loadText, withResults } from './results';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const BASE_DIR = process.env.BENCH_BASE_DIR ?? '/work/wt-base38';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OFFLINE_RUNS = Number(process.env.BENCH_OFFLINE_RUNS ?? 5);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const CASELOAD = Number(process.env.BENCH_CASELOAD ?? 2000);
const DATA: NationalData = {
  clients: Number(process.env.BENCH_CLIENTS ?? 12_000),
  organisations: 1,
  organisation: 2,
  ownClients: Number(process.env.BENCH_CLIENTS ?? 12_000),
};
const WORKER = { userName: 'caseworker', password: PASSWORD };
/** BENCH_SERVICE_WORKER=1: the offline list's pages served by the app's service worker, as an
 * installed app's are (its scripts then compiled ahead by the browser); else from the server. */
const SERVICE_WORKER = process.env.BENCH_SERVICE_WORKER === '1';
/** BENCH_OFFLINE_LAYOUTS: the offline list's layouts measured (default both: desktop,phone). */
const OFFLINE_LAYOUT_NAMES: readonly string[] = (process.env.BENCH_OFFLINE_LAYOUTS ?? 'desktop,phone').split(',');
/** BENCH_ONLY=fill|offline: one part of the bench. */
const ONLY = process.env.BENCH_ONLY;
/** BENCH_LANDING: the page the sign-in lands on (see above). */
const LANDING = process.env.BENCH_LANDING ?? '/profiles';
/** Another build whose offline list is measured in turn with this one's. */
const OFFLINE_COMPARE_DIST = process.env.BENCH_OFFLINE_COMPARE_DIST;
const WITH_BASE = ONLY !== 'offline' && RUNS !== 0;
/** The databases' names start with BENCH_DB (default icrs_bench_caseload); the servers listen
 * from BENCH_PORT (default 18401): two runs of the bench side by side need their own. */
const DB_PREFIX = process.env.BENCH_DB ?? 'icrs_bench_caseload';
const PORT = Number(process.env.BENCH_PORT ?? 18_401);

if (!ADMIN_URL) throw new Error('set TEST_DATABASE_URL (a PostgreSQL server where the user may create databases)');
if (WITH_BASE && !existsSync(path.join(BASE_DIR, 'dist/index.html')))
  throw new Error(`no built tree to compare with at ${BASE_DIR} (BENCH_BASE_DIR)`);
if (!existsSync('dist/index.html')) throw new Error('build this tree first (npx vite build)');
if (OFFLINE_COMPARE_DIST && !existsSync(path.join(OFFLINE_COMPARE_DIST, 'index.html')))
  throw new Error(`no build at ${OFFLINE_COMPARE_DIST} (BENCH_OFFLINE_COMPARE_DIST)`);

interface Served extends Build {
  token: string;
  dbUrl: string;
  kill(): void;
}

/** The clients' names as bench/offline-clients.bench.ts searches and sorts them: client i's
 * first name 'F' and (7i mod CASELOAD) (a permutation within the caseload, 'F00000' first), one
 * client in 50 named NEEDLE. The first CASELOAD clients assigned to the worker where the tree
 * has assignments. Triggers off: bookkeeping of the bench, not writes. */
async function shape(dbUrl: string, workerId: string): Promise<void> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await db.query('SET session_replication_role = replica');
    const { rows } = await db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'tbl_profiles' AND column_name = 'assignedTo'`,
    );
    const n = `right("prof_Id", 12)::int`;
    await db.query(
      `UPDATE "tbl_profiles" SET "firstName" = 'F' || lpad(((${n} * 7) % $1::int)::text, 5, '0'),
         "lastName" = CASE WHEN ${n} % 50 = 0 THEN '${NEEDLE}' ELSE 'Kahindo' || (${n} % 997) END
         ${rows.length ? `, "assignedTo" = CASE WHEN ${n} <= $1::int THEN $2 ELSE NULL END` : ''}`,
      rows.length ? [CASELOAD, workerId] : [CASELOAD],
    );
    await db.query('SET session_replication_role = origin');
    await db.query('VACUUM ANALYZE "tbl_profiles"');
  } finally {
    await db.end();
  }
}

async function serve(name: string, dir: string, port: number): Promise<Served> {
  const { dbUrl, url, child } = await spawnOnFreshDatabase(ADMIN_URL as string, `${DB_PREFIX}_${name}`, {
    name: `caseload-${name}`,
    dir,
    port,
    staticDir: path.join(dir, 'dist'),
  });
  const started = performance.now();
  await buildNationalData(dbUrl, DATA);
  const admin = await login(url, 'admin', ADMIN_PASSWORD);
  const created = await api(
    url,
    'POST',
    '/users/',
    { ...WORKER, role: 3, location: DATA.organisation, fullName: 'Caseload Worker' },
    admin,
  );
  const workerId = ((created.result ?? created) as { userId?: string }).userId ?? '';
  if (!workerId) throw new Error(`${name}: no userId in ${JSON.stringify(created)}`);
  await shape(dbUrl, workerId);
  const token = await login(url, WORKER.userName, WORKER.password);
  const expected = await feedCounts(url, token);
  const rows = [...expected.values()].reduce((a, b) => a + b, 0);
  console.log(
    `# ${name}: ${DATA.clients.toLocaleString('en')} clients with their sub-records built in ${((performance.now() - started) / 1000).toFixed(1)} s; the worker's feed: ${rows.toLocaleString('en')} rows (${[...expected].map(([t, c]) => `${t} ${c}`).join(', ')})`,
  );
  // SIGINT: a stop without SIGTERM's drain for a balancer (server/serve.ts), which kept the bench
  // waiting after its end.
  return { name, url, expected, runs: [], token, dbUrl, kill: () => child.kill('SIGINT') };
}

const rowsOf = (build: Build) => [...build.expected.values()].reduce((a, b) => a + b, 0);
const perSecond = (build: Build) => (run: Run) => rowsOf(build) / (run.mirrorMs / 1000);

const FILL: { key: string; unit: string; aim?: string; of: (build: Build) => (r: Run) => number }[] = [
  { key: 'mirror_complete_ms', unit: 'ms', aim: '≤ 30000', of: () => (r) => r.mirrorMs },
  { key: 'rows_per_s', unit: 'rows/s', of: perSecond },
  { key: 'longest_task_pull_ms', unit: 'ms', aim: '≤ 100', of: () => (r) => r.tasksPull.longest },
  { key: 'long_tasks_pull', unit: 'tasks', of: () => (r) => r.tasksPull.count },
  { key: 'first_rows_ms', unit: 'ms', aim: '≤ 5000', of: () => (r) => r.firstRowsMs },
];

interface Storage {
  usage: number;
  indexedDB: number | null;
}

async function storageOf(page: Page): Promise<Storage> {
  return page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
    return { usage: estimate.usage ?? 0, indexedDB: estimate.usageDetails?.indexedDB ?? null };
  });
}

const TRACED = ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'v8'];
/** The JavaScript sampler's category: its start alone takes seconds of a load at 4×. */
const SAMPLED = 'disabled-by-default-v8.cpu_profiler';

/** BENCH_TRACE (with BENCH_TIMELINE): a full load from the offline home under Chromium's tracing,
 * until the first row; its events and the first row's time in the page's clock. */
async function tracedLoad(
  build: OfflineBuild,
  categories: string[],
): Promise<{ events: TraceEvent[]; firstRowAt: number; fromAt: number }> {
  const { page, password } = build;
  const browser = page.context().browser();
  if (!browser) throw new Error('BENCH_TRACE: the page has no browser to trace');
  await offlineHome(page, password);
  await browser.startTracing(page, { categories });
  await page.goto('/profiles');
  await page.locator(OFFLINE_LAYOUTS[build.layout].firstRow).waitFor({ timeout: 120_000 });
  const firstRowAt = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
  const fromAt = TRACE_FROM_FRAME
    ? await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0)
    : 0;
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  return { events: traceEvents, firstRowAt, fromAt };
}

/** BENCH_TRACE_FROM=frame: the breakdown covers the first contentful paint (the frame) to the
 * first row only: what the list's own drawing costs after the frame's. */
const TRACE_FROM_FRAME = process.env.BENCH_TRACE_FROM === 'frame';

/** Where a full load's main thread spends its time up to the first row (what a CPU profile's
 * "(program)" hides): self time per trace event, from a load traced without the sampler; then
 * JavaScript per script and function, from a load with it. */
async function tracedBreakdown(build: OfflineBuild): Promise<string[]> {
  const plain = await tracedLoad(build, TRACED);
  const sampled = await tracedLoad(build, [...TRACED, SAMPLED]);
  const thread = mainThread(sampled.events);
  return [
    ...eventSelfTimes(plain.events, plain.fromAt, plain.firstRowAt),
    `sampled load: first row at ${sampled.firstRowAt.toFixed(0)} ms, from ${sampled.fromAt.toFixed(0)} ms`,
    ...(thread
      ? sampledSelfTimes(sampled.events, thread.main, thread.start + sampled.fromAt * 1000, thread.start + sampled.firstRowAt * 1000)
      : []),
  ];
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: TraceData };
}

interface TraceData {
  url?: string;
  startTime?: number;
  cpuProfile?: { nodes?: { id: number; parent?: number; callFrame: { functionName: string; url: string } }[]; samples?: number[] };
  timeDeltas?: number[];
}

/** The JavaScript samples of the main thread's profile (its ProfileChunk events) from `from` to
 * `to` (the trace's clock, µs): self time per script and per function. */
function sampledSelfTimes(events: TraceEvent[], thread: { pid: number; tid: number }, from: number, to: number): string[] {
  // The thread may have several profiles (one per document the sampler saw).
  const profiles = events.filter((e) => e.name === 'Profile' && e.pid === thread.pid && e.tid === thread.tid && e.args?.data?.startTime);
  if (!profiles.length) return ['(no CPU profile in the trace)'];
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const profile of profiles) {
    const frames = new Map<number, { functionName: string; url: string }>();
    let at = profile.args?.data?.startTime ?? 0;
    for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.id === profile.id)) {
      for (const node of chunk.args?.data?.cpuProfile?.nodes ?? []) frames.set(node.id, node.callFrame);
      const samples = chunk.args?.data?.cpuProfile?.samples ?? [];
      const deltas = chunk.args?.data?.timeDeltas ?? [];
      samples.forEach((id, i) => {
        const delta = deltas[i] ?? 0;
        at += delta;
        if (at < from || at > to) return;
        const frame = frames.get(id);
        if (!frame) return;
        const script = (frame.url ?? '').split('/').pop() || `(${frame.functionName})`;
        byScript.set(script, (byScript.get(script) ?? 0) + delta);
        const fn = `${frame.functionName || '(anonymous)'} ${script}`;
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
      });
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms ${k}`);
  return ['samples by script:', ...top(byScript, 20), 'samples by function:', ...top(byFunction, 25)];
}

/** The traced page's main thread, and its navigation's start (the trace's clock, µs). */
function mainThread(events: TraceEvent[]): { main: TraceEvent; start: number } | undefined {
  const main = events.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((n) => n.pid === e.pid && n.name === 'ParseHTML'),
  );
  const start = events.find((e) => e.name === 'navigationStart' && e.pid === main?.pid) ?? events.find((e) => e.name === 'ParseHTML');
  return main && start ? { main, start: start.ts } : undefined;
}

/** The main thread's self time per trace event from `fromMs` to `untilMs` after the navigation. */
function eventSelfTimes(events: TraceEvent[], fromMs: number, untilMs: number): string[] {
  const thread = mainThread(events);
  if (!thread) return ['(no main thread in the trace)'];
  const { main, start } = thread;
  const end = start + untilMs * 1000;
  const complete = events
    .filter(
      (e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined && e.ts >= start + fromMs * 1000 && e.ts < end,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { event: TraceEvent; children: number }[] = [];
  const endOf = (event: TraceEvent) => event.ts + (event.dur ?? 0);
  const close = (upTo: number) => {
    for (let open = stack.at(-1); open && endOf(open.event) <= upTo; open = stack.at(-1)) {
      stack.pop();
      const { event, children } = open;
      const script = event.name === 'EvaluateScript' || event.name === 'v8.compile';
      const key = script ? `${event.name} ${event.args?.data?.url?.split('/').pop() ?? ''}` : event.name;
      self.set(key, (self.get(key) ?? 0) + (event.dur ?? 0) - children);
    }
  };
  let busy = 0;
  for (const event of complete) {
    close(event.ts);
    const parent = stack.at(-1);
    if (parent) parent.children += event.dur ?? 0;
    else busy += event.dur ?? 0;
    stack.push({ event, children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  return [
    `main thread busy ${(busy / 1000).toFixed(0)} ms of ${(untilMs - fromMs).toFixed(0)} ms from ${fromMs.toFixed(0)} ms to the first row`,
    ...top.map(([name, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms ${name}`),
  ];
}

/** The page's decryptions (WebCrypto's), and how many of them came before the first row. */
const COUNT_DECRYPTIONS = `(() => {
  window.__decryptions = [0, 0];
  const decrypt = SubtleCrypto.prototype.decrypt;
  SubtleCrypto.prototype.decrypt = function (...args) {
    window.__decryptions[0] += 1;
    if (!window.__firstRowAt) window.__decryptions[1] += 1;
    return decrypt.apply(this, args);
  };
})()`;

/** BENCH_TIMELINE=1: where a full load of the offline list spends its time until the first row,
 * in the page's clock: the app's performance marks and the requests, beside the first row. */
async function printTimeline(build: OfflineBuild): Promise<void> {
  const { page } = build;
  await page.setViewportSize(OFFLINE_LAYOUTS[build.layout].viewport);
  await page.addInitScript(COUNT_DECRYPTIONS);
  await offlineHome(page, build.password);
  await page.goto('/profiles');
  await page.locator(OFFLINE_LAYOUTS[build.layout].firstRow).waitFor({ timeout: 120_000 });
  const entries = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const marks = performance.getEntriesByType('mark').map((m) => `${m.name} ${m.startTime.toFixed(0)}`);
    const requests = performance
      .getEntriesByType('resource')
      .map((r) => r as PerformanceResourceTiming)
      .map((r) => `${new URL(r.name).pathname} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)}`);
    const paints = performance.getEntriesByType('paint').map((p) => `${p.name} ${p.startTime.toFixed(0)}`);
    const w = window as unknown as { __firstRowAt: number; __frameAt: number };
    return {
      nav: nav ? `domInteractive ${nav.domInteractive.toFixed(0)}, domContentLoaded ${nav.domContentLoadedEventEnd.toFixed(0)}` : '',
      marks,
      requests,
      paints,
      firstRow: w.__firstRowAt,
      decryptions: (window as unknown as { __decryptions: number[] }).__decryptions,
      frame: w.__frameAt,
      controlled: Boolean(navigator.serviceWorker?.controller),
    };
  });
  console.log(
    `# timeline ${build.name} (${build.layout}): first row ${entries.firstRow?.toFixed(0)} ms, frame ${entries.frame?.toFixed(0)} ms; ${entries.nav}; served by the service worker: ${entries.controlled}; decryptions ${entries.decryptions?.[1]} before the first row, ${entries.decryptions?.[0]} in all`,
  );
  console.log(`#   marks: ${entries.marks.join(', ')}; paints: ${entries.paints.join(', ')}`);
  console.log(`#   requests: ${entries.requests.join(', ')}`);
  if (process.env.BENCH_TRACE === '1' || process.env.BENCH_TRACE === build.layout)
    for (const line of await tracedBreakdown(build)) console.log(`#   trace: ${line}`);
}

async function main() {
  const ours = await serve('this', process.cwd(), PORT);
  const base = WITH_BASE ? await serve('base', BASE_DIR, PORT + 1) : undefined;
  // The other build's files, served by this tree's server on the same database.
  const compared = OFFLINE_COMPARE_DIST
    ? await spawnServer('caseload-compared', process.cwd(), PORT + 2, ours.dbUrl, path.resolve(OFFLINE_COMPARE_DIST))
    : undefined;
  const browser = await launchBrowser();
  try {
    console.log(
      `# caseload: headless Chromium ${browser.version()}, built apps, PostgreSQL, ${DATA.clients.toLocaleString('en')} clients of organisation ${DATA.organisation}, ${CASELOAD.toLocaleString('en')} assigned to a role-3 worker; CPU ${CPU}× slower; base ${BASE_DIR}; load ${loadText()}`,
    );
    const storage: Storage[] = [];
    if (base) {
      const builds = [ours, base];
      for (let run = 0; run < RUNS; run++) {
        for (const build of run % 2 ? [...builds].reverse() : builds) {
          const result = await firstSignIn(browser, build, WORKER.userName, {
            landing: LANDING,
            taps: 0, // the tasks counted are the fill's and the list's, not a drawer's
            afterFill: build === ours ? async (page) => void storage.push(await storageOf(page)) : undefined,
          });
          build.runs.push(result);
          console.log(
            `# run ${run + 1} ${build.name}: mirror ${result.mirrorMs.toFixed(0)} ms (${perSecond(build)(result).toFixed(0)} rows/s), the first pull request at ${result.firstPullMs.toFixed(0)} ms; from it: longest task ${result.tasksPull.longest.toFixed(0)} ms, ${result.tasksPull.count} over 50 ms; first rows ${result.firstRowsMs.toFixed(0)} ms; load ${loadText()}`,
          );
        }
      }
      const runs = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
      for (const build of builds) {
        const prefix = build === ours ? 'caseload.' : 'caseload.base.';
        console.log(`${prefix}rows: ${rowsOf(build)}`);
        for (const f of FILL) {
          const values = build.runs.map(f.of(build)).filter(Number.isFinite);
          console.log(
            `${prefix}${f.key}: ${values.length ? median(values).toFixed(0) : 'n/a'} ${f.unit}  (runs: ${runs(values)})${f.aim && build === ours ? `; aim ${f.aim} ${f.unit}` : ''}`,
          );
        }
      }
      for (const f of FILL)
        console.log(`caseload.${f.key}_vs_base: ${pairedRatio(ours.runs.map(f.of(ours)), base.runs.map(f.of(base)))} x`);
      const mine = ours.runs.map(perSecond(ours));
      console.log(
        `# rows/s of this build against the base's, per run: ${mine.map((v, i) => (v / perSecond(base)(base.runs[i] as Run)).toFixed(2)).join(' ')} (aim ≥ 2); load ${loadText()}`,
      );
    }
    if (process.env.BENCH_PROFILE && ONLY !== 'offline') {
      // Where the fill's time goes: bench/first-signin.bench.ts's CPU profile and longest tasks.
      console.log('# profile: one more first sign-in of this build (not counted above)');
      await firstSignIn(browser, ours, WORKER.userName, { landing: LANDING, profile: true, taps: 0 });
    }
    // The server's size figures for the worker against the device's storage after the fill.
    const size = (await api(ours.url, 'GET', '/caseload', undefined, ours.token)) as {
      figures: { clients: number; rows: number; megabytes: number };
    };
    console.log(
      `caseload.size.server: ${size.figures.clients} clients, ${size.figures.rows} rows, ${size.figures.megabytes} MB (GET /api/caseload)`,
    );
    if (storage.length) {
      const usage = median(storage.map((s) => s.usage)) / 1e6;
      const idb = storage.every((s) => s.indexedDB !== null) ? median(storage.map((s) => s.indexedDB as number)) / 1e6 : null;
      console.log(
        `caseload.size.device: ${usage.toFixed(1)} MB storage.estimate().usage${idb === null ? '' : `, ${idb.toFixed(1)} MB of it IndexedDB`} (median of ${storage.length} fills)`,
      );
      console.log(
        `caseload.size.estimate_vs_device: ${(size.figures.megabytes / (idb ?? usage)).toFixed(2)} x (the server's MB ÷ the device's)`,
      );
    }
    if (ONLY !== 'fill') {
      const prepare = (name: string, url: string) =>
        prepared(browser, name, url, { user: WORKER, clients: CASELOAD, cpu: CPU, serviceWorker: SERVICE_WORKER });
      const desktop: OfflineBuild[] = [await prepare('this', ours.url)];
      if (compared) desktop.push(await prepare('compared', compared.url));
      // The same devices drawn as a phone draws them (ADR-0024): the light list, not the grid.
      const phone = desktop.map((build): OfflineBuild => ({ ...build, layout: 'phone', figures: noFigures() }));
      const layouts = (
        [
          [desktop, 'caseload.offline.'],
          [phone, 'caseload.offline.phone.'],
        ] as const
      ).filter(([[build]]) => OFFLINE_LAYOUT_NAMES.includes(build?.layout ?? ''));
      const measured = layouts.flatMap(([builds]) => builds);
      console.log(`# offline list at ${CPU}×, ${CASELOAD} caseload clients on the device; load ${loadText()}`);
      if (process.env.BENCH_TIMELINE) for (const build of measured) await printTimeline(build);
      for (let run = 0; run < OFFLINE_RUNS; run++) {
        for (const [offline] of layouts) for (const build of run % 2 ? [...offline].reverse() : offline) await oneRun(build);
        console.log(`# offline run ${run + 1} done; load ${loadText()}`);
      }
      for (const [offline, prefix] of layouts) {
        const [mine, other] = offline as [OfflineBuild, OfflineBuild | undefined];
        offlineReport(mine, prefix);
        if (!other) continue;
        offlineReport(other, `${prefix}compared.`);
        for (const [key, name] of OFFLINE_FIGURES)
          if (mine.figures[key].length)
            console.log(
              `${prefix}ratio.${name}: ${pairedRatio(mine.figures[key], other.figures[key])}x  (this/compared, median of ${OFFLINE_RUNS} pairs)`,
            );
      }
      if (process.env.BENCH_PROFILE) {
        for (const build of measured) {
          const profiler = phaseProfiler(build.page);
          await oneRun({ ...build, figures: noFigures() }, profiler);
          printPhaseProfiles(profiler, `${build.name} (${build.layout})`);
        }
      }
    }
    console.log(
      `# rows mirrored per table (this build's last run): ${MIRRORED.map((e) => `${e.table} ${ours.runs.at(-1)?.counts.get(e.table) ?? '-'}`).join(', ')}`,
    );
  } finally {
    await browser.close();
    ours.kill();
    base?.kill();
    compared?.child.kill('SIGINT');
  }
}

if (process.env.VITEST) {
  const { bench } = await import('vitest');
  bench.skip('caseload: run `npx tsx bench/caseload.bench.ts`', () => undefined);
} else {
  // One part alone keeps its own results file (docs/performance.md "Results as data").
  await withResults(ONLY ? `caseload-${ONLY}` : 'caseload', main);
  // The bench is over once its results are written; a handle something left open (seen: the
  // process staying alive with its servers and browser gone) is named, not waited for.
  setTimeout(() => {
    console.error(`# still open after the bench: ${process.getActiveResourcesInfo().join(', ')}; exiting`);
    process.exit(process.exitCode ?? 0);
  }, 5_000).unref();
}
