// Offline start (issue 10 §1): after one online visit and sign-in, the built app opens again
// with the network really off — the offline home, the offline forms and the device's lists —
// because the service worker precached the whole app: every JS chunk (the lazy ones too) and
// both translation files.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, settle, signIn, storageItem } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
// Role 6 may add providers and jobs (schemas/roles.ts) and work offline.
const field = { userName: 'field6', password: 'field-password-6', role: 6, location: 2 };
const provider = 'Centre Lumière';
const job = 'Menuisier';

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser(field);
  const token = await server.login(field.userName, field.password);
  const created = [
    await server.api('POST', '/sproviers/', { token, body: { sp_Name: provider, sp_type: 1, territory: 2 } }),
    await server.api('POST', '/jobs/', { token, body: { title: job, employer: 'Atelier Bois SARL', sector: 1, territory: 2 } }),
  ];
  for (const { status, body } of created) expect(status, JSON.stringify(body)).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every JS file the build emitted (the main bundle, the lazy chunks, MapLibre's worker). */
function builtScripts(): string[] {
  return readdirSync(path.resolve('dist', 'assets'))
    .filter((name) => /\.m?js$/.test(name))
    .map((name) => `/assets/${name}`);
}

/** The paths held by workbox's precache in Cache Storage (revision query dropped). */
function precachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.includes('precache'));
    const paths: string[] = [];
    for (const name of names) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

/** Opens `url` until its list shows `name` (a list reads the store once, maybe before the pull). */
async function listed(page: Page, url: string, name: string): Promise<void> {
  const shows = async () => {
    await page.goto(url);
    await settle(page);
    return page.getByText(name).count();
  };
  await expect.poll(shows, { timeout: 30_000, interval: 500 }).toBe(1);
}

/** A page served with no network: by the service worker, whose navigation answer is the app. */
async function openOffline(page: Page, url: string, heading: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('offline start', () => {
  it('opens the offline home, the offline forms and the local lists with the network off', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    await signIn(page, field.userName, field.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('lists') !== null); // the offline forms' lists

    // Offline mode (spec §4): the device's store pulls the server's records.
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await listed(page, '/serviceproviders', provider);
    await listed(page, '/availablejobs', job);

    // The worker is installed (its precache filled) and active, and it controls this page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/'); // the stored offline mode leads home to the offline home (spec §2)
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none')).toBe('activated');

    const precached = await precachedPaths(page);
    expect(precached).toEqual(expect.arrayContaining([...builtScripts(), '/assets/i18n/fr.json', '/assets/i18n/en.json', '/index.html']));

    await context.setOffline(true);
    await expect(page.evaluate(() => fetch('/api/health').then(() => 'online', () => 'offline'))).resolves.toBe('offline');
    await page.reload();
    await page.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();
    await expect(storageItem(page, 'mode')).resolves.toBe('offline');
    await page.getByText('Data collected Offline').waitFor();

    // The forms, each opened by its address (a navigation the worker answers).
    await openOffline(page, '/serviceproviders/add', 'Add Service Provider');
    await page.getByLabel(/^Name/).first().waitFor();
    await openOffline(page, '/availablejobs/add', 'Add Available Job');
    await page.getByLabel(/^Title/).first().waitFor();

    // The lists read the device's copy.
    await openOffline(page, '/serviceproviders', 'Service Providers');
    await page.getByText(provider).waitFor();
    await openOffline(page, '/availablejobs', 'Available Jobs');
    await page.getByText(job).waitFor();

    // The other language comes from the precache too.
    await page.evaluate(() => localStorage.setItem('lang', 'fr'));
    await openOffline(page, '/offlinehp', 'Accueil hors ligne');
    await context.close();
  }, 120_000);
});
