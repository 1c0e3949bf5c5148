// Service worker and the update prompt (product.md §1, §9): a changed service worker on the server
// makes the running app show the notice and the confirm dialog; confirming loads the new one.
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appendToBuiltFile } from '../helpers/build';
import { launchBrowser, newPage, signIn } from '../helpers/browser';
import { until } from '../helpers/engines';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
// A private copy of the build, so changing its service worker touches nothing shared.
const staticDir = mkdtempSync(path.join(tmpdir(), 'icrs-pwa-'));

beforeAll(async () => {
  cpSync(path.resolve('dist'), staticDir, { recursive: true });
  [server, browser] = await Promise.all([startTestServer({ config: { staticDir } }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('app update', () => {
  it('registers the worker, then offers a new version and activates it on confirmation', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    await page.goto('/login');
    // `ready` settles once the app has registered its worker and that worker is active.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect(page.getByText('Please refresh your page to update!').count()).resolves.toBe(0);

    appendToBuiltFile(staticDir, 'sw.js', '\n// a new version\n');
    await page.reload();
    await page.getByText('Please refresh your page to update!').waitFor({ timeout: 40_000 });
    const dialog = page.getByRole('dialog');
    await dialog.getByText('update available for the app please confirm').waitFor();

    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Update' }).click()]);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(1000); // time for a (wrong) second prompt to appear
    await expect(page.getByText('Please refresh your page to update!').count()).resolves.toBe(0);
    await context.close();
  });
});

/** The page's service worker registration: whether it has an active worker. */
const activeWorker = (page: Page) => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active));

describe('a first install that failed', () => {
  it('registers the worker again after a pause, without a page load, once the missing file is there', async () => {
    // One of the app's files the sign-in page does not load, and its compressed copies: gone,
    // as a download cut by a weak network or a server restarting would leave it.
    const chunk = readdirSync(path.join(staticDir, 'assets')).find((name) => /^MapCanvas-.+\.js$/.test(name));
    expect(chunk, 'the map chunk in the build').toBeDefined();
    const files = ['', '.br', '.gz']
      .map((suffix) => path.join(staticDir, 'assets', `${chunk}${suffix}`))
      .filter((file) => existsSync(file));
    const putBack = () => files.filter((file) => existsSync(`${file}.away`)).forEach((file) => renameSync(`${file}.away`, file));
    files.forEach((file) => renameSync(file, `${file}.away`));
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    try {
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      await page.goto('/login');
      await page.evaluate(() => Object.assign(window, { samePage: true }));
      const waitFor = (check: () => Promise<boolean>, what: string) =>
        until(check, what, 60_000).catch((error: unknown) => {
          throw new Error(`${String(error)}; the page said: ${said.join(' | ')}`, { cause: error });
        });
      await waitFor(
        async () => said.some((text) => text.includes("The app's offline files could not all be downloaded")),
        'the failed install',
      );
      expect(await activeWorker(page)).toBe(false);

      putBack();
      await waitFor(() => activeWorker(page), 'an active worker after the file was back');
      expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    } finally {
      putBack();
      await context.close();
    }
  }, 150_000);
});

describe('the build on the network', () => {
  it('reaches the browser compressed: the page and every script worth it in brotli', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    const answers: { path: string; encoding: string; wire: Promise<number> }[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname !== '/login' && !pathname.endsWith('.js')) return;
      // Only the main script's size is awaited; the others may still be asked for when the
      // context closes, which must not surface as an unhandled rejection.
      const wire = response
        .finished()
        .then(async () => (await response.request().sizes()).responseBodySize)
        .catch(() => Number.NaN);
      answers.push({ path: pathname, encoding: response.headers()['content-encoding'] ?? 'none', wire });
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    const worthIt = answers.filter((a) => statSync(path.join(staticDir, a.path === '/login' ? 'index.html' : a.path)).size >= 1024);
    expect(worthIt.length).toBeGreaterThan(3);
    expect(worthIt.filter((a) => a.encoding !== 'br').map((a) => a.path)).toEqual([]);
    // The main script crosses the network at under a third of its size.
    const main = worthIt.find((a) => /^\/assets\/index-.+\.js$/.test(a.path));
    expect(main, 'the main script').toBeDefined();
    expect(await main?.wire).toBeLessThan(statSync(path.join(staticDir, main?.path ?? '')).size / 3);
    await context.close();
  });

  it("adds no unload listener: the store's leader tab hands the pull over on pagehide", async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    // Every window listener the page's code adds, by event type (before any of its scripts run).
    await context.addInitScript(() => {
      const types: string[] = [];
      (window as unknown as { __listenerTypes: string[] }).__listenerTypes = types;
      const add = window.addEventListener.bind(window);
      window.addEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, (boolean | AddEventListenerOptions)?]) => {
        types.push(type);
        add(type, ...rest);
      }) as typeof window.addEventListener;
    });
    const pulled = (p: typeof page) =>
      p.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/sync/tbl_'), { timeout: 30_000 });
    const firstPull = pulled(page);
    await signIn(page, server.admin.userName, server.admin.password, '/login?returnUrl=%2Fserviceproviders');
    await firstPull; // this tab leads the store's tabs: it pulls
    const types = await page.evaluate(() => (window as unknown as { __listenerTypes: string[] }).__listenerTypes);
    expect(types).toContain('pagehide');
    expect(types).not.toContain('unload');

    const second = await context.newPage();
    await second.goto('/offlinehp'); // the vault's key comes from the open tab: no lock screen
    await second.getByRole('heading', { name: 'Offline home' }).waitFor();
    const takeover = pulled(second);
    await page.close();
    await takeover; // the second tab leads now, and pulls
    await context.close();
  });
});
