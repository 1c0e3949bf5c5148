// Sidebar menus per role (product.md §6, via schemas/roles.ts) and the phone-width drawer (product.md §2, §9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, linkNames, newPage, signIn } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

// Expected menu entries per role, in sidebar order, written out from product.md §6 / product.md §D4.
const EXPECTED_MENU: Record<number, string[]> = {
  1: [
    'User Management',
    'Organisations',
    'List Management',
    'Audit log',
    'Change Password',
    'Service Provider List',
    'Services',
    'Verify Services',
    'Rejected Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Client List',
    'Add Clients',
    'Referrals',
    'Reports',
    'Help',
  ],
  2: ['Change Password', 'Reports', 'Help'],
  3: [
    'Change Password',
    'Service Provider List',
    'Services',
    'Verify Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Client List',
    'Add Clients',
    'Referrals',
    'Help',
  ],
  4: [
    'Change Password',
    'Service Provider List',
    'Services',
    'Verify Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Client List',
    'Add Clients',
    'Referrals',
    'Help',
  ],
  5: [
    'Change Password',
    'Service Provider List',
    'Services',
    'Verify Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Client List',
    'Add Clients',
    'Referrals',
    'Help',
  ],
  6: [
    'Change Password',
    'Service Provider List',
    'Services',
    'Rejected Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Help',
  ],
  7: [
    'User Management',
    'Audit log',
    'Change Password',
    'Service Provider List',
    'Services',
    'Verify Services',
    'Rejected Services',
    'Add Service Provider',
    'Available Jobs',
    'Add Available Jobs',
    'Help',
  ],
};

const password = 'role-user-password-1';
const userName = (role: number, location: number) => `menu-role${role}-loc${location}`;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  for (const role of Object.keys(EXPECTED_MENU).map(Number)) {
    await server.createUser({ userName: userName(role, 1), password, role, location: 1 });
  }
  await server.createUserWithoutOrganisation({ userName: userName(3, 0), password, role: 3 }); // made before organisations were required (ADR-0007)
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

/** Menu link names (as announced) without the profile link and without badge counts such as
 * " (3 pending)". */
async function menuEntries(page: Page): Promise<string[]> {
  await mainMenu(page).getByRole('link').first().waitFor({ state: 'attached' });
  const names = await linkNames(mainMenu(page));
  return names.filter((name) => !name.startsWith('My profile')).map((name) => name.replace(/ \(.*\)$/, ''));
}

describe('sidebar menus by role', () => {
  for (const [role, expected] of Object.entries(EXPECTED_MENU)) {
    it(`role ${role} sees exactly its menus`, async () => {
      const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
      await signIn(page, userName(Number(role), 1), password);
      expect(await menuEntries(page)).toEqual(expected);
      await context.close();
    });
  }

  it('hides Add Clients from a user without an organisation (location 0)', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, userName(3, 0), password);
    const entries = await menuEntries(page);
    expect(entries).toContain('Client List');
    expect(entries).not.toContain('Add Clients');
    await context.close();
  });

  it('shows the dashboard tiles by role (role 6: no Clients or Referrals tile)', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, userName(6, 1), password);
    await page.getByTestId('tile-services').waitFor();
    await expect(page.getByTestId('tile-clients').count()).resolves.toBe(0);
    await expect(page.getByTestId('tile-referrals').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'More info: Services' }).waitFor();
    // Counts come from GET /api/stats/gen: an empty database gives 0, not the '–' placeholder.
    await page.getByTestId('tile-services-count').getByText('0', { exact: true }).waitFor();
    await page.getByTestId('tile-jobs-count').getByText('0', { exact: true }).waitFor();
    await context.close();
  });

  it('collapsed by default on a desktop, labels shown when expanded', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    const label = page.getByRole('navigation', { name: 'Main menu' }).getByText('Reports', { exact: true });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(label.evaluate((el) => getComputedStyle(el.closest('.MuiListItemText-root') ?? el).opacity)).resolves.toBe('0');
    await toggle.click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await page.waitForFunction(() => {
      const text = [...document.querySelectorAll('nav .MuiListItemText-root')].find((el) => el.textContent === 'Reports');
      return text !== undefined && getComputedStyle(text).opacity === '1';
    });
    await context.close();
  });
});

