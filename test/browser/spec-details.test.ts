// The spec's last details (issue 30 §7), driven in the built app: a full device said in words in
// the form, the offline switch only where the store can be kept, the offline home's client
// figures by role, the error titles of spec §8, upload progress and a record deleted on the
// server while it was edited offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn, type TestPage } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

// Organisation 2 of the seed lists (abbreviation ADC), so profiles get registration numbers.
const field = { userName: 'details4', password: 'details-password-4', role: 4, location: 2 };
const restricted = { userName: 'details6', password: 'details-password-6', role: 6, location: 2 };
const orgAdmin = { userName: 'details7', password: 'details-password-7', role: 7, location: 2 };
const reporter = { userName: 'details2', password: 'details-password-2', role: 2, location: 2 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const user of [field, restricted, orgAdmin, reporter]) await server.createUser(user);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(user: { userName: string; password: string } = field): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: server.url, lang: 'en' });
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
          if (/tbl_serviceprovider/.test(this.transaction.db.name)) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
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

describe('the offline-mode switch (spec §2 "if supported")', () => {
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
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await switchOf(page).count()).toBe(0);
      // Nor in the phone's overflow menu.
      await page.setViewportSize({ width: 360, height: 740 });
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitemcheckbox', { name: /Dark theme/ }).waitFor();
      expect(await page.getByRole('menuitemcheckbox', { name: /Offline mode/ }).count()).toBe(0);
      await context.close();
    });
  }
});

describe("the offline home's client figures (spec §6 'offline clients')", () => {
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
