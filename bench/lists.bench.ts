// Online lists in headless Chromium (issue 16), the built app against a local server with
// BENCH_ROWS rows (default 100,000) in each main table, signed in as a real user (role 4,
// organisation 1) in two browser contexts, each after its first pull of the working set:
// - lists.<screen>_first_rows_ms: from navigation to a list screen (a full page load of its
//   address) until its first rows show; median of BENCH_RUNS (default 5); budget ≤ 500 ms;
// - lists.live_update_ms: a provider saved in browser context A (through the app's data layer,
//   as its form does) until it shows in the providers list open in context B (the change
//   stream tells B's list to load its page again); median of BENCH_RUNS; budget ≤ 1 s.
// - lists.<screen>_list_request_ms, lists.<screen>_list_answer_ms: from the same navigation until
//   the grid's list call was sent, and until its answer arrived (what is left is drawing the
//   rows). Both as the browser reports them: a busy page reports late.
//
//   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/lists.bench.ts
//
// Without TEST_DATABASE_URL the server runs on in-memory PGlite.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../test/helpers/browser';
import { ensureOrganisations } from '../test/helpers/records';
import { startTestServer } from '../test/helpers/server';
import { fillMainTables, median } from './seed';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const USER = { userName: 'office', password: 'office-password-1', role: 4, location: 1 };
/** Each screen's address and the list call its grid makes. */
const SCREENS = {
  providers: { path: '/serviceproviders', api: '/api/sproviers/srch' },
  services: { path: '/serviceproviders/services', api: '/api/spDetail/search' },
};
/** A data row of the grid (not its header). */
const FIRST_ROW = '.MuiDataGrid-row[data-rowindex="0"]';

/** Signed in, and the first pull of the device's working set (up to 5,000 rows of each table
 * of the organisation, in pages of 200) done: what an office worker's open app has behind it. */
async function signedIn(browser: Browser, baseURL: string): Promise<Page> {
  const { context, page } = await newPage(browser, { baseURL, lang: 'en' });
  await context.addInitScript(() => localStorage.setItem('icrsDebug', '1')); // window.__icrs: the data layer
  let lastPull = performance.now();
  const pulling = (url: string) => {
    const path = new URL(url).pathname;
    if (path.startsWith('/api/sync/') && path !== '/api/sync/stream') lastPull = performance.now();
  };
  page.on('request', (request) => pulling(request.url()));
  page.on('requestfinished', (request) => pulling(request.url()));
  await signIn(page, USER.userName, USER.password);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  while (performance.now() - lastPull < 3_000) await page.waitForTimeout(500);
  return page;
}

/** Milliseconds from navigation to the screen until its first row shows, and until the
 * answer of its list call arrived, RUNS times. */
async function firstRows(page: Page, screen: { path: string; api: string }): Promise<{ shown: number[]; answered: number[]; asked: number[] }> {
  const shown: number[] = [];
  const answered: number[] = [];
  const asked: number[] = [];
  const isList = (url: string) => new URL(url).pathname.startsWith(screen.api);
  for (let run = 0; run < RUNS; run++) {
    await page.goto('/testing'); // leave the list, so each run loads it afresh
    const started = performance.now();
    const request = page.waitForRequest((r) => isList(r.url())).then(() => performance.now() - started);
    const answer = page.waitForResponse((response) => isList(response.url())).then(() => performance.now() - started);
    await page.goto(screen.path);
    await page.locator(FIRST_ROW).waitFor();
    shown.push(performance.now() - started);
    answered.push(await answer);
    asked.push(await request);
  }
  return { shown, answered, asked };
}

// Page scripts as text: tsx would add its own helpers to functions passed to the page.
const SAVE_PROVIDER = (name: string) => `(async () => {
  const handle = window.__icrs;
  if (!handle?.data) throw new Error('no support handle');
  await handle.data.create(handle.entities.serviceProvider, { sp_Name: ${JSON.stringify(name)}, sp_type: 1, territory: 2 });
})()`;

/** A provider saved in `a` until the providers list open in `b` shows it, RUNS times. */
async function liveUpdates(a: Page, b: Page): Promise<number[]> {
  await b.goto(SCREENS.providers.path);
  await b.locator(FIRST_ROW).waitFor();
  await a.waitForFunction('Boolean(window.__icrs?.data)');
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Sorted by name, the list shows it on its first page.
    const name = `AAA live ${run}`;
    const started = performance.now();
    await a.evaluate(SAVE_PROVIDER(name));
    await b.locator(`.MuiDataGrid-row >> text="${name}"`).waitFor({ timeout: 20_000 });
    times.push(performance.now() - started);
  }
  return times;
}

async function main() {
  // The bulk fill can outlast the default statement timeout (and the client's read timeout
  // after it) on a busy shared machine; the lists' own queries take milliseconds.
  const t = await startTestServer({ backend: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', config: { statementTimeoutMs: 300_000 } });
  const browser = await launchBrowser();
  try {
    await ensureOrganisations(t.server.db);
    const filled = await fillMainTables(t.server.db, ROWS);
    await t.createUser(USER);
    console.log(`# lists: headless Chromium, built app, ${ROWS.toLocaleString('en')} rows per main table on ${t.backend} (${filled.toFixed(1)} s to fill), median of ${RUNS}`);
    const a = await signedIn(browser, t.url);
    const b = await signedIn(browser, t.url);
    for (const [name, screen] of Object.entries(SCREENS)) {
      const { shown, answered, asked } = await firstRows(b, screen);
      console.log(`lists.${name}_first_rows_ms: ${median(shown).toFixed(0)} ms`);
      console.log(`lists.${name}_list_request_ms: ${median(asked).toFixed(0)} ms`);
      console.log(`lists.${name}_list_answer_ms: ${median(answered).toFixed(0)} ms`);
    }
    console.log(`lists.live_update_ms: ${median(await liveUpdates(a, b)).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await t.close();
  }
}

await main();
