// Route guards (product.md §2 route table), the error pages and the interceptor's session rules (§8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signIn, storageItem, sessionToken } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const reporter = { userName: 'reporter2', password: 'reporter-password-2', role: 2, location: 1 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser(reporter);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const path = (url: string) => new URL(url).pathname;

describe('routes', () => {
  it('shows the 403 page to a role that may not open the screen', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, reporter.userName, reporter.password);
    await page.goto('/serviceproviders');
    await page.waitForURL((url) => path(url.href) === '/forbidden');
    await page.getByText('403', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();

    // The same role may open its own screens.
    await page.goto('/reports');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    expect(path(page.url())).toBe('/reports');
    // The user list needs user management; the own password screen does not.
    await page.goto('/users');
    await page.waitForURL((url) => path(url.href) === '/forbidden');
    await page.goto('/users/chngpas');
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await context.close();
  });

  it('redirects an unknown path to not-found', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await page.goto('/no-such-page');
    await page.waitForURL((url) => path(url.href) === '/not-found');
    await page.getByRole('heading', { name: 'page not found' }).waitFor();
    await context.close();
  });

  it('opens the help pages without signing in, each in its own language', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await page.goto('/help/fr');
    await page.getByRole('heading', { name: 'Aide', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'English version' }).click();
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
    expect(path(page.url())).toBe('/help/en');
    await context.close();
  });

  it('redirects profile/{id} to users/edit/{id}, and the sidebar name opens the own profile', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, reporter.userName, reporter.password);
    const user = JSON.parse((await storageItem(page, 'user')) ?? '{}') as { userId: string };
    await page.goto(`/profile/${user.userId}`);
    await page.waitForURL((url) => path(url.href) === `/users/edit/${user.userId}`);
    // One's own record always opens as the profile (ADR-0030): never one's own role or organisation.
    await page.getByRole('heading', { name: 'My profile' }).waitFor();

    await page.getByRole('link', { name: `My profile: ${reporter.userName} Programme supervisor` }).click();
    await page.waitForURL((url) => url.search === '?profile=1');
    await page.getByRole('heading', { name: 'My profile' }).waitFor();

    // Someone else's record is not open to a role without user management.
    await page.goto('/users/edit/00000000-0000-0000-0000-000000000000');
    await page.waitForURL((url) => path(url.href) === '/forbidden');
    await context.close();
  });

  it('logs out locally when a call answers 401 (jwt expired)', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.route('**/api/stats/gen', (route) =>
      route.fulfill({ status: 401, json: { statusCode: 401, error: 'Unauthorized', message: 'jwt expired' } }),
    );
    await page.goto('/');
    await page.waitForURL((url) => path(url.href) === '/login');
    // The logout reloads the page ~200 ms later: a read during the reload is retried.
    const stored = (key: string) => storageItem(page, key).catch(() => 'reloading');
    await expect.poll(() => sessionToken(page).catch(() => 'reloading'), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => stored('user'), { timeout: 10_000 }).toBeNull();
    await context.close();
  });

  it('sends the user to /forbidden when a call answers 403', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, server.admin.userName, server.admin.password);
    await page.route('**/api/stats/gen', (route) =>
      route.fulfill({ status: 403, json: { statusCode: 403, error: 'Forbidden', message: 'Forbidden' } }),
    );
    await page.goto('/');
    await page.waitForURL((url) => path(url.href) === '/forbidden');
    await expect(sessionToken(page)).resolves.not.toBeNull(); // 403 keeps the session
    await context.close();
  });
});
