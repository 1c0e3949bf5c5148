// Offline writes in headless Chromium (ADR-0035), the built app installed (service worker
// active) and signed in as a real user (role 4, organisation 1), offline mode on and the
// network cut (context.setOffline):
// - offline_writes.client_stored_ms: a client form filled in (identity; the optional steps
//   skipped), from the click on Save until the client is in the device's store (RxDB's insert
//   event, the page's clock); median of BENCH_RUNS (default 5); budget ≤ 50 ms;
// - offline_writes.client_page_shown_ms: from the same click until the saved client's page
//   shows it "not uploaded";
// - offline_writes.datalayer / .bare: BENCH_INSERTS (default 10,000) new providers stored
//   through the app's data layer in one call (`data.createMany`: the records prepared as `create`
//   prepares them, one bulkInsert; reached through the support handle
//   window.__icrs) and the same number of documents of the same shape with one bare RxDB
//   bulkInsert on the same collection (real IndexedDB, Dexie storage); BENCH_RUNS pairs in the
//   same page, the order alternating; medians, and the median of the pairs' ratios; budget ≥ 0.9×;
// - offline_writes.sequential_create: BENCH_SEQUENTIAL_INSERTS (default BENCH_INSERTS) providers
//   through `data.create`, one call per record as a form saves (read of the key, insert, read
//   back: three IndexedDB transactions each), once, for comparison;
// - offline_writes.datalayer_clients: BENCH_CLIENT_INSERTS (default BENCH_INSERTS) new clients
//   (profiles: sealed in the store, ADR-0020) through one `data.createMany`, once per run;
//   offline_writes.sequential_create_clients: BENCH_SEQUENTIAL_INSERTS clients through `data.create`,
//   one call per record, once.
// - BENCH_COMPARE_DIST=<dir>: another build (e.g. main before the sealed store, its dist/ copied) installed
//   from a second server in its own browser context, measured in turn with this one (the order
//   alternating from run to run): its figures as offline_writes.compared.*, and the median of
//   the pairs' ratios this/that (offline_writes.ratio.*; for a time lower is better, for a rate
//   higher is better).
// A full page load with the network cut shows the lock screen (the server cannot
// vouch for the tab): the bench types the password there, outside the timed part.
//
//   npm run build && BENCH_RUNS=3 npx tsx bench/offline-writes.bench.ts
//   npm run build && BENCH_RUNS=5 BENCH_COMPARE_DIST=/tmp/base-dist npx tsx bench/offline-writes.bench.ts
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer, type TestServer } from '../test/helpers/server';
import { median, pairedRatio } from './median';
import { passLockScreen } from './signedIn';
import { loadText, withResults } from './results';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const INSERTS = Number(process.env.BENCH_INSERTS ?? 10_000);
const CLIENT_INSERTS = Number(process.env.BENCH_CLIENT_INSERTS ?? INSERTS);
const SEQUENTIAL_INSERTS = Number(process.env.BENCH_SEQUENTIAL_INSERTS ?? INSERTS);
const USER = { userName: 'field', password: 'field-password-1', role: 4, location: 1 };

const stepTitle = (page: Page) => page.locator('#client-step-title');
/** Fills the identity step and skips or passes every later one until the review. */
async function fillClient(page: Page, run: number): Promise<void> {
  await page.goto('/profiles/add');
  const firstName = page.getByRole('textbox', { name: /^First name/ });
  await passLockScreen(page, USER.password, firstName);
  await firstName.fill(`Bench${run}`);
  await page.getByRole('textbox', { name: /^Last name/ }).fill(`Offline${run}`);
  await page.getByRole('combobox', { name: /^Sex/ }).click();
  await page.getByRole('option').filter({ hasText: 'Female' }).first().click();
  await page.getByLabel(/^Date of birth/).fill('1990-01-0' + String(1 + (run % 9)));
  await page.getByRole('combobox', { name: /^Territory/ }).click();
  await page.getByRole('option').filter({ hasText: 'Goma' }).first().click();
  await page
    .getByRole('radiogroup', { name: /agrees that their data is kept/ })
    .getByRole('radio', { name: 'Yes' })
    .check();
  for (let step = 0; step < 10; step++) {
    const title = (await stepTitle(page).textContent()) ?? '';
    if (title.startsWith('Review and save')) return;
    const skip = page.getByRole('button', { name: 'Skip this step' });
    await ((await skip.count()) ? skip : page.getByRole('button', { name: 'Next', exact: true })).click();
    await page.waitForFunction((before) => document.querySelector('#client-step-title')?.textContent !== before, title);
  }
  throw new Error('the review step was not reached');
}

