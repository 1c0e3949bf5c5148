// The pull in a worker (docs/adr/0051-pull-in-a-worker.md), in the built app in headless Chromium
// against a real server: the worker seals and stores the feed's rows, the page's store hears
// them, the change stream asks only for the table it names, the feed's requests keep the page's
// rules (a refused session signs out), and a worker that cannot start leaves the pull to the
// page. Firefox and WebKit run the worker's pull in their critical flows (engine-flows.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { profile } from '../../schemas/index';
import { PULL_IN_PAGE_MARK, PULL_WORKER_STARTED_MARK } from '../../src/lib/sync/replication/workerPull';
import { launchBrowser, newDebugPage, signIn, storedClientKeysInPage, storeReady } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const worker = { userName: 'pullWorker3', password: 'pull-worker-password-3', role: 3, location: 2 };
let token = '';

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  await server.createUser(worker);
  token = await server.login(worker.userName, worker.password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function clientBody(lastName: string): Record<string, unknown> {
  return { ...sampleBody(profile), prof_Reg_No: registrationNumber('ADC'), firstName: 'Pullia', middleName: null, lastName };
}

/** A client the worker registers on the server (so in their caseload); answers its key. */
async function registerClient(lastName: string, body = clientBody(lastName)): Promise<string> {
  const created = await server.api('POST', '/profile/', { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(body.prof_Id);
}

/** The keys of the clients in the device's IndexedDB, read raw. */
function storedClientKeys(page: Page): Promise<string[]> {
  return page.evaluate(storedClientKeysInPage);
}

function marked(page: Page, name: string): Promise<boolean> {
  return page.evaluate((mark) => performance.getEntriesByName(mark).length > 0, name);
}

/** The tables of the feed's requests the page makes from now on (GET /api/sync/{table}). */
function feedRequests(page: Page): string[] {
  const tables: string[] = [];
  page.on('request', (request) => {
    const match = /\/api\/sync\/([^/?]+)(?:\?|$)/.exec(request.url());
    if (match?.[1] && request.method() === 'GET' && match[1] !== 'stream') tables.push(decodeURIComponent(match[1]));
  });
  return tables;
}

/** Lets the pull's start finish: no feed request for 2 s. */
async function quiet(page: Page, tables: string[]): Promise<void> {
  let seen = -1;
  await poll(async () => {
    const now = tables.length;
    const settled = now === seen;
    seen = now;
    if (!settled) await page.waitForTimeout(2_000);
    return settled;
  }).toBe(true);
}

describe('the pull in a worker', () => {
  it("stores the feed's rows from a worker; the page's store hears them, and a change asks only for its table", async () => {
    const before = await registerClient('Avantlaconnexion');
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    const tables = feedRequests(page);
    await signIn(page, worker.userName, worker.password);
    await storeReady(page);
    await poll(() => marked(page, PULL_WORKER_STARTED_MARK)).toBe(true);
    expect(page.workers().some((w) => /pullWorker/.test(w.url()))).toBe(true);
    expect(await marked(page, PULL_IN_PAGE_MARK)).toBe(false);
    await poll(() => storedClientKeys(page)).toContain(before);
    await quiet(page, tables);
    tables.length = 0;
    // A client registered now: the stream names its table, the worker pulls it, and the page's
    // store hears the write (a live query of the page's own database, open before it, sees the
    // client, opened: name and all).
    const body = clientBody('Apreslaconnexion');
    const key = String(body.prof_Id);
    await page.evaluate((id) => {
      const collection = window.__icrs!.db.collections.tbl_profiles!;
      (window as unknown as { heard: Promise<string> }).heard = new Promise((resolve) => {
        const sub = collection.findOne(id).$.subscribe((doc: { get(field: string): unknown } | null) => {
          if (!doc) return;
          sub.unsubscribe();
          resolve(String(doc.get('lastName')));
        });
      });
    }, key);
    await registerClient('Apreslaconnexion', body);
    await poll(() => storedClientKeys(page)).toContain(key);
    const heard = page.evaluate(() => (window as unknown as { heard: Promise<string> }).heard);
    expect(await Promise.race([heard, new Promise((resolve) => setTimeout(() => resolve('not heard in 10 s'), 10_000))])).toBe(
      'Apreslaconnexion',
    );
    await quiet(page, tables);
    expect(new Set(tables)).toEqual(new Set(['tbl_profiles']));
    await context.close();
  }, 120_000);

  it("makes the feed's requests with the page's rules: a refused session signs out", async () => {
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, worker.userName, worker.password);
    await storeReady(page);
    await poll(() => marked(page, PULL_WORKER_STARTED_MARK)).toBe(true);
    await page.route(/\/api\/sync\/tbl_profiles\?/, (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 401, error: 'Unauthorized', code: 'auth.expired', message: 'Your session has expired' }),
      }),
    );
    // Back on the network: every table is pulled again, the refused one too.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    await context.close();
  }, 120_000);

  it('leaves the pull to the page when its worker cannot start', async () => {
    const key = await registerClient('Sansouvrier');
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'block' });
    await context.route(/\/assets\/pullWorker-[^/]*\.js$/, (route) => route.abort('failed'));
    await signIn(page, worker.userName, worker.password);
    await storeReady(page);
    await poll(() => marked(page, PULL_IN_PAGE_MARK)).toBe(true);
    expect(await marked(page, PULL_WORKER_STARTED_MARK)).toBe(false);
    await poll(() => storedClientKeys(page)).toContain(key);
    await context.close();
  }, 120_000);
});
