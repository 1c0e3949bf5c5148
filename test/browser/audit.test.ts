// The audit log in the built app (ADR-0036): a client's change made offline shows in the client
// page's history once uploaded, with the field's label and both values; the audit screen filters,
// pages and downloads its CSV, live, and role 7 sees its organisation only; a client erased on
// the server leaves an offline device's list at the device's next pull.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { launchBrowser, newPage, signIn, type TestPage } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
const tokens: Record<string, string> = {};
const worker = { userName: 'audit-field4', password: 'field-password-4', role: 4, location: 2 };
const orgAdmin = { userName: 'audit-admin7', password: 'orgadmin-password-7', role: 7, location: 2 };
const otherWorker = { userName: 'audit-other3', password: 'other-password-3', role: 3, location: 3 };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(t.server.db);
  for (const user of [worker, orgAdmin, otherWorker]) {
    await t.createUser(user);
    tokens[user.userName] = await t.login(user.userName, user.password);
  }
  tokens.admin = await t.login(t.admin.userName, t.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

async function signedIn(user: { userName: string; password: string }): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: t.url, lang: 'en' });
  // The app's support handle (window.__icrs), to see what the device's store holds.
  await opened.context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  await signIn(opened.page, user.userName, user.password);
  await opened.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return opened;
}