// In the page: the time of the next click and of the next client stored in the device's store.
const WATCH_SAVE = `(() => {
  document.addEventListener('click', () => (window.__benchClicked = performance.now()), { capture: true, once: true });
  window.__benchStored = new Promise((resolve) => {
    const sub = window.__icrs.db.collections.tbl_profiles.$.subscribe((event) => {
      if (event.operation !== 'INSERT') return;
      sub.unsubscribe();
      resolve(performance.now());
    });
  });
})()`;

/** From the click on Save until the client is in the store (the page's clock) and until the
 * client's page shows it "not uploaded" (the bench's clock). */
async function saveClient(page: Page): Promise<{ stored: number; shown: number }> {
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.waitFor();
  await page.waitForFunction(() => Boolean(window.__icrs?.db));
  await page.evaluate(WATCH_SAVE);
  const started = performance.now();
  await save.click();
  await page.getByTestId('client-summary').getByTestId('not-uploaded').waitFor();
  const shown = performance.now() - started;
  const stored = (await page.evaluate('window.__benchStored.then((at) => at - window.__benchClicked)')) as number;
  return { stored, shown };
}

// Page scripts as text: tsx would add its own helpers to functions passed to the page.
/** Stores `count` providers through the data layer, one `create` call per record as a form
 * does; ms. */
const SEQUENTIAL_CREATE = (count: number) => `(async () => {
  const { data, entities } = window.__icrs;
  const started = performance.now();
  for (let i = 0; i < ${count}; i++) await data.create(entities.serviceProvider, { sp_Name: 'Layer ' + i, sp_type: 1, territory: 2 });
  return performance.now() - started;
})()`;
/** Stores `count` providers through the data layer with one `createMany` call; ms. */
const CREATE_MANY = (count: number) => `(async () => {
  const { data, entities } = window.__icrs;
  const records = [];
  for (let i = 0; i < ${count}; i++) records.push({ sp_Name: 'Many ' + i, sp_type: 1, territory: 2 });
  const started = performance.now();
  const results = await data.createMany(entities.serviceProvider, records);
  const ms = performance.now() - started;
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new Error(failed.length + ' createMany records failed: ' + failed[0].error.message);
  return ms;
})()`;
/** Stores `count` clients through the data layer with one `createMany` call; ms. */
const CREATE_MANY_CLIENTS = (count: number) => `(async () => {
  const { data, entities } = window.__icrs;
  const records = [];
  for (let i = 0; i < ${count}; i++) records.push({ firstName: 'Many' + i, lastName: 'Client' + i, sex: i % 2 ? 'F' : 'M', territory: 1 + (i % 8), consent: true, phone: '+24381' + String(i).padStart(7, '0') });
  const started = performance.now();
  const results = await data.createMany(entities.profile, records);
  const ms = performance.now() - started;
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new Error(failed.length + ' createMany clients failed: ' + failed[0].error.message);
  return ms;
})()`;
/** Stores `count` clients through the data layer, one `create` call per record as a form does; ms. */
const SEQUENTIAL_CREATE_CLIENTS = (count: number) => `(async () => {
  const { data, entities } = window.__icrs;
  const started = performance.now();
  for (let i = 0; i < ${count}; i++) await data.create(entities.profile, { firstName: 'One' + i, lastName: 'Client' + i, sex: 'F', territory: 2, consent: true });
  return performance.now() - started;
})()`;
/** Stores `count` providers shaped as the data layer stores them (a copy of one it stored,
 * with new keys) with one RxDB bulkInsert; ms. */
