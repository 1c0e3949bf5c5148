// The administrator's side of a field worker's caseload (docs/product.md §6.5.1) in Chromium:
// an administrator gives a field worker a territory on the user form, sees before saving what
// the change adds to the worker's device, saves, and sees the device's new size on the user's
// page; the user list shows the territory. An organisation administrator reads the same in
// French, and the preview of taking the territory away; then moves the worker's clients to a
// colleague from the worker's page, on a phone in the dark theme. Once in English, once in French.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { expectAxeClean } from '../helpers/axe';
import { launchBrowser, newPage, signIn, type TestPage } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
const pages: TestPage[] = [];

const A = 2; // 'ADC'
const worker = { userName: 'terr-worker3', password: 'terr-worker-pass-3', role: 3, location: A, fullName: 'Bora Kasongo' };
const office = { userName: 'terr-office5', password: 'terr-office-pass-5', role: 5, location: A };
const orgAdmin = { userName: 'terr-admin7', password: 'terr-admin-pass-7', role: 7, location: A };
const colleague = { userName: 'terr-colleague3', password: 'terr-colleague-pass-3', role: 3, location: A, fullName: 'Neema Mbuyi' };
const T1 = 1;
const T2 = 2;
let workerId = '';
let territory2 = { en: '', fr: '' };

async function newClient(token: string, territory: number): Promise<void> {
  const client = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC'), territory };
  const r = await t.api('POST', '/profile/', { token, body: client });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

async function opened(
  user: { userName: string; password: string },
  lang: 'en' | 'fr',
  look: { viewport?: { width: number; height: number }; dark?: boolean } = {},
): Promise<TestPage> {
  const page = await newPage(browser, { baseURL: t.url, lang, viewport: look.viewport });
  if (look.dark) await page.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  pages.push(page);
  await signIn(page.page, user.userName, user.password);
  await page.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return page;
}

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(t.server.db);
  for (const user of [worker, office, orgAdmin, colleague]) await t.createUser(user);
  const workerToken = await t.login(worker.userName, worker.password);
  const officeToken = await t.login(office.userName, office.password);
  workerId = String(
    (await t.api('GET', `/users?q=${worker.userName}`, { token: await t.login(t.admin.userName, t.admin.password) })).body.rows[0].userId,
  );
  // Two clients the worker registered (theirs), three of T2 registered by the office.
  for (let i = 0; i < 2; i++) await newClient(workerToken, T1);
  for (let i = 0; i < 3; i++) await newClient(officeToken, T2);
  const [list] = await t.server.db.query<{ items: { id: number; en: string; fr: string }[] }>(
    `SELECT "items" FROM "lists" WHERE "key" = 'territory'`,
  );
  const item = list?.items.find((i) => i.id === T2);
  if (!item) throw new Error('no territory 2 in the seeded list');
  territory2 = { en: item.en, fr: item.fr };
}, 120_000);

afterAll(async () => {
  for (const p of pages) await p.context.close().catch(() => undefined);
  await browser?.close();
  await t?.close();
});