describe('screens asked ahead', () => {
  it('a menu link pointed at or focused loads its screen before the click, which then draws it without a loading bar', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, userName(4, 1), password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const screenChunk = (name: string) =>
      page.waitForRequest((request) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(new URL(request.url()).pathname), {
        timeout: 10_000,
      });

    const jobs = screenChunk('jobs');
    await mainMenu(page).getByRole('link', { name: 'Available Jobs', exact: true }).hover();
    await jobs; // asked on hover: nothing was clicked

    const clients = screenChunk('clients');
    await mainMenu(page).getByRole('link', { name: 'Client List', exact: true }).focus();
    await clients; // and on keyboard focus
    await page.waitForLoadState('networkidle');

    const bars: number[] = [];
    await page.exposeFunction('__noteBar', () => bars.push(1));
    await page.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('.MuiLinearProgress-root[aria-label="…"]')) (window as unknown as { __noteBar: () => void }).__noteBar();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await mainMenu(page).getByRole('link', { name: 'Client List', exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    expect(bars).toEqual([]); // the route's loading bar never showed
    await context.close();
  });
});

describe('sidebar accessibility', () => {
  /** A pending service so that the Verify Services badge shows a count. */
  async function seedPendingService(): Promise<void> {
    const token = await server.login(server.admin.userName, server.admin.password);
    const provider = await server.api('POST', '/sproviers/', { token, body: { sp_Name: 'Badge provider', sp_type: 1, territory: 1 } });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const body = {
      sp_Id: provider.body.sp_Id,
      name: 'Badge service',
      category: 1,
      serviceType: 1,
      territory: 1,
      description: 'Pending review',
    };
    const created = await server.api('POST', '/spDetail/', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }

  it('names each link by its visible text (badge count in words), mini and expanded, in both languages and themes', async () => {
    await seedPendingService();
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    const verify = mainMenu(page).getByRole('link', { name: /^Verify Services \(\d+ pending\)$/ });
    await verify.waitFor(); // the badge counts arrive 500 ms after start
    const names = await linkNames(mainMenu(page));
    expect(names[0]).toBe('My profile: admin Administrator');
    expect(names).toContain('Reports');
    // No link carries an aria-label that could differ from what is shown.
    await expect(mainMenu(page).locator('a[aria-label]').count()).resolves.toBe(0);
    expect(await seriousViolations(page), 'mini sidebar').toEqual([]);

    // The mini variant's tooltip describes the link; it does not rename it.
    await verify.hover();
    await expect(page.getByRole('tooltip').textContent()).resolves.toMatch(/^Verify Services \(\d+ pending\)$/);
    await expect(linkNames(mainMenu(page))).resolves.toEqual(names);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    await expect(linkNames(mainMenu(page))).resolves.toEqual(names);
    expect(await seriousViolations(page), 'expanded sidebar').toEqual([]);

    await context.close();

    // French, dark theme.
    const fr = await newPage(browser, { baseURL: server.url, lang: 'fr' });
    await fr.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(fr.page, server.admin.userName, server.admin.password);
    const menu = fr.page.getByRole('navigation', { name: 'Menu principal' });
    await menu.getByRole('link', { name: /\(\d+ en attente\)$/ }).waitFor();
    expect((await linkNames(menu))[0]).toBe('Mon profil : admin Administrateur');
    expect(await seriousViolations(fr.page), 'mini sidebar (fr, dark)').toEqual([]);
    await fr.context.close();
  });
});

describe('phone width (360 px)', () => {
  it('opens the drawer, closes it on a content click and after choosing an item', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', viewport: { width: 360, height: 740 } });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.isVisible()).resolves.toBe(false);
    // Nothing sticks out sideways at 360 px.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.waitFor({ state: 'visible' });
    await page.mouse.click(340, 500); // the content beside the drawer
    await nav.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.waitFor({ state: 'visible' });
    await nav.getByRole('link', { name: 'Help' }).click();
    await page.waitForURL((url) => url.pathname === '/help/en');
    await nav.waitFor({ state: 'hidden' });

    // The top-bar items are reachable through the overflow menu.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Dark theme' }).waitFor();
    await page.getByRole('menuitem', { name: 'Contact us' }).waitFor();
    await context.close();
  });
});
