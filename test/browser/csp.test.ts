// The Content-Security-Policy lets the built app run whole (ADR-0009): the login, the
// dashboard, a provider's page with its map, the add-provider location picker and the service
// worker run without one violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let providerId: string;
const writer = { userName: 'writer6', password: 'writer-password-6', role: 6, location: 2 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser(writer);
  const token = await server.login(writer.userName, writer.password);
  const created = await server.api('POST', '/sproviers/', {
    token,
    body: { sp_Name: 'Centre Amani', sp_type: 1, territory: 2, lat: -1.68, lng: 29.22 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  providerId = created.body.sp_Id as string;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Every violation the page reports: its own events, and the console's (workers' included). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  page.on('worker', (worker) => {
    worker.on('console', (message) => {
      if (/Content[ -]Security[ -]Policy/i.test(message.text())) fromConsole.push(`worker: ${message.text()}`);
    });
  });
  await page.context().addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  // Each call returns what came since the last one.
  return async () => [...fromConsole.splice(0), ...(await page.evaluate(() => window.__cspViolations?.splice(0) ?? []))];
}

/** The lazy map has drawn (MapLibre's canvas) or said it cannot (no WebGL 2 on this machine). */
async function mapDrawn(page: Page): Promise<void> {
  await page.locator('.maplibregl-canvas, [data-testid="map-unavailable"]').first().waitFor();
}

describe('content security policy', () => {
  it('lets the app, its workers and the map run without a violation', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', serviceWorkers: 'allow' });
    const violations = await watchViolations(page);
    const seen: string[] = [];
    const check = async (where: string) => {
      for (const violation of await violations()) seen.push(`${where}: ${violation}`);
    };

    await signIn(page, writer.userName, writer.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The service worker registers and installs under the policy.
    const workerState = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none');
    await expect
      .poll(workerState, { timeout: 30_000 })
      .toBe('activated')
      .catch(() => seen.push('the service worker never became active'));
    await check('dashboard');

    await page.goto(`/serviceproviders/${providerId}`);
    await page.getByRole('heading', { name: 'Centre Amani', level: 1 }).waitFor();
    await mapDrawn(page);
    await check('provider page');

    await page.goto('/serviceproviders/add');
    await page.getByRole('heading', { name: 'Add Service Provider', level: 1 }).waitFor();
    await mapDrawn(page);
    const webgl = await page.locator('.maplibregl-canvas').count();
    await check('add provider');

    expect(seen).toEqual([]);
    // The map (and so MapLibre's worker) really ran here, unless this machine has no WebGL 2.
    if (webgl === 0) console.warn('csp.test: no WebGL 2 here, the map did not draw');
    await context.close();
  });
});
