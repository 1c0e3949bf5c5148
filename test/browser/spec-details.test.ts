// The spec's last details (ADR-0025), driven in the built app: a full device said in words in
// the form, the offline switch only where the store can be kept, the offline home's client
// figures by role, the error titles of product.md §8, upload progress and a record deleted on the
// server while it was edited offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { launchBrowser, newPage, signIn, type TestPage } from '../helpers/browser';
import { ensureOrganisations, multipartRequest, PNG_1PX } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let token: string;

// Organisation 2 of the seed lists (abbreviation ADC), so profiles get registration numbers.
const field = { userName: 'details4', password: 'details-password-4', role: 4, location: 2 };
const restricted = { userName: 'details6', password: 'details-password-6', role: 6, location: 2 };
const orgAdmin = { userName: 'details7', password: 'details-password-7', role: 7, location: 2 };
const reporter = { userName: 'details2', password: 'details-password-2', role: 2, location: 2 };
const deleter = { userName: 'details3', password: 'details-password-3', role: 3, location: 2, fullName: 'Aline Deleter' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const user of [field, restricted, orgAdmin, reporter, deleter]) await server.createUser(user);
  token = await server.login(field.userName, field.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** expect.poll with room for a page load under load (its default is 1 s). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** Toasts now shown under `title`. */
const toasts = (page: Page, title: string) =>
  page.getByTestId('toast').filter({ has: page.getByTestId('toast-title').getByText(title, { exact: true }) });

/** Two frames: what a settled state draws (a toast enqueued with it) is on the screen. */
const frames = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

async function open(user: { userName: string; password: string } = field, lang: 'en' | 'fr' = 'en'): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: server.url, lang });
  await signIn(opened.page, user.userName, user.password);
  // Lookup lists are cached at sign-in: the offline forms read them.
  await opened.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return opened;
}

async function pick(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('a full device', () => {
  it("says so in the form's error box, in words, not as a field to correct", async () => {
    const { context, page } = await open();
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.goto('/serviceproviders/add');
    await page.getByRole('textbox', { name: 'Name' }).fill('Centre on a full phone');
    await pick(page, 'Type', 'Education');
    await page.getByRole('combobox', { name: 'Territory' }).fill('Beni');
    await page.getByRole('option', { name: 'Beni', exact: true }).click();

    // The device is full: IndexedDB refuses the provider store's writes with the browser's
    // QuotaExceededError (simulated, as in offline.test.ts).
    await page.evaluate(() => {
      const proto = IDBObjectStore.prototype as unknown as Record<'put' | 'add', (...args: unknown[]) => IDBRequest>;
      for (const name of ['put', 'add'] as const) {
        const original = proto[name];
        proto[name] = function (this: IDBObjectStore, ...args: unknown[]) {
          if (/tbl_serviceprovider/.test(this.transaction.db.name))
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return original.apply(this, args);
        };
      }
    });
    await page.getByRole('button', { name: 'Save' }).click();
    const box = page.getByTestId('form-storage-full');
    await box.getByText('Storage full').waitFor();
    await box.getByText(/This device has no space left: the last change was NOT saved/).waitFor();
    await page.getByTestId('toast-title').getByText('Storage full').waitFor();
    expect(await page.getByText(/Please correct/).count()).toBe(0);
    expect(await page.getByText(/QuotaExceededError/).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/serviceproviders/add'); // nothing saved: the form stays
    await context.close();
  });
});

describe('the offline-mode switch (product.md §2 "if supported")', () => {
  const switchOf = (page: Page) => page.getByRole('switch', { name: 'Offline mode' });

  it('shows where the browser can keep the store', async () => {
    const { context, page } = await open();
    await switchOf(page).waitFor();
    await context.close();
  });

  for (const [name, script] of [
    ['has no IndexedDB', () => Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true })],
    [
      'refuses to open a database (a private mode)',
      () => {
        IDBFactory.prototype.open = function () {
          throw new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError');
        };
      },
    ],
  ] as const) {
    it(`is not offered where the browser ${name}`, async () => {
      const opened = await newPage(browser, { baseURL: server.url, lang: 'en' });
      const { context, page } = opened;
      await context.addInitScript(script);
      await signIn(page, field.userName, field.password);
      // The signed-in top bar is drawn (its theme switch), and the offline switch is not there.
      await page.getByRole('switch', { name: 'Dark theme' }).waitFor();
      // The probe answers within a task of the first draw: two frames later its answer is shown.
      await frames(page);
      expect(await switchOf(page).count()).toBe(0);
      // Nor in the phone's overflow menu.
      await page.setViewportSize({ width: 360, height: 740 });
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitemcheckbox', { name: /Dark theme/ }).waitFor();
      expect(await page.getByRole('menuitemcheckbox', { name: /Offline mode/ }).count()).toBe(0);
      expect(await switchOf(page).count()).toBe(0);
      await context.close();
    });
  }
});

