// Online lists in headless Chromium (ADR-0035), the built app against a local server with
// BENCH_ROWS rows (default 100,000) in each main table, signed in as a real user (role 4,
// organisation 1) in two browser contexts, each after its first pull of the working set:
// - lists.<screen>_first_rows_ms: from navigation to a list screen (a full page load of its
//   address) until its first rows show; median of BENCH_RUNS (default 5); budget ≤ 500 ms;
//   on the page's clock (a mutation observer notes when the first row is in the page); the
//   `_polled_ms` figure beside it is the bench's clock until Playwright's check saw it (its
//   checks back off to one per 500 ms after the load event);
// - lists.<screen>_in_app_ms: the same list opened from another screen by its link in the
//   sidebar (what an office worker does all day), from the click until its first rows show;
// - lists.live_update_ms: a provider saved in browser context A (through the app's data layer,
//   as its form does) until it shows in the providers list open in context B (the change
//   stream tells B's list to load its page again); median of BENCH_RUNS; budget ≤ 1 s.
// - lists.<screen>_list_request_ms, lists.<screen>_list_answer_ms: from the same navigation until
//   the grid's list call was sent, and until its answer arrived (what is left is drawing the
//   rows). Both as the browser reports them: a busy page reports late.
//
// - BENCH_COMPARE_DIST=<dir>: another build (e.g. main's dist/, copied) served by a second server
//   on the same database, measured in turn with this one (the order alternating, so both meet
//   the same load): its figures as lists.compared.*, and the median of the pairs' ratios;
// - BENCH_LIVE_ONLY=1: the live update alone.
//
//   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/lists.bench.ts
//
// Without TEST_DATABASE_URL the server runs on in-memory PGlite.
import type { Page } from 'playwright-core';
import { fillMainTables } from './seed';
import { median, pairedRatio } from './median';
import { signedInAfterFirstPull } from './signedIn';
import { loadText, withResults } from './results';
import { withComparedBuilds } from './compared';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const USER = { userName: 'office', password: 'office-password-1', role: 4, location: 1 };
/** Each screen's address and the list call its grid makes. */
const SCREENS = {
  providers: { path: '/serviceproviders', api: '/api/sproviers/srch' },
  services: { path: '/serviceproviders/services', api: '/api/spDetail/search' },
};
type Screen = (typeof SCREENS)[keyof typeof SCREENS];
/** A data row of the grid (not its header). */
const FIRST_ROW = '.MuiDataGrid-row[data-rowindex="0"]';
/** The screen an in-app navigation starts from: signed in, with the sidebar, no list. */
const OTHER_SCREEN = '/testing';

/** In every page of the context: `window.__firstRowAt`, the page's clock when a grid's first row
 * was first in the page (a mutation observer, called as soon as the DOM changes); reset by
 * setting it to null. (Animation frames would give the paint itself, but headless Chromium runs
 * none in a page that is not in front.) */
const WATCH_FIRST_ROW = `(() => {
  window.__firstRowAt = null;
  new MutationObserver(() => {
    if (window.__firstRowAt === null && document.querySelector('${FIRST_ROW}')) window.__firstRowAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
})()`;

/** In each page of a signed-in context: `window.__icrs` (the data layer) and the first row's watch. */
const SIGNED_IN_SCRIPTS = ["localStorage.setItem('icrsDebug', '1')", WATCH_FIRST_ROW];

interface Figures {
  shown: number[];
  polled: number[];
  answered: number[];
  asked: number[];
  inApp: number[];
}

const noFigures = (): Figures => ({ shown: [], polled: [], answered: [], asked: [], inApp: [] });

/** One full page load of the screen's address: until its first row shows (page's clock and
 * bench's clock), and until its list call left and was answered. */
async function fullLoad(page: Page, screen: Screen, into: Figures): Promise<void> {
  const isList = (url: string) => new URL(url).pathname.startsWith(screen.api);
  await page.goto(OTHER_SCREEN); // leave the list, so each run loads it afresh
  const started = performance.now();
  const request = page.waitForRequest((r) => isList(r.url())).then(() => performance.now() - started);
  const answer = page.waitForResponse((response) => isList(response.url())).then(() => performance.now() - started);
  await page.goto(screen.path);
  await page.locator(FIRST_ROW).waitFor();
  into.polled.push(performance.now() - started);
  into.shown.push(await page.evaluate<number>('window.__firstRowAt'));
  into.answered.push(await answer);
  into.asked.push(await request);
}

/** From another screen, a click on the list's link in the sidebar until its first row shows
 * (the page's clock). */
async function inAppNavigation(page: Page, screen: Screen, into: Figures): Promise<void> {
  await page.goto(OTHER_SCREEN);
  const link = page.locator(`nav a[href="${screen.path}"]`).first();
  await link.waitFor();
  await page.waitForTimeout(1_000); // the page's own start settled: only the navigation is timed
  const clickedAt: number = await page.evaluate(`(() => { window.__firstRowAt = null; return performance.now(); })()`);
  await link.click();
  await page.locator(FIRST_ROW).waitFor();
  into.inApp.push((await page.evaluate<number>('window.__firstRowAt')) - clickedAt);
}

