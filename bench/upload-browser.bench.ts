// Upload from headless Chromium (ADR-0013): `npm run build && npx tsx bench/upload-browser.bench.ts`.
// The built app on a local server (PostgreSQL with TEST_DATABASE_URL=postgres://…, else in-memory
// PGlite), the browser's own IndexedDB. Each run and mode starts from a fresh browser context:
// signed in, offline mode, BENCH_RECORDS pending records of every kind put in the store (through
// the support handle's import, as a rescued device's file would be), then one engine run in that
// mode (`window.__icrs.uploadWith`, src/features/offline/debugHandle.ts), timed in the page from
// its start to its report. Units of 12 records: job, other job, provider, service, apprenticeship,
// vocational, profile, its four sub-records and its photo; every fifth job has an image too, so
// 10% of the records carry an image of BENCH_IMAGE_KB. BENCH_LATENCY_MS adds that latency to every
// request with Chromium's network throttling (CDP Network.emulateNetworkConditions).
// Prints `upload_browser.<mode>: <median> records/s` and the batched/sequential ratio (modes
// alternating within each run). BENCH_RECORDS (default 2000), BENCH_RUNS (default 3),
// BENCH_IMAGE_KB (default 200), BENCH_LATENCY_MS (default 0), BENCH_SEQUENTIAL_RECORDS (default:
// BENCH_RECORDS; fewer keeps a slow-link run short: a rate is a rate).
// BENCH_COMPARE_DIST=path (e.g. a copy of an older `dist`): the same runs against that build too,
// served by a second server of this code, builds alternating within each run (which goes first
// alternates between runs); prints `upload_browser_compare.<mode>` and `<mode>_vs_compare`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { EntityShape } from '../schemas/define';
import { docFromRow } from '../schemas/derive/rxdb';
import { profileImage } from '../schemas/index';
import type { UploadModeOptions } from '../src/features/offline/debugHandle';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { bodyOf, pendingImageDoc, photoBody, refsTo, UNIT_RECORDS, writeUnit } from '../test/helpers/pending';
import { ensureOrganisations, PNG_1PX } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';
import { median } from './median';
import { passLockScreen, storedClients } from './signedIn';
import { withResults } from './results';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const IMAGE_KB = Number(process.env.BENCH_IMAGE_KB ?? 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const SEQUENTIAL_RECORDS = Number(process.env.BENCH_SEQUENTIAL_RECORDS ?? RECORDS);
/** The screen the page shows while it uploads (the offline home, whose live counts follow the store). */
const SCREEN = process.env.BENCH_SCREEN ?? '/offlinehp';
/** BENCH_PROFILE=path: a CPU profile of the page per mode (path-<mode>.cpuprofile, for Chromium's DevTools). */
const PROFILE = process.env.BENCH_PROFILE;
/** BENCH_MODES=batched (comma-separated): only these modes (default: sequential,batched). */
const MODES = (process.env.BENCH_MODES ?? 'sequential,batched').split(',');
/** BENCH_TIMELINE=1: prints, per run, when each kind's first and last record settled (ms from
 * the start) and the page's main-thread time in tasks and in scripts during the run (CDP
 * Performance metrics: CPU work, less swayed by the machine's load than the wall time);
 * BENCH_REQUESTS=1 with it: each request's start, first answer byte and end. */
const TIMELINE = process.env.BENCH_TIMELINE === '1';
const COMPARE_DIST = process.env.BENCH_COMPARE_DIST;
const USER = { userName: 'benchfield', password: 'bench-field-password-1', role: 3, location: 1 };

/** A PNG of about IMAGE_KB (the 1-pixel image plus filler the server stores as it is). */
const IMAGE = Buffer.concat([PNG_1PX, Buffer.alloc(IMAGE_KB * 1024, 7)]);
/** Stands for the image's base64 in the export, filled in the page (one copy crosses to it, not 200). */
const IMAGE_MARK = '@image@';

type Doc = Record<string, unknown>;

/** An `icrs-pending` export (src/lib/sync/upload/transfer.ts) of ceil(records / 12) units. */
async function pendingExport(records: number): Promise<{ json: string; records: number; images: number }> {
  const tables: Record<string, Doc[]> = {};
  const files: Doc[] = [];
  const add = (entity: EntityShape, parent?: string, extra: Doc = {}): string => {
    const body = { ...bodyOf(entity, refsTo(entity, parent)), ...extra };
    const doc = docFromRow(entity, { ...body, createdAt: new Date().toISOString() }) as Doc;
    // Server-owned fields a form fills with their default offline (a service's status).
    for (const [name, field] of Object.entries(entity.fields)) {
      const fallback = (field as { default?: unknown }).default;
      if (doc[name] === undefined && fallback !== undefined) doc[name] = fallback;
    }
    (tables[entity.table] ??= []).push({ ...doc, syncState: 'pending', syncOp: 'create' });
    return String(body[entity.keyFields[0] as string]);
  };
  const units = Math.ceil(records / UNIT_RECORDS);
  for (let i = 0; i < units; i += 1) {
    await writeUnit<string>(
      {
        record: add,
        image: (owner, key, slot) => files.push(pendingImageDoc(owner, key, slot, IMAGE, IMAGE_MARK)),
        photo: (prof) => add(profileImage, undefined, photoBody(prof, IMAGE, 'p.png', IMAGE_MARK)),
      },
      { job: i % 5 === 0 ? 1 : undefined },
    );
  }
  const json = JSON.stringify({ format: 'icrs-pending', version: 1, exportedAt: new Date().toISOString(), records: tables, files });
  return { json, records: units * UNIT_RECORDS, images: units + files.length };
}

/** The servers whose stored clients were shown once (sealed or in clear). */
const sealingShown = new Set<string>();

/** A fresh context, signed in, in offline mode, with `records` pending records in its store. */
async function preparedPage(
  browser: Browser,
  baseURL: string,
  records: number,
): Promise<{ page: Page; close: () => Promise<void>; records: number }> {
  const { context, page } = await newPage(browser, { baseURL, lang: 'en' });
  await context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  await signIn(page, USER.userName, USER.password);
  const offline = page.getByRole('switch', { name: 'Offline mode' });
  await passLockScreen(page, USER.password, offline); // the page reloads after a sign-in and the vault reopens
  await offline.check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
  if (SCREEN !== '/offlinehp') {
    await page.evaluate((path) => {
      history.pushState({}, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, SCREEN);
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
  }
  const pending = await pendingExport(records);
  const imported = await page.evaluate(
    async ({ json, mark, image }) => {
      const handle = window.__icrs;
      if (!handle) throw new Error('no support handle');
      await handle.importPending(json.replaceAll(JSON.stringify(mark), JSON.stringify(image)));
      return handle.countPending();
    },
    { json: pending.json, mark: IMAGE_MARK, image: IMAGE.toString('base64') },
  );
  if (imported !== pending.records) throw new Error(`${imported} of ${pending.records} records imported`);
  if (!sealingShown.has(baseURL)) {
    sealingShown.add(baseURL);
    const stored = await storedClients(page);
    console.log(`# ${baseURL}: clients in IndexedDB after the import: ${stored.sealed} sealed, ${stored.clear} with a last name in clear`);
  }
  if (LATENCY_MS > 0) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  return { page, close: () => context.close(), records: pending.records };
}

/** CPU time (ms, user + system) of the PostgreSQL backends serving `database` (Linux /proc; 0 elsewhere). */
function postgresCpuMs(database: string): number {
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return 0;
  }
  return ticks * 10; // USER_HZ = 100
}

/** One engine run in the page: records per second, from its start to its report. With
 * BENCH_TIMELINE, also the CPU time of this process (the server; the bench itself waits) and of
 * the database's backends during the run: CPU work, less swayed by the machine's load. */
async function uploadRate(page: Page, records: number, options: UploadModeOptions, database = ''): Promise<number> {
  const cpuBefore = process.cpuUsage();
  const pgBefore = TIMELINE && database ? postgresCpuMs(database) : 0;
  const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
  const metricsCdp = TIMELINE ? await page.context().newCDPSession(page) : undefined;
  const metrics = async () => {
    if (!metricsCdp) return {};
    const { metrics: list } = await metricsCdp.send('Performance.getMetrics');
    return Object.fromEntries(list.map((m) => [m.name, m.value]));
  };
  await metricsCdp?.send('Performance.enable');
  const before = await metrics();
  // tsx keeps function names with a helper `__name` the page does not have.
  await page.evaluate('window.__name = (f) => f');
  const { ms, uploaded, timeline, requests } = await page.evaluate(
    async ({ modeOptions, timeline }) => {
      const handle = window.__icrs;
      if (!handle) throw new Error('no support handle');
      const started = performance.now();
      // Per kind: ms from the start to its first and its last settled record.
      const kinds: Record<string, [number, number, number]> = {};
      const onProgress: NonNullable<UploadModeOptions['onProgress']> = (report) => {
        const now = Math.round(performance.now() - started);
        for (const k of report.kinds) {
          const done = k.success + k.failed + k.skipped;
          if (done === 0) continue;
          const seen = (kinds[k.table] ??= [now, now, done]);
          if (done !== seen[2]) [seen[1], seen[2]] = [now, done];
        }
      };
      performance.setResourceTimingBufferSize(10000);
      performance.clearResourceTimings();
      performance.clearMeasures();
      const report = await handle.uploadWith({ ...modeOptions, ...(timeline ? { onProgress } : {}) });
      // Each request of the run: when it left, when its answer began (the server's time and the
      // upload in between) and when it ended, in ms from the start.
      const at = (t: number) => Math.round(t - started);
      const requests = performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        return `${new URL(r.name).pathname.replace('/api/sync/push/', 'push ')} ${at(r.startTime)}/${at(r.responseStart)}/${at(r.responseEnd)}`;
      });
      requests.push(...performance.getEntriesByType('measure').map((m) => `${m.name} ${at(m.startTime)}+${Math.round(m.duration)}`));
      return { ms: performance.now() - started, uploaded: report.uploaded, timeline: kinds, requests };
    },
    { modeOptions: options, timeline: TIMELINE },
  );
  const after = await metrics();
  const cpu = process.cpuUsage(cpuBefore);
  if (TIMELINE)
    console.log(
      `# server process CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms${database ? `, PostgreSQL backends CPU ${postgresCpuMs(database) - pgBefore} ms` : ''}`,
    );
  const busy = (name: string) => Math.round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000);
  if (TIMELINE)
    console.log(
      `# page main thread: tasks ${busy('TaskDuration')} ms, scripts ${busy('ScriptDuration')} ms, layout+style ${busy('LayoutDuration') + busy('RecalcStyleDuration')} ms`,
    );
  if (TIMELINE && process.env.BENCH_REQUESTS === '1') console.log(`# requests (start/answer/end ms): ${requests.join(', ')}`);
  if (TIMELINE)
    console.log(
      `# timeline ${options.sequential ? 'sequential' : 'batched'} (${Math.round(ms)} ms): ${Object.entries(timeline)
        .map(([t, [a, b]]) => `${t} ${a}-${b}`)
        .join(', ')}`,
    );
  if (cdp)
    writeFileSync(
      `${PROFILE}-${options.sequential ? 'sequential' : 'batched'}.cpuprofile`,
      JSON.stringify((await cdp.send('Profiler.stop')).profile),
    );
  if (uploaded !== records) throw new Error(`${JSON.stringify(options)}: ${uploaded} of ${records} uploaded`);
  return records / (ms / 1000);
}