/** A client of organisation 2 made on the server by the field worker. */
async function serverClient(first: string, last: string, phone: string): Promise<{ profId: string; regNo: string }> {
  const body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC'), firstName: first, lastName: last, phone };
  const made = await t.api('POST', '/profile/', { token: tokens[worker.userName], body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { profId: String(made.body.prof_Id), regNo: String(body.prof_Reg_No) };
}

/** Whether the device's store holds the client `profId` as pulled from the server: its sync
 * state, or null when the store holds none. 'no store' while the page has no store to ask (the
 * support handle is set again when the app moves between offline and online): not an answer. */
const mirrored = (page: Page, profId: string) =>
  page.evaluate(async (id) => {
    const profiles = window.__icrs?.db.collections.tbl_profiles;
    if (!profiles || profiles.closed) return 'no store';
    const doc = await profiles.findOne(id).exec();
    return doc ? doc.get('syncState') : null;
  }, profId);

async function goOffline(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
}

async function goOnline(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
  await page.waitForURL((url) => url.pathname === '/');
}

describe('audit log', () => {
  it('shows in the client page history a change made offline, once uploaded: who, the field label, before and after', async () => {
    const { profId } = await serverClient('Imani', 'Wakilongo', '+243 81 000 1111');
    const { context, page } = await signedIn(worker);
    await poll(() => mirrored(page, profId)).toBe('synced'); // the first pull
    await goOffline(page);
    await page.goto(`/profiles/${profId}`);
    await page.getByTestId('client-reg-no').waitFor();
    await page.getByRole('link', { name: 'Edit: Identity' }).click();
    await page.getByRole('textbox', { name: /^Phone/ }).fill('+243 81 000 2222');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/profiles/${profId}`);
    await goOnline(page);
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await poll(() => page.getByTestId('report-tbl_profiles-success').textContent()).toBe('1');

    await page.goto(`/profiles/${profId}`);
    await page.getByTestId('history-toggle').click();
    const change = page.getByTestId('history-entry').filter({ has: page.locator('[data-testid="history-change"][data-field="phone"]') });
    await change.waitFor();
    await expect(change.getAttribute('data-action')).resolves.toBe('update');
    await expect(change.getByTestId('history-who').textContent()).resolves.toContain(worker.userName);
    const phone = change.locator('[data-testid="history-change"][data-field="phone"]');
    await expect(phone.textContent()).resolves.toMatch(/^Phone/);
    await expect(phone.getByTestId('history-before').textContent()).resolves.toContain('000 1111');
    await expect(phone.getByTestId('history-after').textContent()).resolves.toContain('000 2222');
    // Newest first: the change comes before the creation.
    const actions = await page.getByTestId('history-entry').evaluateAll((entries) => entries.map((e) => e.getAttribute('data-action')));
    expect(actions.indexOf('update')).toBeLessThan(actions.indexOf('create'));
    await context.close();
  });

  it('filters the audit screen, downloads the CSV of what it shows, updates live, and shows role 7 its organisation only', async () => {
    const provider = sampleBody(entityByName.serviceProvider, {});
    expect((await t.api('POST', '/sproviers/', { token: tokens[otherWorker.userName], body: provider })).status).toBe(201);
    const { context, page } = await signedIn(t.admin);
    await page.goto('/audit');
    const rows = page.getByTestId('audit-grid').getByRole('row');
    await poll(() => rows.count()).toBeGreaterThan(3);

    // Filtered to the other organisation's user: that provider's creation, and nothing of others.
    await page.getByTestId('audit-filter-user').locator('[role="combobox"]').click();
    await page.getByRole('option', { name: new RegExp(otherWorker.userName) }).click();
    await poll(async () => (await page.getByTestId('audit-grid').textContent())?.includes(worker.userName)).toBe(false);
    await page.getByTestId('audit-filter-action').locator('[role="combobox"]').click();
    await page.getByRole('option', { name: 'Created', exact: true }).click();
    await poll(() => page.getByTestId('audit-record-link').count()).toBe(1);
    await expect(page.getByTestId('audit-record-link').getAttribute('title')).resolves.toBe(provider.sp_Id);

    // The CSV holds exactly what the filters keep.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-csv').click()]);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('action');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(String(provider.sp_Id));
    expect(lines[1]).toContain(otherWorker.userName);

    // Live: another creation by that user appears without a reload.
    const second = sampleBody(entityByName.serviceProvider, {});
    expect((await t.api('POST', '/sproviers/', { token: tokens[otherWorker.userName], body: second })).status).toBe(201);
    await poll(() => page.getByTestId('audit-record-link').count()).toBe(2);
    await context.close();

    // Role 7 reads its organisation's entries only: nothing of the other organisation's user.
    const org = await signedIn(orgAdmin);
    await org.page.goto('/audit');
    await org.page.getByTestId('audit-own-organisation').waitFor();
    await poll(() => org.page.getByTestId('audit-grid').getByRole('row').count()).toBeGreaterThan(1);
    expect(await org.page.getByTestId('audit-grid').textContent()).not.toContain(otherWorker.userName);
    await org.context.close();
  });

  it('drops an erased client from an offline device at its next pull', async () => {
    const { profId, regNo } = await serverClient('Tumaini', 'Kasereka', '+243 81 000 3333');
    // A client who stays: the list drawn with them is the list read after the pull.
    const stays = await serverClient('Neema', 'Baraka', '+243 81 000 4444');
    const device = await signedIn(worker);
    await poll(() => mirrored(device.page, profId)).toBe('synced');
    await poll(() => mirrored(device.page, stays.profId)).toBe('synced');
    await goOffline(device.page);
    await device.page.goto('/profiles');
    const row = device.page.getByRole('row').filter({ hasText: regNo });
    await row.waitFor({ timeout: 30_000 });

    // The organisation's administrator erases the client from the data requests screen.
    const office = await signedIn(orgAdmin);
    await office.page.goto('/audit/clients');
    await office.page.getByTestId('audit-clients-search').fill(regNo);
    const found = office.page.getByTestId('audit-client-row').filter({ hasText: regNo });
    await found.getByTestId('client-erase').click();
    const dialog = office.page.getByTestId('client-erase-dialog');
    await dialog.getByLabel('Reason').selectOption('clientRequest');
    await dialog.getByLabel('Note (optional)').fill('Asked in writing');
    await dialog.getByLabel('Your password').fill(orgAdmin.password);
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await poll(async () => (await t.api('GET', `/profile/${profId}`, { token: tokens[worker.userName] })).status).toBe(404);
    await office.context.close();

    // Still offline, the device shows it; its next pull (back online) drops it.
    await device.page.reload();
    await row.waitFor({ timeout: 30_000 });
    await goOnline(device.page);
    await poll(() => mirrored(device.page, profId)).toBe(null);
    await goOffline(device.page);
    await device.page.goto('/profiles');
    await device.page.getByRole('row').filter({ hasText: stays.regNo }).waitFor({ timeout: 30_000 });
    expect(await device.page.getByRole('row').filter({ hasText: regNo }).count()).toBe(0);
    await device.context.close();
  });
});
