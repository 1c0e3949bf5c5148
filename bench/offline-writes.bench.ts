// Offline writes in headless Chromium (issue 16), the built app installed (service worker
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
//   back: three IndexedDB transactions each), once, for comparison.
//
//   npm run build && BENCH_RUNS=3 npx tsx bench/offline-writes.bench.ts
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';
import { median } from './seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const INSERTS = Number(process.env.BENCH_INSERTS ?? 10_000);
const SEQUENTIAL_INSERTS = Number(process.env.BENCH_SEQUENTIAL_INSERTS ?? INSERTS);
const USER = { userName: 'field', password: 'field-password-1', role: 4, location: 1 };

const stepTitle = (page: Page) => page.locator('#client-step-title');

/** Fills the identity step and skips or passes every later one until the review. */
async function fillClient(page: Page, run: number): Promise<void> {
  await page.goto('/profiles/add');
  await page.getByRole('textbox', { name: /^First name/ }).fill(`Bench${run}`);
  await page.getByRole('textbox', { name: /^Last name/ }).fill(`Offline${run}`);
  await page.getByRole('combobox', { name: /^Sex/ }).click();
  await page.getByRole('option').filter({ hasText: 'Female' }).first().click();
  await page.getByLabel(/^Date of birth/).fill('1990-01-0' + String(1 + (run % 9)));
  await page.getByRole('combobox', { name: /^Territory/ }).click();
  await page.getByRole('option').filter({ hasText: 'Goma' }).first().click();
  await page.getByRole('radiogroup', { name: /agrees that their data is kept/ }).getByRole('radio', { name: 'Yes' }).check();
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
  await page.waitForFunction('Boolean(window.__icrs?.db)');
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

/** RUNS pairs of one createMany and one bare bulkInsert, the order alternating (the
 * collection grows, and the later write of a pair meets a bigger one). */
async function bulkPairs(page: Page): Promise<{ layer: number[]; bare: number[]; ratios: number[] }> {
  const layer: number[] = [];
  const bare: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const measure = async (script: string) => perSecond(INSERTS, (await page.evaluate(script)) as number);
    let l: number;
    let b: number;
    if (run % 2 === 0) {
      l = await measure(CREATE_MANY(INSERTS));
      b = await measure(BARE_BULK_INSERT(INSERTS));
    } else {
      b = await measure(BARE_BULK_INSERT(INSERTS));
      l = await measure(CREATE_MANY(INSERTS));
    }
    layer.push(l);
    bare.push(b);
    ratios.push(l / b);
  }
  return { layer, bare, ratios };
}

async function main() {
  const t = await startTestServer();
  const browser = await launchBrowser();
  try {
    await ensureOrganisations(t.server.db);
    await t.createUser(USER);
    // Installed: the service worker active and its precache filled, so screens open offline.
    const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'en', serviceWorkers: 'allow' });
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1')); // window.__icrs: the data layer
    await signIn(page, USER.userName, USER.password);
    await page.waitForFunction(() => localStorage.getItem('lists') !== null);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await context.setOffline(true);

    const stored: number[] = [];
    const shown: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await fillClient(page, run);
      const save = await saveClient(page);
      stored.push(save.stored);
      shown.push(save.shown);
    }
    console.log(`# offline_writes: headless Chromium, built app, offline (network cut), median of ${RUNS}`);
    console.log(`offline_writes.client_stored_ms: ${median(stored).toFixed(0)} ms`);
    console.log(`offline_writes.client_page_shown_ms: ${median(shown).toFixed(0)} ms`);

    await page.waitForFunction('Boolean(window.__icrs?.data)');
    const pairs = await bulkPairs(page);
    console.log(`offline_writes.datalayer: ${median(pairs.layer).toFixed(0)} records/s (one data.createMany of ${INSERTS}, median of ${RUNS})`);
    console.log(`offline_writes.bare: ${median(pairs.bare).toFixed(0)} records/s (one bulkInsert of ${INSERTS}, median of ${RUNS})`);
    console.log(`offline_writes.datalayer_vs_bare: ${median(pairs.ratios).toFixed(2)} x (median of ${RUNS} pairs: ${pairs.ratios.map((r) => r.toFixed(2)).join(', ')})`);
    const sequentialMs = (await page.evaluate(SEQUENTIAL_CREATE(SEQUENTIAL_INSERTS))) as number;
    console.log(`offline_writes.sequential_create: ${perSecond(SEQUENTIAL_INSERTS, sequentialMs).toFixed(0)} records/s (${SEQUENTIAL_INSERTS} data.create calls, one per record)`);
    await context.close();
  } finally {
    await browser.close();
    await t.close();
  }
}

await main();
