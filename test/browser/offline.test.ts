// Offline mode in the browser (product.md §2.4): the mode switch, the offline home's live
// counts, reports and storage, upload, reset, the pending-records screen with export and import,
// the unsent-records warning, a full quota, and live pull replication between two browsers.
// Records are collected through the real data layer with the support handle `window.__icrs`,
// which the app installs only when localStorage.icrsDebug is '1' (the forms themselves are driven in clients, jobs and services tests).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn, storageItem, type PageOptions, type TestPage, sessionToken } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

// Organisation 2 of the seed lists (abbreviation ADC), so profiles get registration numbers.
const field = { userName: 'field4', password: 'field-password-4', role: 4, location: 2 };
const colleague = { userName: 'field5', password: 'field-password-5', role: 4, location: 2 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser(field);
  await server.createUser(colleague);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh context with the support handle enabled. */
async function debugPage(options: Partial<PageOptions> = {}): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: server.url, lang: 'en', ...options });
  await opened.context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  return opened;
}

/** Waits until the signed-in store is open and its data layer ready. */
async function storeReady(page: Page): Promise<void> {
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

async function goOffline(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await page.getByRole('heading', { name: 'Offline home' }).waitFor();
  await storeReady(page);
}

interface Collected {
  jobs: string[];
  provider: string;
  service: string;
  profile: string;
}

/** Collects 2 jobs, a provider with a service, and a client through the data layer. */
function collect(page: Page, tag: string): Promise<Collected> {
  return page.evaluate(async (suffix) => {
    const handle = window.__icrs;
    if (!handle?.data) throw new Error('no support handle');
    const { data, entities } = handle;
    const job = (title: string) => data.create(entities.job, { title, employer: 'Employer Ltd', sector: 1, territory: 1 });
    const jobA = await job(`Mason ${suffix}`);
    const jobB = await job(`Driver ${suffix}`);
    const provider = await data.create(entities.serviceProvider, { sp_Name: `Centre ${suffix}`, sp_type: 1, territory: 1 });
    const service = await data.create(entities.service, {
      sp_Id: provider.sp_Id,
      name: `Counselling ${suffix}`,
      category: 1,
      serviceType: 1,
      territory: 1,
    });
    const profile = await data.create(entities.profile, { firstName: 'Amina', lastName: suffix, sex: 'F', territory: 1, consent: true });
    return { jobs: [jobA.jb_Id, jobB.jb_Id], provider: provider.sp_Id, service: service.sp_Detail_Id, profile: profile.prof_Id };
  }, tag);
}

/** expect.poll with room for an upload or a pull to finish (its default is 1 s). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

const countOf = (page: Page, id: 'services' | 'jobs' | 'clients') => page.getByTestId(`offline-count-${id}-value`);

async function expectCounts(page: Page, services: number, jobs: number, clients: number): Promise<void> {
  await poll(() => countOf(page, 'services').textContent()).toBe(String(services));
  await poll(() => countOf(page, 'jobs').textContent()).toBe(String(jobs));
  await poll(() => countOf(page, 'clients').textContent()).toBe(String(clients));
}

describe('offline mode', () => {
  it('collects records offline, keeps them across a reload, and uploads them online', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('lists') !== null); // cached for offline forms
    await goOffline(page);
    await expectCounts(page, 0, 0, 0);
    await page.getByText('Data collected Offline').waitFor();

    const keys = await collect(page, 'upload');
    // Live: the counts follow the store without a reload.
    await expectCounts(page, 2, 2, 1);
    await page.getByTestId('offline-total').getByText('5 records are waiting to be uploaded.').waitFor();
    await expect(page.getByTestId('report-available-jobs-total').textContent()).resolves.toBe('2');

    await page.reload();
    await page.getByRole('heading', { name: 'Offline home' }).waitFor();
    await expectCounts(page, 2, 2, 1);

    // The pending-records screen lists every one, with its kind, name, operation and state.
    await page.getByRole('link', { name: /Pending records/ }).click();
    await page.getByRole('heading', { name: 'Pending records' }).waitFor();
    await poll(() => page.getByTestId('pending-row').count()).toBe(5);
    const jobRow = page.locator(`[data-testid="pending-row"][data-key="${keys.jobs[0]}"]`);
    await jobRow.getByText('Mason upload').waitFor();
    await jobRow.getByText('New').waitFor();
    await jobRow.getByText('Pending', { exact: true }).waitFor();

    // Online: a reminder on other screens leads back to the upload.
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(storageItem(page, 'mode')).resolves.toBe('online');
    await page.getByTestId('unsent-banner').getByText('5 records collected offline are not uploaded yet.').waitFor();
    await page.getByTestId('unsent-banner').getByRole('link', { name: 'Go to upload' }).click();
    await page.waitForURL((url) => url.pathname === '/offlinehp');

    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await expectCounts(page, 0, 0, 0);
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
    await poll(() => page.getByTestId('upload-percent').textContent()).toBe('5 of 5 records uploaded (100%)');
    await expect(page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).resolves.toBe('100');
    for (const [table, n] of [
      ['available-jobs', '2'],
      ['tbl_serviceprovider', '1'],
      ['tbl_sp_detail', '1'],
      ['tbl_profiles', '1'],
    ]) {
      await expect(page.getByTestId(`report-${table}-success`).textContent(), table).resolves.toBe(n);
      await expect(page.getByTestId(`report-${table}-failed`).textContent(), table).resolves.toBe('0');
    }
    await page.getByRole('button', { name: 'Upload Data online' }).waitFor(); // back once the run ends
    await page.getByTestId('toast-title').getByText('Upload finished').first().waitFor();

    // Every record is on the server, once.
    const token = await server.login(field.userName, field.password);
    for (const jb of keys.jobs) expect((await server.api('GET', `/jobs/${jb}`, { token })).status).toBe(200);
    expect((await server.api('GET', `/sproviers/${keys.provider}`, { token })).status).toBe(200);
    expect((await server.api('GET', `/spDetail/${keys.service}`, { token })).status).toBe(200);
    const profile = await server.api('GET', `/profile/${keys.profile}`, { token });
    expect(profile.status).toBe(200);
    expect(profile.body.prof_Reg_No).toMatch(/^ADC[A-Z0-9]{8}$/);
    await expect(page.getByTestId('unsent-banner').count()).resolves.toBe(0);
    await context.close();
  });

  it('resets the local database only after its confirmations', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await goOffline(page);
    await collect(page, 'reset');
    await expectCounts(page, 2, 2, 1);

    // No network: the upload says so (product.md §5, §8 wording) and sends nothing.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    const toast = page.getByTestId('toast').filter({ hasText: 'connetivity Error' });
    await toast.getByText('Internet Connectioon is not available').waitFor();
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Upload Data online' }).waitFor();
    await expectCounts(page, 2, 2, 1);

    // First question, cancelled: nothing happens.
    await page.getByRole('button', { name: 'Reset Database' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset Database' });
    await confirm.getByText('please confirm to reset the database').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectCounts(page, 2, 2, 1);

    // Confirmed, then the second, plainer warning with the count; cancelled there too.
    await page.getByRole('button', { name: 'Reset Database' }).click();
    await confirm.getByRole('button', { name: 'Reset Database' }).click();
    const warning = page.getByRole('alertdialog', { name: 'Records not uploaded will be lost' });
    await warning.getByText(/5 records collected on this device have not been uploaded/).waitFor();
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    await expectCounts(page, 2, 2, 1);

    await page.getByRole('button', { name: 'Reset Database' }).click();
    await confirm.getByRole('button', { name: 'Reset Database' }).click();
    await warning.getByRole('button', { name: 'Delete and reset' }).click();
    await expectCounts(page, 0, 0, 0);
    await expect(page.evaluate(() => window.__icrs?.countPending())).resolves.toBe(0);
    await context.close();
  });

  it('exports pending records to a file and imports them back', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await goOffline(page);
    await collect(page, 'export');
    await page.goto('/offlinehp/pending');
    await poll(() => page.getByTestId('pending-row').count()).toBe(5);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to a file' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^icrs-pending-field4-\d{8}-\d{4}\.json$/);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'icrs-export-')), download.suggestedFilename());
    await download.saveAs(file);
    // Sealed for this user's devices (ADR-0020): no record in clear.
    const content = readFileSync(file, 'utf8');
    expect(JSON.parse(content).format).toBe('icrs-pending-sealed');
    for (const clear of ['Mason export', 'Amina', 'Centre export']) expect(content).not.toContain(clear);
    await page
      .getByTestId('transfer-result')
      .getByText(/5 records exported to icrs-pending-field4-/)
      .waitFor();

    // The device is wiped (through the offline home), then the file brings the records back.
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Reset Database' }).click();
    await page.getByRole('dialog', { name: 'Reset Database' }).getByRole('button', { name: 'Reset Database' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete and reset' }).click();
    await expectCounts(page, 0, 0, 0);

    await page.getByRole('link', { name: /Pending records/ }).click();
    await page.getByTestId('pending-empty').waitFor();
    await page.getByTestId('import-input').setInputFiles(file);
    await page.getByTestId('transfer-result').getByText('5 records imported, 0 skipped (already on this device).').waitFor();
    await poll(() => page.getByTestId('pending-row').count()).toBe(5);
    // The same file again adds nothing.
    await page.getByTestId('import-input').setInputFiles(file);
    await page.getByTestId('transfer-result').getByText('0 records imported, 5 skipped (already on this device).').waitFor();
    await poll(() => page.getByTestId('pending-row').count()).toBe(5);
    await context.close();

    // Another device of the same user opens it; another user's does not.
    const other = await debugPage();
    await signIn(other.page, colleague.userName, colleague.password);
    await other.page.goto('/offlinehp/pending');
    await other.page.getByTestId('pending-empty').waitFor();
    await other.page.getByTestId('import-input').setInputFiles(file);
    await other.page
      .getByText('This file cannot be opened with your account: an export opens only for the user who made it.')
      .first()
      .waitFor();
    await poll(() => other.page.getByTestId('pending-row').count()).toBe(0);
    await other.context.close();
    const second = await debugPage();
    await signIn(second.page, field.userName, field.password);
    await second.page.goto('/offlinehp/pending');
    await second.page.getByTestId('pending-empty').waitFor();
    await second.page.getByTestId('import-input').setInputFiles(file);
    await second.page.getByTestId('transfer-result').getByText('5 records imported, 0 skipped (already on this device).').waitFor();
    await second.context.close();
  });

  it('warns before a logout while records are unsent; they wait for their own user', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await goOffline(page);
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.job, { title: 'Unsent job', employer: 'Employer Ltd', sector: 1, territory: 1 });
    });
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');

    // Cancelled: still signed in.
    await page.getByRole('button', { name: 'Log out' }).click();
    const warning = page.getByRole('alertdialog', { name: 'Log out with records not uploaded?' });
    await warning.getByText(/1 record collected on this device is not uploaded yet/).waitFor();
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    await expect(sessionToken(page)).resolves.not.toBeNull();

    // "Go to upload" leads to the offline home.
    await page.getByRole('button', { name: 'Log out' }).click();
    await warning.getByRole('button', { name: 'Go to upload' }).click();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.getByRole('heading', { name: 'Offline home' }).waitFor();

    await warning.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Log out' }).click();
    await warning.getByRole('button', { name: 'Log out anyway' }).waitFor();
    await Promise.all([page.waitForEvent('load'), warning.getByRole('button', { name: 'Log out anyway' }).click()]);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect(sessionToken(page)).resolves.toBeNull();

    // The records stay with their user (ADR-0020): another user signing in sees none of them,
    // neither on the login screen nor after, and cannot upload them.
    await expect(page.getByTestId('login-unsent').count()).resolves.toBe(0);
    await signIn(page, colleague.userName, colleague.password);
    await page.goto('/offlinehp');
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
    await expect(page.getByRole('alertdialog').count()).resolves.toBe(0);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Log out' }).click()]);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    // Their collector finds them again, and uploads them.
    await signIn(page, field.userName, field.password);
    await page.goto('/offlinehp');
    await page.getByTestId('offline-total').getByText('1 record is waiting to be uploaded.').waitFor();
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
    // Nothing pending: logout is immediate.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Log out' }).click()]);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('shows storage figures, asks for persistence, and says so plainly when the device is full', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await goOffline(page);
    const card = page.getByTestId('storage-card');
    await card.getByRole('heading', { name: 'Storage on this device' }).waitFor();
    await card.getByTestId('storage-used').waitFor();
    await card.getByTestId('storage-available').waitFor();
    await expect(card.getByTestId('storage-persist').getAttribute('data-persist')).resolves.toMatch(/^(granted|denied|unsupported)$/);

    // The device is full: IndexedDB refuses writes of the job store with the browser's
    // QuotaExceededError (simulated: headless Chromium's quota override does not reach the
    // private contexts the tests use). The save fails and the user is told plainly.
    await page.evaluate(() => {
      const proto = IDBObjectStore.prototype as unknown as Record<'put' | 'add', (...args: unknown[]) => IDBRequest>;
      for (const name of ['put', 'add'] as const) {
        const original = proto[name];
        proto[name] = function (this: IDBObjectStore, ...args: unknown[]) {
          if (/available_jobs|files/.test(this.transaction.db.name))
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          return original.apply(this, args);
        };
      }
      const { data, entities } = window.__icrs!;
      // Not awaited, as a form that forgot to catch would do: the app-wide net must still speak.
      void data!.create(entities.job, { title: 'Too big', employer: 'Employer Ltd', sector: 1, territory: 1 });
    });
    await page.getByTestId('toast-title').getByText('Storage full').waitFor();
    await page.getByText(/the last change was NOT saved/).waitFor();
    await expectCounts(page, 0, 0, 0); // nothing half-saved either
    await context.close();
  });

  it('shows failed records and their waiting children, retries and discards them', async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await goOffline(page);
    // A service whose provider exists nowhere: the server refuses it, and its apprenticeship waits.
    const keys = await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      const orphan = await data!.create(entities.service, {
        sp_Id: '01900000-0000-7000-8000-00000000dead',
        name: 'Orphan service',
        category: 1,
        serviceType: 1,
        territory: 1,
      });
      const child = await data!.create(entities.apprenticeship, { sp_d_Id: orphan.sp_Detail_Id, trade: 1 });
      return { service: orphan.sp_Detail_Id, child: child.appr_Id };
    });
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await poll(() => page.getByTestId('report-tbl_sp_detail-failed').textContent()).toBe('1');
    // The report fills table by table as the run goes: the waiting child is counted after its parent.
    await poll(() => page.getByTestId('report-tbl_apprship-skipped').textContent()).toBe('1');
    await page.getByTestId('report-tbl_sp_detail').getByRole('button', { name: '1 error' }).click();

    await page.getByRole('link', { name: /Pending records/ }).click();
    const service = page.locator(`[data-testid="pending-row"][data-key="${keys.service}"]`);
    const child = page.locator(`[data-testid="pending-row"][data-key="${keys.child}"]`);
    await poll(() => service.getAttribute('data-state')).toBe('failed');
    await service.getByText('Failed', { exact: true }).waitFor();
    await expect(service.locator('td').nth(4).textContent()).resolves.toBe('1'); // attempts
    await child.getByText('Waiting for parent').waitFor();

    // Retry one: sent alone (a run of 1 record), refused again.
    await service.getByRole('button', { name: 'Retry Orphan service' }).click();
    // A failure does not fill the bar (ADR-0023); the first run had 2 records, this one 1.
    await poll(() => page.getByTestId('upload-percent').textContent()).toBe('0 of 1 records uploaded (0%)');
    await poll(() => service.getAttribute('data-state')).toBe('failed');

    // Discarding asks first; then the child no longer waits.
    await service.getByRole('button', { name: 'Discard Orphan service' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Discard this record?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect(service.count()).resolves.toBe(1);
    await service.getByRole('button', { name: 'Discard Orphan service' }).click();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await service.waitFor({ state: 'detached' });
    await poll(() => child.getAttribute('data-state')).toBe('pending');
    await context.close();
  });

  it("settles a conflict: keep mine, or take the server's copy", async () => {
    const { context, page } = await debugPage();
    await signIn(page, field.userName, field.password);
    await storeReady(page);
    const token = await server.login(field.userName, field.password);
    // Saved online (a synced copy on the device), edited offline, changed on the server meanwhile.
    const key = await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      return (await data!.create(entities.job, { title: 'Shared job', employer: 'Employer Ltd', sector: 1, territory: 1 })).jb_Id;
    });
    const editOffline = (title: string) =>
      page.evaluate(
        async ([id, t]) => {
          const { data, entities } = window.__icrs!;
          await data!.update(entities.job, id, { title: t });
        },
        [key, title] as const,
      );
    const uploadToConflict = async () => {
      await page.goto('/offlinehp');
      await page.getByRole('button', { name: 'Upload Data online' }).click();
      await page.getByRole('link', { name: /Pending records/ }).click();
      const row = page.locator(`[data-testid="pending-row"][data-key="${key}"]`);
      await poll(() => row.getAttribute('data-state')).toBe('conflict');
      await row.getByText('Conflict', { exact: true }).waitFor();
      return row;
    };

    await goOffline(page);
    await editOffline('Mine');
    expect((await server.api('PUT', `/jobs/${key}`, { token, body: { title: 'Theirs' } })).status).toBe(200);
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    let row = await uploadToConflict();
    await row.getByRole('button', { name: 'Keep my version of Mine' }).click();
    await row.waitFor({ state: 'detached' });
    await poll(async () => (await server.api('GET', `/jobs/${key}`, { token })).body.title).toBe('Mine');

    await goOffline(page);
    await editOffline('Mine again');
    expect((await server.api('PUT', `/jobs/${key}`, { token, body: { title: 'Theirs again' } })).status).toBe(200);
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    row = await uploadToConflict();
    await row.getByRole('button', { name: "Take the server's copy of Mine again" }).click();
    await page.getByRole('alertdialog', { name: "Take the server's copy" }).getByRole('button', { name: "Take the server's copy" }).click();
    await row.waitFor({ state: 'detached' });
    expect((await server.api('GET', `/jobs/${key}`, { token })).body.title).toBe('Theirs again');
    // The server's copy comes back to the device with the next pull.
    await expect
      .poll(
        () => page.evaluate(async (id) => (await window.__icrs!.db.collections.available_jobs!.findOne(id).exec())?.get('title'), key),
        { interval: 250, timeout: 20_000 },
      )
      .toBe('Theirs again');
    await context.close();
  });

  it('mirrors a record saved in one browser into another without a reload', async () => {
    const a = await debugPage();
    const b = await debugPage();
    await signIn(a.page, field.userName, field.password);
    await signIn(b.page, colleague.userName, colleague.password);
    await Promise.all([storeReady(a.page), storeReady(b.page)]);

    const key = await a.page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      const job = await data!.create(entities.job, { title: 'Live job', employer: 'Employer Ltd', sector: 1, territory: 1 });
      return job.jb_Id;
    });
    // Saved online: it went to the server at once (no pending copy left in A).
    await expect(a.page.evaluate(() => window.__icrs!.countPending())).resolves.toBe(0);

    // B learns of it over /api/sync/stream and pulls it, without a reload.
    // Polled from here: page.waitForFunction takes an async predicate's promise as a truthy
    // answer at once (it returned before the job had arrived in about half the runs).
    await expect
      .poll(
        () =>
          b.page.evaluate(async (id) => {
            const doc = await window.__icrs!.db.collections.available_jobs!.findOne(id).exec();
            return doc === null ? null : [doc.get('syncState'), doc.get('title')];
          }, key),
        { interval: 250, timeout: 20_000 },
      )
      .toEqual(['synced', 'Live job']);
    // Exactly once.
    expect(
      await b.page.evaluate(
        async () => (await window.__icrs!.db.collections.available_jobs!.find({ selector: { title: 'Live job' } }).exec()).length,
      ),
    ).toBe(1);
    await a.context.close();
    await b.context.close();
  });
});
