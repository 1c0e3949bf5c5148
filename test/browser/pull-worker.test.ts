// The pull in a worker (docs/adr/0051-pull-in-a-worker.md), in the built app in headless Chromium
// against a real server: the worker seals and stores the feed's rows, the page's store hears
// them, the change stream asks only for the table it names, the feed's requests keep the page's
// rules (a refused session signs out), and a worker that cannot start leaves the pull to the
// page. Firefox and WebKit run the worker's pull in their critical flows (engine-flows.ts).
// Then the worker's pull beside the upload engine, the change stream and the server, with
// faults, run after run (PULL_WORKER_RUNS, default 3): random delays, lost feed requests, lost
// upload answers, a reload mid-upload (the worker killed with the page), clients registered,
// edited and reassigned on the server meanwhile. Each run: 0 pending, every record once on the
// server, and the device holding exactly the caseload, each client as the server has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName, profile } from '../../schemas/index';
import { PULL_IN_PAGE_MARK, PULL_WORKER_STARTED_MARK } from '../../src/lib/sync/replication/workerPull';
import { launchBrowser, newDebugPage, signIn, storedClientKeysInPage, storeReady } from '../helpers/browser';
import { collect, planOf } from '../helpers/collect';
import { seededRandom } from '../helpers/faulty-proxy';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const worker = { userName: 'pullWorker3', password: 'pull-worker-password-3', role: 3, location: 2 };
const office = { userName: 'pullOffice5', password: 'pull-office-password-5', role: 5, location: 2 };
const colleague = { userName: 'pullOther3', password: 'pull-other-password-3', role: 3, location: 2 };
const id: Record<string, string> = {};
let token = '';
let officeToken = '';

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const [name, user] of Object.entries({ worker, office, colleague })) id[name] = (await server.createUser(user)).userId;
  token = await server.login(worker.userName, worker.password);
  officeToken = await server.login(office.userName, office.password);
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

const RUNS = Number(process.env.PULL_WORKER_RUNS ?? 3);
const random = seededRandom(Number(process.env.PULL_WORKER_SEED ?? 51));
const pause = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * maxMs)));

/** The table of each entity, by name (a plan names its records' entities). */
const PLAN_TABLES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(entityByName).map((entity) => [entity.name, entity.table]),
);