const BARE_BULK_INSERT = (count: number) => `(async () => {
  const { data, db, entities } = window.__icrs;
  const model = await data.create(entities.serviceProvider, { sp_Name: 'Model', sp_type: 1, territory: 2 });
  const docs = [];
  for (let i = 0; i < ${count}; i++) docs.push({ ...model, sp_Id: crypto.randomUUID(), sp_Name: 'Bare ' + i });
  const started = performance.now();
  const { error } = await db.collections.tbl_serviceprovider.bulkInsert(docs);
  if (error.length) throw new Error(error.length + ' bare inserts failed');
  return performance.now() - started;
})()`;

const perSecond = (count: number, ms: number) => count / (ms / 1000);

/** One pair of a createMany and a bare bulkInsert of providers, the order alternating with the
 * run (the collection grows, and the later write of a pair meets a bigger one); records/s. */
async function bulkPair(page: Page, run: number): Promise<{ layer: number; bare: number }> {
  const measure = async (script: string) => perSecond(INSERTS, (await page.evaluate(script)) as number);
  if (run % 2 === 0) {
    const layer = await measure(CREATE_MANY(INSERTS));
    return { layer, bare: await measure(BARE_BULK_INSERT(INSERTS)) };
  }
  const bare = await measure(BARE_BULK_INSERT(INSERTS));
  return { layer: await measure(CREATE_MANY(INSERTS)), bare };
}

interface Build {
  name: string;
  server: TestServer;
  context: BrowserContext;
  page: Page;
  stored: number[];
  shown: number[];
  layer: number[];
  bare: number[];
  ratios: number[];
  clients: number[];
  sequential: number;
  sequentialClients: number;
}

/** The app of `server` installed (the service worker active and its precache filled, so screens
 * open offline), signed in, offline mode on and the network cut. */
async function install(browser: Browser, name: string, server: TestServer): Promise<Build> {
  await ensureOrganisations(server.server.db);
  await server.createUser(USER);
  const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
  await context.addInitScript(() => localStorage.setItem('icrsDebug', '1')); // window.__icrs: the data layer
  await signIn(page, USER.userName, USER.password);
  await page.waitForFunction(() => localStorage.getItem('lists') !== null);
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  const offline = page.getByRole('switch', { name: 'Offline mode' });
  await passLockScreen(page, USER.password, offline);
  await offline.check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await context.setOffline(true);
  return {
    name,
    server,
    context,
    page,
    stored: [],
    shown: [],
    layer: [],
    bare: [],
    ratios: [],
    clients: [],
    sequential: 0,
    sequentialClients: 0,
  };
}

/** Each step once per build, the order alternating from run to run. */
async function inTurn(builds: Build[], step: (build: Build, run: number) => Promise<void>): Promise<void> {
  for (let run = 0; run < RUNS; run++) {
    for (const build of run % 2 ? [...builds].reverse() : builds) await step(build, run);
  }
}

function report(b: Build, prefix: string): void {
  const runs = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join(', ');
  console.log(`${prefix}client_stored_ms: ${median(b.stored).toFixed(0)} ms  (runs: ${runs(b.stored)})`);
  console.log(`${prefix}client_page_shown_ms: ${median(b.shown).toFixed(0)} ms  (runs: ${runs(b.shown)})`);
  console.log(
    `${prefix}datalayer: ${median(b.layer).toFixed(0)} records/s (one data.createMany of ${INSERTS} providers, median of ${RUNS}: ${runs(b.layer)})`,
  );
  console.log(
    `${prefix}bare: ${median(b.bare).toFixed(0)} records/s (one bulkInsert of ${INSERTS} providers, median of ${RUNS}: ${runs(b.bare)})`,
  );
  console.log(`${prefix}datalayer_vs_bare: ${median(b.ratios).toFixed(2)} x (median of ${RUNS} pairs: ${runs(b.ratios, 2)})`);
  console.log(
    `${prefix}datalayer_clients: ${median(b.clients).toFixed(0)} records/s (one data.createMany of ${CLIENT_INSERTS} clients, median of ${RUNS}: ${runs(b.clients)})`,
  );
  console.log(
    `${prefix}sequential_create: ${b.sequential.toFixed(0)} records/s (${SEQUENTIAL_INSERTS} data.create calls of providers, one per record)`,
  );
  console.log(
    `${prefix}sequential_create_clients: ${b.sequentialClients.toFixed(0)} records/s (${SEQUENTIAL_INSERTS} data.create calls of clients, one per record)`,
  );
}