// Page scripts as text: tsx would add its own helpers to functions passed to the page.
const SAVE_PROVIDER = (name: string) => `(async () => {
  const handle = window.__icrs;
  if (!handle?.data) throw new Error('no support handle');
  await handle.data.create(handle.entities.serviceProvider, { sp_Name: ${JSON.stringify(name)}, sp_type: 1, territory: 2 });
})()`;

/** Resolves with the wall clock (shared by both browsers and the bench) when a grid row with
 * `name` is in the page. */
const WHEN_ROW_SHOWS = (name: string) => `new Promise((resolve) => {
  const seen = () => [...document.querySelectorAll('.MuiDataGrid-row')].some((row) => row.textContent.includes(${JSON.stringify(name)}));
  const observer = new MutationObserver(() => {
    if (seen()) { observer.disconnect(); resolve(Date.now()); }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})`;

/** A provider saved in `a` until the providers list open in `b` shows it. */
async function liveUpdate(a: Page, b: Page, name: string): Promise<number> {
  // Sorted by name, the list shows it on its first page.
  await b.evaluate(`(() => { window.__rowShown = ${WHEN_ROW_SHOWS(name)}; })()`); // not awaited here
  const started = Date.now();
  await a.evaluate(SAVE_PROVIDER(name));
  await b.locator(`.MuiDataGrid-row >> text="${name}"`).waitFor({ timeout: 20_000 });
  return (await b.evaluate<number>('window.__rowShown')) - started;
}

interface Build {
  name: string;
  a: Page;
  b: Page;
  figures: Record<string, Figures>;
  live: number[];
}

/** Each step once per build, the order alternating from run to run. */
async function inTurn(builds: Build[], step: (build: Build, run: number) => Promise<void>): Promise<void> {
  for (let run = 0; run < RUNS; run++) {
    for (const build of run % 2 ? [...builds].reverse() : builds) await step(build, run);
  }
}

function report(build: Build, prefix: string): void {
  for (const [name, f] of Object.entries(build.figures).filter(([, f]) => f.shown.length > 0)) {
    console.log(`${prefix}${name}_first_rows_ms: ${median(f.shown).toFixed(0)} ms`);
    console.log(`${prefix}${name}_first_rows_polled_ms: ${median(f.polled).toFixed(0)} ms`);
    console.log(`${prefix}${name}_list_request_ms: ${median(f.asked).toFixed(0)} ms`);
    console.log(`${prefix}${name}_list_answer_ms: ${median(f.answered).toFixed(0)} ms`);
    console.log(`${prefix}${name}_in_app_ms: ${median(f.inApp).toFixed(0)} ms`);
  }
  console.log(`${prefix}live_update_ms: ${median(build.live).toFixed(0)} ms`);
  const runs = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
  for (const [name, f] of Object.entries(build.figures).filter(([, f]) => f.shown.length > 0)) {
    console.log(
      `# ${prefix}${name} runs: first rows ${runs(f.shown)}; request ${runs(f.asked)}; answer ${runs(f.answered)}; in app ${runs(f.inApp)}`,
    );
  }
  console.log(`# ${prefix}live update runs: ${runs(build.live)}`);
}

async function main() {
  await withComparedBuilds(async ({ t, browser, builds: served }) => {
    const filled = await fillMainTables(t.server.db, ROWS);
    await t.createUser(USER);
    console.log(
      `# lists: headless Chromium, built app, ${ROWS.toLocaleString('en')} rows per main table on ${t.backend} (${filled.toFixed(1)} s to fill), median of ${RUNS}, load ${loadText()}`,
    );
    const builds: Build[] = [];
    for (const [name, url] of served) {
      const figures = Object.fromEntries(Object.keys(SCREENS).map((screen) => [screen, noFigures()]));
      builds.push({
        name,
        a: await signedInAfterFirstPull(browser, url, USER, SIGNED_IN_SCRIPTS),
        b: await signedInAfterFirstPull(browser, url, USER, SIGNED_IN_SCRIPTS),
        figures,
        live: [],
      });
    }
    for (const [name, screen] of process.env.BENCH_LIVE_ONLY ? [] : Object.entries(SCREENS)) {
      await inTurn(builds, (build) => fullLoad(build.b, screen, build.figures[name] as Figures));
      await inTurn(builds, (build) => inAppNavigation(build.b, screen, build.figures[name] as Figures));
    }
    for (const build of builds) {
      await build.b.goto(SCREENS.providers.path);
      await build.b.locator(FIRST_ROW).waitFor();
      await build.a.waitForFunction('Boolean(window.__icrs?.data)');
    }
    await inTurn(builds, async (build, run) => {
      build.live.push(await liveUpdate(build.a, build.b, `AAA live ${build.name} ${run}`));
    });
    const [mine, compared] = builds as [Build, Build | undefined];
    report(mine, 'lists.');
    if (compared) {
      report(compared, 'lists.compared.');
      for (const name of Object.keys(SCREENS).filter((screen) => (mine.figures[screen] as Figures).shown.length > 0)) {
        const m = mine.figures[name] as Figures;
        const c = compared.figures[name] as Figures;
        console.log(`lists.ratio.${name}_first_rows: ${pairedRatio(m.shown, c.shown)}x`);
        console.log(`lists.ratio.${name}_in_app: ${pairedRatio(m.inApp, c.inApp)}x`);
      }
      console.log(`lists.ratio.live_update: ${pairedRatio(mine.live, compared.live)}x`);
    }
  });
}

await withResults('lists', main);