describe("the offline home's client figures (product.md §6 'offline clients')", () => {
  for (const [user, clients] of [
    [field, true],
    [restricted, false],
    [orgAdmin, false],
    [reporter, false],
  ] as const) {
    it(`are ${clients ? '' : 'not '}shown to role ${user.role}`, async () => {
      const { context, page } = await open(user);
      await page.goto('/offlinehp');
      await page.getByTestId('offline-count-services-value').getByText('0').waitFor();
      await page.getByTestId('offline-count-jobs-value').getByText('0').waitFor();
      expect(await page.getByTestId('offline-count-clients').count()).toBe(clients ? 1 : 0);
      await context.close();
    });
  }
});

describe('the error titles of product.md §8', () => {
  async function serverClient(): Promise<string> {
    const body: Record<string, unknown> = {
      ...sampleBody(entityByName.profile, {}),
      prof_Reg_No: registrationNumber('ADC'),
      firstName: 'Neema',
      lastName: 'Kavira',
    };
    const made = await server.api('POST', '/profile/', { token, body });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return String(body.prof_Id);
  }

  it("'Overall Save Profile Error' when a client's save fails as a whole", async () => {
    const profId = await serverClient();
    const { context, page } = await open();
    await page.route(new RegExp(`/api/profile/${profId}$`), (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' }),
          })
        : route.fallback(),
    );
    await page.goto(`/profiles/edit/${profId}?step=identity`);
    await page.getByRole('textbox', { name: /^Address/ }).fill('Typed while the server fails');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toasts(page, 'Overall Save Profile Error').getByText('The client was not saved; nothing was stored.').waitFor();
    await page.getByTestId('client-save-error').waitFor();
    await context.close();
  });

  it("'Job Sync Error' and 'Profile Sync Error' when the pull of that kind fails, once each", async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    const refuse = (route: import('playwright-core').Route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Feed unavailable' }),
      });
    await page.route(/\/api\/sync\/available-jobs(\?|$)/, refuse);
    await page.route(/\/api\/sync\/(tbl_profiles|tbl_skills)(\?|$)/, refuse);
    await signIn(page, field.userName, field.password);
    await toasts(page, 'Job Sync Error')
      .getByText(/Feed unavailable/)
      .waitFor();
    await toasts(page, 'Profile Sync Error')
      .getByText(/Feed unavailable/)
      .waitFor();
    // Two failing client tables, one toast; the other kinds pulled without a word.
    expect(await toasts(page, 'Profile Sync Error').count()).toBe(1);
    expect(await toasts(page, 'Interceptor Error').count()).toBe(0);
    await context.close();
  });

  it('is translated: the French title of a failed job pull', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'fr' });
    await page.route(/\/api\/sync\/available-jobs(\?|$)/, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"statusCode":503,"message":"Flux indisponible"}' }),
    );
    await signIn(page, field.userName, field.password);
    await toasts(page, 'Erreur de synchronisation des emplois')
      .getByText(/Flux indisponible/)
      .waitFor();
    await context.close();
  });

  it("'error loading offline stats' when the offline home cannot count the device's records", async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, field.userName, field.password);
    // The device's store refuses to count (a broken or evicted IndexedDB).
    await context.addInitScript(() => {
      IDBIndex.prototype.count = function () {
        throw new DOMException('The database connection is closing.', 'InvalidStateError');
      };
    });
    await page.goto('/offlinehp');
    await toasts(page, 'error loading offline stats')
      .getByText(/could not be counted/)
      .waitFor();
    await context.close();
  });

  it("'Error getting image2' and 'Error getting SP image3', once per page, besides the mark in place", async () => {
    const jobBody = sampleBody(entityByName.job, {});
    const job = await multipartRequest(server, 'POST', '/jobs/', token, jobBody, { jb_img2: PNG_1PX });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const provider = sampleBody(entityByName.serviceProvider, {});
    expect((await server.api('POST', '/sproviers/', { token, body: provider })).status).toBe(201);
    const serviceBody: Record<string, unknown> = { ...sampleBody(entityByName.service, {}), sp_Id: provider.sp_Id };
    const service = await multipartRequest(server, 'POST', '/spDetail/', token, serviceBody, { sp_img3: PNG_1PX });
    expect(service.status, JSON.stringify(service.body)).toBe(201);

    const { context, page } = await open();
    let asked = 0;
    await page.route(/\/api\/imgs\/getById/, (route) => {
      asked += 1;
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"statusCode":500,"message":"Image store unavailable"}',
      });
    });
    await page.goto(`/availablejobs/${String(jobBody.jb_Id)}`);
    await toasts(page, 'Error getting image2').getByText('Image store unavailable').waitFor();
    await page.getByTestId('job-images').getByText('Not available offline').waitFor();
    // Opened larger, the image fails again: the mark shows, the toast does not repeat.
    await page.getByRole('button', { name: 'Show image 1 larger' }).click();
    await page.getByTestId('job-image-large').getByText('Not available offline').waitFor();
    await poll(() => asked).toBeGreaterThanOrEqual(2);
    await frames(page);
    expect(await toasts(page, 'Error getting image2').count()).toBe(1);
    await page.keyboard.press('Escape');

    await page.goto(`/serviceproviders/services/${String(serviceBody.sp_Detail_Id)}`);
    await toasts(page, 'Error getting SP image3').getByText('Image store unavailable').waitFor();
    await page.locator('[data-testid="service-image"][data-slot="sp_img3"]').getByText('Not available offline').waitFor();
    await context.close();
  });
});