async function main() {
  const compareDist = process.env.BENCH_COMPARE_DIST;
  const [t, other] = await Promise.all([
    startTestServer(),
    ...(compareDist ? [startTestServer({ config: { staticDir: path.resolve(compareDist) } })] : []),
  ]);
  const browser = await launchBrowser();
  try {
    const builds = [await install(browser, 'this', t as TestServer)];
    if (other) builds.push(await install(browser, 'compared', other));
    console.log(
      `# offline_writes: headless Chromium, built app, offline (network cut), median of ${RUNS}${compareDist ? `, compared with the build in ${compareDist} in turn` : ''}; load ${loadText()}`,
    );
    await inTurn(builds, async (build, run) => {
      await fillClient(build.page, run);
      const save = await saveClient(build.page);
      build.stored.push(save.stored);
      build.shown.push(save.shown);
    });
    await inTurn(builds, async (build, run) => {
      const { page } = build;
      await page.waitForFunction(() => Boolean(window.__icrs?.data));
      const pair = await bulkPair(page, run);
      build.layer.push(pair.layer);
      build.bare.push(pair.bare);
      build.ratios.push(pair.layer / pair.bare);
      build.clients.push(perSecond(CLIENT_INSERTS, (await page.evaluate(CREATE_MANY_CLIENTS(CLIENT_INSERTS))) as number));
    });
    for (const build of builds) {
      build.sequential = perSecond(SEQUENTIAL_INSERTS, (await build.page.evaluate(SEQUENTIAL_CREATE(SEQUENTIAL_INSERTS))) as number);
      build.sequentialClients = perSecond(
        SEQUENTIAL_INSERTS,
        (await build.page.evaluate(SEQUENTIAL_CREATE_CLIENTS(SEQUENTIAL_INSERTS))) as number,
      );
    }
    console.log(`# load at the end ${loadText()}`);
    const [mine, compared] = builds as [Build, Build | undefined];
    report(mine, 'offline_writes.');
    if (compared) {
      report(compared, 'offline_writes.compared.');
      console.log(
        `offline_writes.ratio.client_stored: ${pairedRatio(mine.stored, compared.stored)}x  (time, this/compared, median of ${RUNS} pairs; aim ≤ 1.25)`,
      );
      console.log(`offline_writes.ratio.client_page_shown: ${pairedRatio(mine.shown, compared.shown)}x  (time; aim ≤ 1.25)`);
      console.log(`offline_writes.ratio.datalayer: ${pairedRatio(mine.layer, compared.layer)}x  (rate, providers; aim ≥ 0.8)`);
      console.log(`offline_writes.ratio.datalayer_clients: ${pairedRatio(mine.clients, compared.clients)}x  (rate, clients; aim ≥ 0.8)`);
      console.log(
        `offline_writes.ratio.sequential_create_clients: ${(mine.sequentialClients / compared.sequentialClients).toFixed(2)}x  (rate, one pair)`,
      );
    }
    for (const build of builds) await build.context.close();
  } finally {
    await browser.close();
    await t?.close();
    await other?.close();
  }
}

if (process.env.VITEST) {
  const { bench } = await import('vitest');
  bench.skip('offline_writes: run `npx tsx bench/offline-writes.bench.ts`', () => undefined);
} else {
  await withResults('offline-writes', main);
}