async function main() {
  const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const builds: { name: string; dist?: string }[] = [{ name: '' }, ...(COMPARE_DIST ? [{ name: '_compare', dist: COMPARE_DIST }] : [])];
  const [browser, ...servers] = await Promise.all([
    launchBrowser(),
    ...builds.map(({ dist }) => startTestServer({ backend, ...(dist ? { config: { staticDir: dist } } : {}) })),
  ]);
  for (const t of servers) {
    await ensureOrganisations(t.server.db);
    await t.createUser(USER);
  }
  const allModes: Record<string, UploadModeOptions & { records: number }> = {
    sequential: { sequential: true, records: SEQUENTIAL_RECORDS },
    batched: { records: RECORDS },
  };
  const modes = Object.fromEntries(Object.entries(allModes).filter(([mode]) => MODES.includes(mode)));
  const rates: Record<string, number[]> = {};
  const sizes: Record<string, number> = {};
  console.log(
    `# load at the start ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const [mode, { records, ...options }] of Object.entries(modes)) {
        // alternate, so drift hits both alike
        const order = builds.map((build, i) => ({ build, t: servers[i] as Awaited<ReturnType<typeof startTestServer>> }));
        if (run % 2 === 1) order.reverse();
        for (const { build, t } of order) {
          if (builds.length > 1) console.log(`# run ${run + 1} ${mode}${build.name || ' (this build)'}`);
          const prepared = await preparedPage(browser, t.url, records);
          sizes[mode] = prepared.records;
          (rates[`${mode}${build.name}`] ??= []).push(
            await uploadRate(
              prepared.page,
              prepared.records,
              options,
              t.config.databaseUrl ? new URL(t.config.databaseUrl).pathname.slice(1) : '',
            ),
          );
          await prepared.close();
        }
      }
    }
  } finally {
    await browser.close();
    for (const t of servers) await t.close();
  }
  const label = `upload_browser${LATENCY_MS ? `_latency${LATENCY_MS}ms` : ''}`;
  console.log(
    `# ${label}: load at the end ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `# ${label}: headless Chromium (IndexedDB), ${backend}, 10% of records with an image of ${IMAGE.length} bytes, median of ${RUNS} runs; records per mode: ${JSON.stringify(sizes)}${COMPARE_DIST ? `; compared with the build in ${COMPARE_DIST}` : ''}`,
  );
  for (const { name } of builds) {
    const of = (mode: string) => rates[`${mode}${name}`] ?? [];
    for (const mode of Object.keys(modes))
      console.log(
        `${label}${name}.${mode}: ${median(of(mode)).toFixed(1)} records/s  (${of(mode)
          .map((r) => r.toFixed(1))
          .join(', ')})`,
      );
    if (of('batched').length && of('sequential').length)
      console.log(`${label}${name}.batched_vs_sequential: ${(median(of('batched')) / median(of('sequential'))).toFixed(2)} x`);
  }
  if (COMPARE_DIST) {
    for (const mode of Object.keys(modes)) {
      const pairs = (rates[mode] ?? []).map((rate, i) => rate / ((rates[`${mode}_compare`] ?? [])[i] ?? NaN));
      console.log(`${label}.${mode}_vs_compare: ${median(pairs).toFixed(2)} x  (per run: ${pairs.map((r) => r.toFixed(2)).join(', ')})`);
    }
  }
}

if (process.env.VITEST) {
  // `vitest bench` collects every *.bench.ts; this one is a script with its own timing.
  const { bench } = await import('vitest');
  bench.skip('upload_browser: run `npm run build && npx tsx bench/upload-browser.bench.ts`', () => undefined);
} else {
  await withResults(`upload-browser${LATENCY_MS ? `-latency${LATENCY_MS}ms` : ''}`, main);
}
