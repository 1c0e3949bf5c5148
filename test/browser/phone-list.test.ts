// ADR-0024: on a phone (412 × 915, a common Android size) a list is drawn by the light phone list,
// not the MUI data grid, whose code is never asked for. The providers list shows its rows with
// the phone's columns, sorts by a tap on a header, pages, opens a provider on a tap and on
// Enter, marks a provider saved offline as not uploaded, and passes axe in both themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, saveProviderOffline, settle, signIn } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const PHONE = { width: 412, height: 915 };
/** 30 providers: two pages of the list's 25 rows. */
const NAMES = Array.from({ length: 30 }, (_, n) => `Phone Centre ${String(n + 1).padStart(2, '0')}`);
const ids = new Map<string, string>();
/** Verifies the services the administrator made: nobody verifies their own (ADR-0026). */
const verifier = { userName: 'phone-list-verifier', password: 'phone-list-verifier-pass', role: 1 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  const token = await server.login(server.admin.userName, server.admin.password);
  for (const name of NAMES) {
    const { status, body } = await server.api('POST', '/sproviers/', { token, body: { sp_Name: name, sp_type: 1, territory: 1 } });
    expect(status, JSON.stringify(body)).toBe(201);
    ids.set(name, String(body.sp_Id));
  }
  const service = {
    sp_Id: ids.get(NAMES[0] as string),
    name: 'Phone tailoring course',
    category: 1,
    serviceType: 1,
    territory: 1,
    description: 'Sewing for beginners',
  };
  const created = await server.api('POST', '/spDetail/', { token, body: service });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await server.createUser(verifier);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** A touch phone's context (taps), in English, with the scripts the page asks recorded. */
async function phone(theme: 'light' | 'dark' = 'light'): Promise<{ context: BrowserContext; page: Page; scripts: string[] }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
    serviceWorkers: 'block',
  });
  await context.addInitScript((dark) => {
    if (!localStorage.getItem('lang')) localStorage.setItem('lang', 'en');
    if (dark) localStorage.setItem('theme', 'dark');
  }, theme === 'dark');
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
  });
  return { context, page, scripts };
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Service Providers' });
const rows = (page: Page) => grid(page).locator('[role="row"][data-id]');
/** The names in the list's first column, as shown. */
const names = (page: Page) => rows(page).locator('[role="gridcell"][aria-colindex="1"]').allTextContents();

async function axeClean(page: Page, what: string): Promise<void> {
  // Away from the top bar: the button under the sign-in click shows its tooltip, fading in.
  await page.mouse.move(200, 130);
  await settle(page);
  expect(await seriousViolations(page), what).toEqual([]);
}