describe("a field worker's territories and device size", () => {
  it('an administrator gives a territory, sees what it adds before saving, saves, and sees the device size (English)', async () => {
    const { page } = await opened(t.admin, 'en');
    await page.goto(`/users/edit/${workerId}`);
    await page.getByRole('heading', { name: `Edit user: ${worker.fullName}` }).waitFor();
    const device = page.getByTestId('device-caseload');
    await device.getByText("On this field worker's device").waitFor();
    await page
      .getByTestId('caseload-figures')
      .getByText(/^2 clients, \d+ records, about [\d.]+ MB$/)
      .waitFor();
    expect(await page.getByTestId('caseload-preview').count()).toBe(0);

    await page.getByLabel(/^Territories/).click();
    await page.getByRole('option', { name: territory2.en, exact: true }).click();
    await page.keyboard.press('Escape');
    const preview = page.getByTestId('caseload-preview');
    await preview.getByText(/^The device gets 3 clients more \(\d+ records, about [\d.]+ MB\)\.$/).waitFor();
    await preview.getByText(/^After the change: 5 clients/).waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByTestId('caseload-figures')
      .getByText(/^5 clients, /)
      .waitFor();
    await page.getByTestId('caseload-figures').getByText('Kept by hand: 0 · assigned: 2 · of their territories: 3').waitFor();
    expect(await page.getByTestId('caseload-preview').count()).toBe(0);
    const { body } = await t.api('GET', `/users/${workerId}`, { token: await t.login(t.admin.userName, t.admin.password) });
    expect(body.territories).toEqual([T2]);

    // The user list names the territory.
    await page.goto('/users');
    await page.getByRole('grid', { name: 'User Management' }).getByText(territory2.en, { exact: true }).waitFor();
  });

  it('an organisation administrator reads the device size in French and sees what taking the territory away removes', async () => {
    const { page } = await opened(orgAdmin, 'fr');
    await page.goto(`/users/edit/${workerId}`);
    await page.getByTestId('device-caseload').getByText("Sur l'appareil de cet agent de terrain").waitFor();
    await page
      .getByTestId('caseload-figures')
      .getByText(/^5 clients, \d+ enregistrements, environ [\d,]+ Mo$/)
      .waitFor();
    // Take the territory away: its chip's delete icon.
    await page.locator('.MuiChip-root', { hasText: territory2.fr }).locator('.MuiChip-deleteIcon').click();
    await page
      .getByTestId('caseload-preview')
      .getByText(/^L'appareil perd 3 clients \(\d+ enregistrements, environ [\d,]+ Mo\) à sa prochaine synchronisation\./)
      .waitFor();
    // Not saved: the worker keeps the territory.
    const { body } = await t.api('GET', `/users/${workerId}`, { token: await t.login(t.admin.userName, t.admin.password) });
    expect(body.territories).toEqual([T2]);
  });
  it("an organisation administrator moves the worker's clients to a colleague, on a phone in the dark theme (French)", async () => {
    const { page } = await opened(orgAdmin, 'fr', { viewport: { width: 360, height: 740 }, dark: true });
    const admin = await t.login(t.admin.userName, t.admin.password);
    const assignedTo = async (userId: string) =>
      (
        await t.server.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "tbl_profiles" WHERE "assignedTo" = $1 AND "erasedAt" IS NULL`,
          [userId],
        )
      )[0]?.n;
    const colleagueId = String((await t.api('GET', `/users?q=${colleague.userName}`, { token: admin })).body.rows[0].userId);
    expect(await assignedTo(workerId)).toBe(2);
    await page.goto(`/users/edit/${workerId}`);
    const panel = page.getByTestId('move-caseload');
    await panel.getByText(`2 clients sont attribués à ${worker.fullName}.`, { exact: false }).waitFor();
    await panel.getByTestId('move-caseload-open').click();
    const dialog = page.getByTestId('move-dialog');
    await dialog.getByRole('heading', { name: `Confier les 2 clients de ${worker.fullName}` }).waitFor();
    await dialog.getByTestId('move-worker').getByRole('combobox').click();
    await page.getByRole('option', { name: colleague.fullName }).click();
    // What it adds to the colleague's device, before anything moves.
    await dialog
      .getByTestId('move-preview')
      .getByText(
        new RegExp(`^Cela ajoute 2 clients \\(\\d+ enregistrements, environ [\\d,]+ Mo\\) à l'appareil de ${colleague.fullName}\\.`),
      )
      .waitFor();
    expect(await assignedTo(colleagueId)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'nothing wider than 360 px').toBe(
      true,
    );
    await expectAxeClean(page, 'move dialog, phone, dark, French');
    await dialog.getByTestId('move-confirm').click();
    await page.getByText(`2 clients confiés à ${colleague.fullName}.`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The figures are read again: nothing left to move (the panel goes), none assigned on the
    // worker's device, both with the colleague.
    await panel.waitFor({ state: 'detached' });
    await page
      .getByTestId('device-caseload')
      .getByText(/· attribués : 0 ·/)
      .waitFor();
    expect(await assignedTo(workerId)).toBe(0);
    expect(await assignedTo(colleagueId)).toBe(2);
  });
});
