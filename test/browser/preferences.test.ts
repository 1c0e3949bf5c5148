// Theme, language and mode (product.md §3, §4) and logout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn, storageItem, sessionToken } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const appBarBackground = (page: Page) =>
  page
    .locator('header')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

/** Relative luminance tells a dark surface from a light one; transparent shows the white canvas. */
function isDark(color: string): boolean {
  const [r, g, b, a = 1] = (color.match(/[\d.]+/g) ?? ['255', '255', '255']).map(Number);
  if (a === 0) return false;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 80;
}

describe('preferences', () => {
  it('keeps the dark theme across a reload and styles page and top bar', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor(); // styles applied
    expect(isDark(await background(page))).toBe(false);
    const lightBar = await appBarBackground(page);

    await page.getByRole('switch', { name: 'Dark theme' }).check();
    await expect(storageItem(page, 'theme')).resolves.toBe('dark');
    expect(isDark(await background(page))).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect(page.getByRole('switch', { name: 'Dark theme' }).isChecked()).resolves.toBe(true);
    expect(isDark(await background(page))).toBe(true);
    const darkBar = await appBarBackground(page);
    expect(darkBar).not.toBe(lightBar);
    expect(isDark(darkBar)).toBe(true);
    await context.close();
  });

  it('starts in French, switches to English with a reload and keeps it', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url }); // no stored language
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('fr');

    await signIn(page, server.admin.userName, server.admin.password);
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    await page.getByRole('combobox', { name: 'Langue' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('option', { name: 'English' }).click()]);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect(storageItem(page, 'lang')).resolves.toBe('en');

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('en');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await context.close();
  });

  it('switches to offline mode (offline home, no logout button) and back', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await expect(storageItem(page, 'mode')).resolves.toBe('offline');
    await expect(page.getByRole('button', { name: 'Log out' }).count()).resolves.toBe(0);

    // Home sends an offline user to the offline home, also after a reload.
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/offlinehp');

    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(storageItem(page, 'mode')).resolves.toBe('online');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await context.close();
  });

  it('logs out: clears token, user and lists, keeps lang and theme, back at login', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.evaluate(() => {
      localStorage.setItem('lists', '{"cached":true}');
      localStorage.setItem('theme', 'dark');
    });
    // Logout navigates, then reloads about 200 ms later (product.md §4): wait for that load.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Log out' }).click()]);
    // The reloaded '/' has no session: the app sends it to the login screen.
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await expect(sessionToken(page)).resolves.toBeNull();
    await expect(storageItem(page, 'user')).resolves.toBeNull();
    await expect(storageItem(page, 'lists')).resolves.toBeNull();
    await expect(storageItem(page, 'lang')).resolves.toBe('en');
    await expect(storageItem(page, 'theme')).resolves.toBe('dark');

    // Signed-out pages have no top bar or sidebar, and guarded pages lead back to login.
    await expect(page.getByRole('navigation', { name: 'Main menu' }).count()).resolves.toBe(0);
    await page.goto('/reports');
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '?returnUrl=%2Freports');
    await context.close();
  });
});