describe('a client file sent online (product.md §7: PUT /profile/images/{id} with progress events)', () => {
  it('shows how much of it is sent while it uploads', async () => {
    const body: Record<string, unknown> = {
      ...sampleBody(entityByName.profile, {}),
      prof_Reg_No: registrationNumber('ADC'),
      firstName: 'Furaha',
      lastName: 'Mumbere',
    };
    expect((await server.api('POST', '/profile/', { token, body })).status).toBe(201);
    const profId = String(body.prof_Id);
    // A scanned identity document of 1 MB, sent over a slow uplink (200 kB/s): seen going.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), Buffer.alloc(1024 * 1024, 0x20), Buffer.from('\n%%EOF\n', 'latin1')]);

    const { context, page } = await open();
    await page.goto(`/profiles/edit/${profId}?step=files`);
    await page.getByTestId('file-input-idDocument').setInputFiles({ name: 'id-card.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByTestId('file-slot-idDocument').getByText('id-card.pdf').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 200 * 1024,
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const progress = page.getByTestId('file-upload-progress');
    await progress.getByText(/^Sending to the server \(Identity document\): \d+%$/).waitFor();
    const bar = progress.getByRole('progressbar', { name: /Identity document/ });
    // Part of the file is sent, not all of it yet: the bar moves with the bytes.
    await poll(async () => Number((await bar.getAttribute('aria-valuenow').catch(() => null)) ?? -1)).toBeGreaterThan(0);
    const partway = Number(await bar.getAttribute('aria-valuenow').catch(() => 100));
    expect(partway).toBeLessThan(100);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await page.waitForURL((url) => url.pathname === `/profiles/${profId}`);
    expect(await progress.count()).toBe(0);
    const files = await server.api('GET', `/profile/images/${profId}`, { token });
    expect(files.body.map((row: { img_for: string }) => row.img_for)).toEqual(['idDocument']);
    await context.close();
  });
});

describe('an offline edit of a record deleted on the server meanwhile', () => {
  it('says so on the pending page, with when, by whom and why, and offers Export and Discard, not Retry', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
    await signIn(page, field.userName, field.password);
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    // Saved online (a synced copy on the device), then edited offline.
    const key = await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      return (await data!.create(entities.serviceProvider, { sp_Name: 'Centre Tumaini', sp_type: 1, territory: 1 })).sp_Id;
    });
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    await page.evaluate(async (id) => {
      const { data, entities } = window.__icrs!;
      await data!.update(entities.serviceProvider, id, { sp_Name: 'Centre Tumaini (new phone)' });
    }, key);
    // Meanwhile a colleague deletes it on the server, with a reason.
    const gone = await server.api('POST', `/sproviers/delete/${key}`, {
      token: await server.login(deleter.userName, deleter.password),
      body: { reason: 'Closed for good', password: deleter.password },
    });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);

    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    // The upload's summary names it.
    await page
      .getByTestId('upload-summary')
      .getByText(/Deleted on the server meanwhile, so not sent: Service provider “Centre Tumaini \(new phone\)”/)
      .waitFor();
    // Named once, in sentences: the server's 404 text is not repeated after it.
    const summaryText = (await page.getByTestId('upload-summary').textContent()) ?? '';
    expect(summaryText).not.toContain('This record was deleted on the server');
    expect(summaryText).toMatch(/pending records\. 1 record is kept on this device/);

    await page.getByRole('link', { name: /Pending records/ }).click();
    const row = page.locator(`[data-testid="pending-row"][data-key="${key}"]`);
    await poll(() => row.getAttribute('data-state')).toBe('deleted');
    await row.getByText('Deleted on the server', { exact: true }).waitFor();
    const said = (await row.getByTestId('pending-error').textContent()) ?? '';
    expect(said).toMatch(/^Deleted on the server on .+ by Aline Deleter: your change cannot be sent\. Reason: Closed for good$/);
    expect(said).not.toContain('No record with this id');
    expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);

    // Export keeps a copy (the pending records' file, this one in it), then Discard drops it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export Centre Tumaini (new phone) to a file, with the other pending records' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^icrs-pending-details4-.*\.json$/);
    await row.getByRole('button', { name: 'Discard Centre Tumaini (new phone)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });
});