describe('the providers list on a phone (412 × 915)', () => {
  it('shows, sorts, pages and opens rows without the data grid', async () => {
    const { context, page, scripts } = await phone();
    await signIn(page, server.admin.userName, server.admin.password);
    await page.goto('/serviceproviders');
    await page.getByRole('heading', { name: 'Service Providers', level: 1 }).waitFor();
    await poll(() => names(page)).toEqual(NAMES.slice(0, 25));

    // The phone's columns (compactColumns: name and type), as a grid for assistive technology.
    expect(await grid(page).getByRole('columnheader').allTextContents()).toEqual(['Name', 'Type']);
    await expect(grid(page).getAttribute('aria-rowcount')).resolves.toBe('31');
    await expect(grid(page).getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).resolves.toBe('ascending');
    await expect(rows(page).first().getByRole('gridcell').nth(1).textContent()).resolves.toBe('Social');
    expect(await page.locator('.MuiDataGrid-root').count()).toBe(0);
    await axeClean(page, 'provider list on a phone');

    // A tap on the header (anywhere on it) sorts the other way, a second one back.
    await grid(page).getByRole('columnheader', { name: 'Name' }).tap();
    await poll(() => names(page)).toEqual([...NAMES].reverse().slice(0, 25));
    await expect(grid(page).getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).resolves.toBe('descending');
    await grid(page).getByRole('columnheader', { name: 'Name' }).getByRole('button').tap();
    await poll(() => names(page)).toEqual(NAMES.slice(0, 25));

    // The pager: the second page holds the last five.
    await page.getByText('1–25 of 30').waitFor();
    await page.getByRole('button', { name: 'Go to next page' }).tap();
    await poll(() => names(page)).toEqual(NAMES.slice(25));
    await page.getByText('26–30 of 30').waitFor();
    await expect(rows(page).first().getAttribute('aria-rowindex')).resolves.toBe('27');
    await page.getByRole('button', { name: 'Go to previous page' }).tap();
    await poll(() => names(page)).toEqual(NAMES.slice(0, 25));

    // One tab stop for the rows; arrow keys move between them; Enter opens the focused one.
    await rows(page).first().focus();
    await page.keyboard.press('ArrowDown');
    await expect(rows(page).nth(1).getAttribute('tabindex')).resolves.toBe('0');
    await expect(rows(page).first().getAttribute('tabindex')).resolves.toBe('-1');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/serviceproviders/${ids.get(NAMES[1] as string)}`);
    await page.getByRole('heading', { name: NAMES[1], level: 1 }).waitFor();

    // A tap on a row opens it.
    await page.goBack();
    await poll(() => names(page)).toEqual(NAMES.slice(0, 25));
    await rows(page).nth(2).tap();
    await page.waitForURL((url) => url.pathname === `/serviceproviders/${ids.get(NAMES[2] as string)}`);

    // The data grid's chunk was never asked for; the list's chunk was.
    expect(
      scripts.some((path) => /\/assets\/entity-[\w-]+\.js$/.test(path)),
      scripts.join('\n'),
    ).toBe(true);
    expect(scripts.filter((path) => path.includes('/GridView-'))).toEqual([]);

    // The same page made wide draws the data grid, which loads then: the check above names its
    // chunk rightly.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/serviceproviders');
    await page.locator('.MuiDataGrid-row').first().waitFor();
    expect(scripts.filter((path) => path.includes('/GridView-')).length).toBeGreaterThan(0);
    await context.close();
  });

  it('passes axe in the dark theme, in French', async () => {
    const { context, page, scripts } = await phone('dark');
    await context.addInitScript(() => localStorage.setItem('lang', 'fr'));
    await signIn(page, server.admin.userName, server.admin.password);
    await page.goto('/serviceproviders');
    const list = page.getByRole('grid', { name: 'Prestataires de services' });
    await list.locator('[role="row"][data-id]').first().waitFor();
    await page.getByText('1–25 sur 30').waitFor();
    await axeClean(page, 'provider list on a phone, dark, fr');
    expect(scripts.filter((path) => path.includes('/GridView-'))).toEqual([]);
    await context.close();
  });

  it('lets the buttons of a row do their own work, and a tap elsewhere on the row open it (verification)', async () => {
    const { context, page } = await phone();
    await signIn(page, verifier.userName, verifier.password);
    await page.goto('/serviceproviders/verify');
    const list = page.getByRole('grid', { name: 'Verify Services' });
    const row = list.locator('[role="row"][data-id]').filter({ hasText: 'Phone tailoring course' });
    await row.waitFor();
    expect(await list.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Decision']);
    // The reject button opens the reject dialog, not the row's review.
    await row.getByRole('button', { name: 'Reject Phone tailoring course' }).tap();
    const reject = page.getByRole('dialog', { name: 'Reject a service' });
    await reject.waitFor();
    await expect(page.getByRole('dialog', { name: 'Phone tailoring course' }).count()).resolves.toBe(0);
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await reject.waitFor({ state: 'detached' });
    // A tap on the name opens the review.
    await row.getByRole('gridcell').first().tap();
    await page.getByRole('dialog', { name: 'Phone tailoring course' }).waitFor();
    await context.close();
  });

  it('marks a provider saved offline as not uploaded', async () => {
    // Saved in offline mode on a wide screen (the offline switch is in the top bar there), then
    // listed on a phone.
    const { context, page } = await phone();
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.waitForFunction(() => localStorage.getItem('lists') !== null); // lookups for offline forms
    await saveProviderOffline(page, 'Offline Phone Centre');

    await page.setViewportSize(PHONE);
    await page.goto('/serviceproviders');
    await page.getByTestId('grid-search').fill('Offline Phone');
    await poll(() => names(page)).toEqual(['Offline Phone Centrenot uploaded']);
    await rows(page).first().getByTestId('not-uploaded').waitFor();
    expect(await page.locator('.MuiDataGrid-root').count()).toBe(0);
    await axeClean(page, 'provider list on a phone, offline, not uploaded');
    await context.close();
  });
});
