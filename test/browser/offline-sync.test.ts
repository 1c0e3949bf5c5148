// The built app's offline home under the network a field worker has (ADR-0018): 40 mixed
// records uploaded with the live pull running stay uploaded; a failed upload says what failed
// and that nothing was lost, with a bar that does not fill; the count cards pass axe in both
// themes; a phone shows when it is offline; and the app offers to upload when the network
// comes back. Records are collected through the app's data layer (support handle `__icrs`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, signIn, type PageOptions, type TestPage } from '../helpers/browser';
import { collect, planOf } from '../helpers/collect';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let token: string;

// Organisation 2 of the seed lists (abbreviation ADC), so profiles get registration numbers.
const field = { userName: 'field6', password: 'field-password-6', role: 4, location: 2 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser(field);
  token = await server.login(field.userName, field.password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = <T>(read: () => Promise<T> | T, timeout = 20_000) => expect.poll(read, { timeout, interval: 100 });

async function debugPage(options: Partial<PageOptions> = {}): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: server.url, lang: 'en', ...options });
  await opened.context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  return opened;
}

async function signedInOffline(page: Page): Promise<void> {
  await signIn(page, field.userName, field.password);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await page.waitForFunction(() => localStorage.getItem('lists') !== null);
  await page.getByRole('switch', { name: 'Offline mode' }).first().check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

async function backOnline(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('mode', 'online'));
  await page.goto('/offlinehp');
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

const pendingOf = (page: Page) => page.evaluate(() => window.__icrs?.countPending() ?? -1);
const countText = (page: Page, id: 'services' | 'jobs' | 'clients') => page.getByTestId(`offline-count-${id}-value`).textContent();

async function expectCountsZero(page: Page): Promise<void> {
  for (const id of ['services', 'jobs', 'clients'] as const) await poll(() => countText(page, id)).toBe('0');
  await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
}

describe('offline home, network and uploads', () => {
  it('40 mixed records uploaded with the pull running: counts 0 right after, and still 0 after the next pull', async () => {
    const { context, page } = await debugPage();
    await signedInOffline(page);
    const plan = (await planOf(4)).slice(0, 40);
    expect(await collect(page, plan)).toHaveLength(40);
    await poll(() => pendingOf(page)).toBe(40);

    await backOnline(page); // the pull replication and the change stream start
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page
      .getByTestId('upload-summary')
      .getByText(/Every record is on the server\./)
      .waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('upload-percent').textContent()).resolves.toBe('40 of 40 records uploaded (100%)');
    await expectCountsZero(page);
    expect(await pendingOf(page)).toBe(0);
    await page
      .getByTestId('last-upload')
      .getByText(/^Last upload to the server: (?!never)/)
      .waitFor();

    // The next pull: a change on the server, told by the stream, pulled into this store.
    const marker: Record<string, unknown> = { ...sampleBody(serviceProvider), sp_Name: 'Pulled after the upload' };
    expect((await server.api('POST', '/sproviers/', { token, body: marker })).status).toBe(201);
    await poll(() =>
      page.evaluate(
        (key) =>
          window.__icrs?.db.collections.tbl_serviceprovider
            ?.findOne(key)
            .exec()
            .then((d) => d?.get('syncState') ?? null),
        marker.sp_Id as string,
      ),
    ).toBe('synced');
    await expectCountsZero(page);
    expect(await pendingOf(page)).toBe(0);
    await page
      .getByTestId('last-pull')
      .getByText(/^Last update from the server: (?!never)/)
      .waitFor();
    // Every record once on the server.
    const [row] = await server.server.db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM "available-jobs") + (SELECT count(*) FROM "tbl_jobs_other") + (SELECT count(*) FROM "tbl_serviceprovider") + (SELECT count(*) FROM "tbl_sp_detail") + (SELECT count(*) FROM "tbl_apprship") + (SELECT count(*) FROM "tbl_voc_train") + (SELECT count(*) FROM "tbl_profiles") + (SELECT count(*) FROM "tbl_skills") + (SELECT count(*) FROM "tbl_profiles_social") + (SELECT count(*) FROM "tbl_profiles_sec") + (SELECT count(*) FROM "tbl_profiles_bstart") AS n',
    );
    expect(Number(row?.n)).toBe(41); // the 40 and the marker
    await context.close();
  }, 180_000);

  it('a failed upload keeps the bar at what was uploaded and says what failed and that nothing was lost', async () => {
    const { context, page } = await debugPage();
    await signedInOffline(page);
    await collect(page, (await planOf(1)).slice(0, 4)); // a job, its other job, a provider and its service
    await backOnline(page);
    // The jobs' requests (alone or in a batch) get no answer (the network drops them); the rest goes through.
    await page.route('**/api/jobs/**', (route) => route.abort('failed'));
    await page.route('**/api/jobs', (route) => route.abort('failed'));
    await page.route('**/api/sync/push/available-jobs', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    const summary = page.getByTestId('upload-summary');
    await summary.waitFor({ timeout: 30_000 });
    const text = await summary.textContent();
    expect(text).toMatch(/Not uploaded: Available job: 1\./);
    expect(text).toMatch(/The server could not be reached/);
    expect(text).toMatch(/kept on this device: nothing was lost/);
    expect(text).not.toMatch(/Every record is on the server/);
    // The job failed, its other job waited for it: 2 of 4 are on the server, and the bar says so.
    await expect(page.getByTestId('upload-percent').textContent()).resolves.toBe('2 of 4 records uploaded (50%)');
    await expect(page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).resolves.toBe('50');
    // The per-record toast keeps the product.md §8 title of its kind, with a sentence instead of 'Network Error'.
    const toast = page.getByTestId('toast').filter({ hasText: 'JAALL Error' }).first();
    await toast.getByText(/The server could not be reached/).waitFor({ state: 'attached' });
    expect(await page.getByTestId('toast').filter({ hasText: 'Network Error' }).count()).toBe(0);
    expect(await pendingOf(page)).toBe(2);
    await context.close();
  }, 120_000);

  it('the offline home passes axe (contrast included) in the light and the dark theme', async () => {
    const { context, page } = await debugPage();
    await signedInOffline(page);
    await collect(page, (await planOf(1)).slice(0, 7));
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.reload();
      // The jobs tile counts the job and its other job.
      await page.getByTestId('offline-count-jobs-value').getByText('2').waitFor();
      expect(await seriousViolations(page), theme).toEqual([]);
    }
    await context.close();
  }, 120_000);

  it('a phone (360 px) shows when it is offline, and offers to upload when the network returns', async () => {
    const { context, page } = await debugPage({ viewport: { width: 360, height: 740 } });
    await signIn(page, field.userName, field.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    const indicator = page.getByTestId('network-offline');
    expect(await indicator.count()).toBe(0);

    await context.setOffline(true);
    await indicator.waitFor();
    const box = await indicator.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360 && box.y >= 0).toBe(true);
    await expect(indicator.textContent()).resolves.toBe('Offline');
    // Saved while the network is off (online mode: the data layer keeps it on the device).
    await collect(page, (await planOf(1)).slice(0, 3));
    await poll(() => pendingOf(page)).toBe(3);

    await context.setOffline(false);
    await indicator.waitFor({ state: 'detached' });
    const offer = page.getByTestId('upload-offer');
    await offer.getByText(/^The network is back\. 3 records wait on this device: upload now\?$/).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await offer.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page
      .getByTestId('upload-summary')
      .getByText(/Every record is on the server\./)
      .waitFor({ timeout: 30_000 });
    expect(await pendingOf(page)).toBe(0);
    await context.close();
  }, 120_000);
});