/** Rows of `table` the worker created on the server. */
async function createdOnServer(table: string): Promise<number> {
  const [row] = await server.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE "createdBy" = $1`, [
    id.worker,
  ]);
  return row?.n ?? 0;
}

/** The worker's caseload on the server: the clients assigned to them (no territory, no pin). */
async function caseloadOnServer(): Promise<string[]> {
  const rows = await server.server.db.query<{ key: string }>('SELECT "prof_Id" AS key FROM "tbl_profiles" WHERE "assignedTo" = $1', [
    id.worker,
  ]);
  return rows.map((r) => r.key).sort();
}

async function lastNameOnServer(key: string): Promise<string> {
  const [row] = await server.server.db.query<{ name: string }>('SELECT "lastName" AS name FROM "tbl_profiles" WHERE "prof_Id" = $1', [key]);
  return row?.name ?? '';
}

/** A client's last name as the page's own store reads it (opened). */
function lastNameOnDevice(page: Page, key: string): Promise<string | null> {
  return page.evaluate(
    (k) =>
      window.__icrs?.db.collections.tbl_profiles
        ?.findOne(k)
        .exec()
        .then((d) => (d ? String(d.get('lastName')) : null)) ?? null,
    key,
  );
}

/** Faults on the way to the server: every feed and upload request waits up to 150 ms; a tenth
 * of the feed's requests are lost, and a sixth of the uploads' answers (the server has them). */
async function faultyNetwork(page: Page): Promise<() => Promise<void>> {
  const pattern = /\/api\/sync\/(?!stream|ticket)/;
  // A request whose page went (a reload) or whose route was lifted meanwhile is handled
  // already: what the handler would do with it no longer matters.
  const settled = () => undefined;
  await page.context().route(pattern, async (route) => {
    await pause(150);
    const upload = /\/api\/sync\/push\//.test(route.request().url());
    const roll = random();
    if (upload && roll < 1 / 6) {
      await route.fetch().catch(settled);
      return route.abort('failed').catch(settled);
    }
    if (!upload && roll < 0.1) return route.abort('failed').catch(settled);
    return route.continue().catch(settled);
  });
  return () => page.context().unroute(pattern);
}

/** Server-side work meanwhile: a client registered for the worker, one of theirs edited, one
 * moved to a colleague (it must leave the device). Answers the edited client's key. */
async function serverMeanwhile(run: number, caseload: readonly string[]): Promise<string | undefined> {
  await pause(400);
  await registerClient(`Serveurrun${run}`);
  const [edited, moved] = caseload.filter((key) => !collectedClients.has(key));
  if (moved) {
    const answer = await server.api('POST', '/profile/assign', { token: officeToken, body: { clients: [moved], to: id.colleague } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
  if (!edited) return undefined;
  const answer = await server.api('PUT', `/profile/${edited}`, { token: officeToken, body: { lastName: `Editedrun${run}` } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return edited;
}
const collectedClients = new Set<string>();

/** Uploads until nothing is pending (a faulty network fails some runs); `reloadOnce` reloads
 * the page in the middle of the first upload, which kills the pull's worker with it. */
async function uploadAll(page: Page, reloadOnce: boolean): Promise<void> {
  for (let attempt = 1; attempt <= 12; attempt += 1) {
    const upload = page.evaluate(() => window.__icrs!.upload().then(() => undefined));
    if (reloadOnce && attempt === 1) {
      const gone = upload.catch(() => undefined); // its page goes
      await pause(300);
      await page.reload();
      await storeReady(page);
      await gone;
    } else await upload;
    if ((await page.evaluate(() => window.__icrs!.countPending())) === 0) return;
    await pause(500);
  }
  throw new Error('records still pending after 12 uploads');
}

describe('the pull in a worker beside the upload engine, with faults', () => {
  it(
    `${RUNS} runs: 0 pending, every record once on the server, the device holding exactly the caseload as the server has it`,
    async () => {
      const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
      await signIn(page, worker.userName, worker.password);
      await storeReady(page);
      await poll(() => marked(page, PULL_WORKER_STARTED_MARK)).toBe(true);
      const expected = new Map<string, number>();
      for (const step of await planOf(1)) {
        const table = PLAN_TABLES[step.entity] as string;
        expected.set(table, await createdOnServer(table));
      }
      for (let run = 1; run <= RUNS; run += 1) {
        // Collected offline: 11 records (a client with its four records among them).
        await page.getByRole('switch', { name: 'Offline mode' }).first().check();
        await page.waitForURL((url) => url.pathname === '/offlinehp');
        await storeReady(page);
        const plan = await planOf(1, { profile: { lastName: `Collectedrun${run}` } });
        const keys = await collect(page, plan);
        plan.forEach((step, i) => {
          const table = PLAN_TABLES[step.entity] as string;
          expected.set(table, (expected.get(table) ?? 0) + 1);
          if (table === 'tbl_profiles') collectedClients.add(keys[i] as string);
        });
        expected.set('tbl_profiles', (expected.get('tbl_profiles') ?? 0) + 1); // registered on the server below

        // Online again, the network faulty: the worker pulls, the engine uploads, the server changes.
        const healNetwork = await faultyNetwork(page);
        await page.evaluate(() => localStorage.setItem('mode', 'online'));
        await page.goto('/offlinehp');
        await storeReady(page);
        const meanwhile = serverMeanwhile(run, await caseloadOnServer());
        await uploadAll(page, run % 4 === 2); // a reload mid-upload in runs 2, 6, 10…
        const edited = await meanwhile;
        await healNetwork();

        const label = `run ${run}`;
        await poll(async () => (await storedClientKeys(page)).sort()).toEqual(await caseloadOnServer());
        if (edited) await poll(() => lastNameOnDevice(page, edited)).toBe(await lastNameOnServer(edited));
        expect(await page.evaluate(() => window.__icrs!.countPending()), label).toBe(0);
        for (const [table, count] of expected) expect(await createdOnServer(table), `${label}: ${table}`).toBe(count);
      }
      // The next pull brings nothing back as pending (no resurrection) and keeps the caseload.
      await registerClient('Apreslesruns');
      await poll(async () => (await storedClientKeys(page)).sort()).toEqual(await caseloadOnServer());
      expect(await page.evaluate(() => window.__icrs!.countPending())).toBe(0);
      await context.close();
    },
    120_000 + RUNS * 60_000,
  );
});
