// In Chromium (ADR-0030): lookup lists (add, edit, reorder, deactivate an item, and an open form
// on another device follows through the change stream), the help pages in both languages
// signed out with their screenshots (and in the PWA precache), and Contact us from the
// configuration. axe-core light and dark, desktop and 360 px.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HELP_SCREENSHOTS } from '../../src/features/help/screenshots';
import { expectAxeClean } from '../helpers/axe';
import { newPage, signIn, startAdminSession, type AdminSession, type TestPage } from '../helpers/browser';
import type { TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
let admin: TestPage;
let adminToken: string;

const field = { userName: 'lists-field4', password: 'field-pass-4', role: 4, location: 2 };
const CONTACT = {
  name: 'ICRS programme team',
  email: 'support@programme.example.net',
  phone: '+243 81 000 0000',
  address: 'Avenue du Lac 12, Goma',
  hours: 'Mon–Fri 8:00–16:00',
};
const PHONE = { width: 360, height: 740 };

let session: AdminSession;

beforeAll(async () => {
  session = await startAdminSession({ users: [field], server: { config: { contact: CONTACT } } });
  ({ t, browser, admin, adminToken } = session);
});

afterAll(() => session?.close());

async function sectors(): Promise<{ id: number; en: string; active: boolean }[]> {
  const { body } = await t.api('GET', '/lists', { token: adminToken });
  return body.find((list: { key: string }) => list.key === 'sector').items;
}

/** The Sector choices an open job form offers now (the list is opened, read and closed). */
async function sectorChoices(page: Page, typed: string): Promise<string[]> {
  const input = page.getByRole('combobox', { name: /^Sector/ });
  await input.fill('');
  await input.fill(typed);
  await page.locator('.MuiAutocomplete-listbox, .MuiAutocomplete-noOptions').first().waitFor();
  const options = await page.getByRole('option').allTextContents();
  await input.press('Escape');
  return options;
}

async function until(check: () => Promise<boolean>, what: string, timeout = 15_000) {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('lookup lists', () => {
  it('adds, edits, reorders and deactivates an item, and an open form on another device follows', async () => {
    const fieldPage = await newPage(browser, { baseURL: t.url, lang: 'en' });
    await signIn(fieldPage.page, field.userName, field.password);
    await fieldPage.page.goto('/availablejobs/add');
    await fieldPage.page.getByRole('combobox', { name: /^Sector/ }).waitFor();
    expect(await sectorChoices(fieldPage.page, 'Renewable')).toEqual([]);

    const { page } = admin;
    await page.goto('/lists?list=sector');
    await page.getByRole('list', { name: 'Job sectors' }).waitFor();
    await page.getByRole('button', { name: 'Add an item' }).click();
    const dialog = page.getByRole('dialog', { name: 'New item' });
    await dialog.getByRole('button', { name: 'Add an item' }).click();
    await dialog.getByText('French label is required').waitFor(); // nothing sent
    await dialog.getByLabel(/^French label/).fill('Commerce');
    await dialog.getByLabel(/^English label/).fill('Renewable energy');
    await dialog.getByRole('button', { name: 'Add an item' }).click();
    await dialog.getByText('French label: another item of this list already has it').waitFor();
    await dialog.getByLabel(/^French label/).fill('Énergies renouvelables');
    await dialog.getByRole('button', { name: 'Add an item' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Renewable energy' }).waitFor();
    const added = (await sectors()).at(-1);
    expect(added).toMatchObject({ en: 'Renewable energy', active: true });

    // The field officer's open form offers it without a reload (change stream → cached lists).
    await until(
      async () => (await sectorChoices(fieldPage.page, 'Renewable')).includes('Renewable energy'),
      'the new sector in the open form',
    );

    await page.getByRole('button', { name: 'Edit Renewable energy' }).click();
    await page
      .getByRole('dialog', { name: 'Edit the item' })
      .getByLabel(/^English label/)
      .fill('Renewable energies');
    await page.getByRole('dialog', { name: 'Edit the item' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Move Renewable energies up' }).click();
    await until(async () => (await sectors()).at(-2)?.en === 'Renewable energies', 'the item one place up');
    await expectAxeClean(page, 'lists page');

    await page.getByRole('switch', { name: /^Renewable energies: active/ }).click();
    await page.getByRole('listitem').filter({ hasText: 'Renewable energies' }).getByTestId('item-inactive').waitFor();
    expect((await sectors()).find((item) => item.id === added?.id)).toMatchObject({ en: 'Renewable energies', active: false });
    await until(
      async () => !(await sectorChoices(fieldPage.page, 'Renewable')).includes('Renewable energies'),
      'the deactivated sector to leave the open form',
    );

    // The field officer reads the lists without the editing controls.
    await fieldPage.page.goto('/lists?list=sector');
    await fieldPage.page.getByRole('list', { name: 'Job sectors' }).waitFor();
    expect(await fieldPage.page.getByRole('button', { name: 'Add an item' }).count()).toBe(0);
    expect(await fieldPage.page.getByRole('list', { name: 'Job sectors' }).getByRole('switch').count()).toBe(0);
    await fieldPage.context.close();
  });

  it('is usable on a phone in the dark theme', async () => {
    const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'fr', viewport: PHONE });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(page, t.admin.userName, t.admin.password);
    // The organisations have their own screen, from the menu (not under List Management).
    await page.goto('/organisations');
    await page.getByRole('heading', { name: 'Organisations', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Organisations' }).getByText('ICRS', { exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Liste' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Ajouter un élément' }).click();
    await page
      .getByRole('dialog', { name: 'Nouvel élément' })
      .getByLabel(/^Sigle/)
      .waitFor();
    await expectAxeClean(page, 'new organisation dialog at 360 px, dark');
    await context.close();
  });
});

describe('help and contact', () => {
  it('opens the help in both languages signed out, with every screenshot, on a phone, light and dark', async () => {
    const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'en', viewport: PHONE });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Help' }).click(); // reachable before signing in
    await page.waitForURL((url) => url.pathname === '/help/en');
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Working offline, step by step' }).waitFor();
    expect(await page.locator('#help-offline ol > li').count()).toBe(8);
    expect(await page.locator('#help-roles li').count()).toBe(7);
    await page.getByRole('link', { name: 'The roles' }).click();
    await page.waitForURL((url) => url.hash === '#help-roles');
    const images = page.locator('article img');
    expect(await images.count()).toBe(HELP_SCREENSHOTS.length);
    // Images load lazily, as they are scrolled to: each is fetched here, as the page asks for it.
    for (const src of await images.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).src))) {
      const answer = await page.request.get(src);
      expect([src, answer.status(), answer.headers()['content-type']]).toEqual([src, 200, 'image/webp']);
    }
    await images.first().scrollIntoViewIfNeeded();
    await until(
      () => images.first().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
      'the first screenshot shown',
    );
    await expectAxeClean(page, 'help/en at 360 px');

    await page.getByRole('link', { name: 'Version française' }).click();
    await page.getByRole('heading', { name: 'Aide', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Travailler hors ligne, pas à pas' }).waitFor();
    const sources = await page
      .locator('article img')
      .evaluateAll((all) => all.map((img) => new URL((img as HTMLImageElement).src).pathname));
    expect(sources.every((src) => src.startsWith('/help/fr/'))).toBe(true);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await page.getByRole('heading', { name: 'Aide', level: 1 }).waitFor();
    await expectAxeClean(page, 'help/fr at 360 px, dark');
    await context.close();
  });

  it('puts every help screenshot in the precache, and the help opens signed out with no network', async () => {
    const worker = readFileSync('dist/sw.js', 'utf8');
    for (const lang of ['fr', 'en']) for (const shot of HELP_SCREENSHOTS) expect(worker).toContain(`help/${lang}/${shot.name}.webp`);

    const { context, page } = await newPage(browser, { baseURL: t.url, lang: 'fr', serviceWorkers: 'allow' });
    await page.goto('/help/fr');
    await page.getByRole('heading', { name: 'Aide', level: 1 }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload(); // now controlled by the worker
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 })
      .toBe('activated');
    await context.setOffline(true);
    await page.goto('/help/en');
    await page.getByRole('heading', { name: 'Working offline, step by step' }).waitFor();
    const shown = await page.evaluate(async () => {
      const images = [...document.querySelectorAll('article img')] as HTMLImageElement[];
      for (const img of images) img.loading = 'eager';
      await Promise.all(
        images.map((img) =>
          img.decode().then(
            () => true,
            () => false,
          ),
        ),
      );
      return images.map((img) => img.naturalWidth > 0);
    });
    expect(shown).toEqual(HELP_SCREENSHOTS.map(() => true));
    await context.close();
  }, 90_000);

  it('shows the programme contact details of the configuration under Contact us', async () => {
    const { page } = admin;
    await page.goto('/');
    await page.getByRole('button', { name: 'Contact us' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact us' });
    await dialog.getByText(CONTACT.name).waitFor();
    expect(await dialog.getByRole('link', { name: CONTACT.email }).getAttribute('href')).toBe(`mailto:${CONTACT.email}`);
    expect(await dialog.getByRole('link', { name: CONTACT.phone }).getAttribute('href')).toBe('tel:+243810000000');
    await dialog.getByText(CONTACT.address).waitFor();
    await dialog.getByText(CONTACT.hours).waitFor();
    await expectAxeClean(page, 'contact dialog');
  });
});
