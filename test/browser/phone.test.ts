// Usable at 360 px (ADR-0022): every screen of providers, services, verification and jobs on a
// phone-sized window, in both themes: nothing sticks out sideways, the page heading and the
// main action are on screen, and axe finds no serious or critical violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, settle, signIn } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const ids = { provider: '', service: '', rejected: '', job: '' };

async function created(path: string, token: string, body: Record<string, unknown>, key: string): Promise<string> {
  const answer = await server.api('POST', path, { token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return String(answer.body[key]);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  const token = await server.login(server.admin.userName, server.admin.password);
  ids.provider = await created(
    '/sproviers/',
    token,
    { sp_Name: 'Centre Espoir de Goma', sp_type: 1, territory: 1, sp_Address: 'Avenue du Lac 12', lat: -1.68, lng: 29.22 },
    'sp_Id',
  );
  const service = { sp_Id: ids.provider, category: 1, serviceType: 1, territory: 1, description: 'Counselling for families' };
  ids.service = await created('/spDetail/', token, { ...service, name: 'Family counselling' }, 'sp_Detail_Id');
  ids.rejected = await created('/spDetail/', token, { ...service, name: 'Night shelter' }, 'sp_Detail_Id');
  // Another administrator decides: nobody verifies a service they created (ADR-0026).
  await server.createUser({ userName: 'phone-verifier', password: 'phone-verifier-pass', role: 1 });
  const verifier = await server.login('phone-verifier', 'phone-verifier-pass');
  const verdict = await server.api('POST', '/sverify/', {
    token: verifier,
    body: { sp_Detail_Id: ids.rejected, status: 2, comment: 'Address not found' },
  });
  expect(verdict.status).toBe(200);
  ids.job = await created(
    '/jobs/',
    token,
    { title: 'Mason for a school building site', employer: 'Lake Kivu Builders', sector: 1, territory: 1, positions: 3 },
    'jb_Id',
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const screens = () => [
  { path: '/serviceproviders', heading: 'Service Providers' },
  { path: `/serviceproviders/${ids.provider}`, heading: 'Centre Espoir de Goma' },
  { path: '/serviceproviders/add', heading: 'Add Service Provider' },
  { path: `/serviceproviders/${ids.provider}/edit`, heading: 'Edit Centre Espoir de Goma' },
  { path: '/serviceproviders/services', heading: 'Services' },
  { path: `/serviceproviders/services/${ids.service}`, heading: 'Family counselling' },
  { path: `/serviceproviders/services/${ids.service}/edit`, heading: 'Edit Family counselling' },
  { path: '/serviceproviders/verify', heading: 'Verify Services' },
  { path: '/serviceproviders/rejected', heading: 'Rejected Services' },
  { path: '/availablejobs', heading: 'Available Jobs' },
  { path: `/availablejobs/${ids.job}`, heading: 'Mason for a school building site' },
  { path: '/availablejobs/add', heading: 'Add Available Job' },
];

async function check(page: Page, screen: { path: string; heading: string }, label: string): Promise<void> {
  await page.goto(screen.path);
  const heading = page.getByRole('heading', { level: 1, name: screen.heading });
  await heading.waitFor();
  await settle(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${label} ${screen.path}: page width`).toBeLessThanOrEqual(360);
  const box = await heading.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 360, `${label} ${screen.path}: heading on screen`).toBe(true);
  expect(await seriousViolations(page), `${label} ${screen.path}`).toEqual([]);
}

describe('provider, service, verification and job screens at 360 px', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`fit a phone and pass axe (${theme} theme)`, async () => {
      const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en', viewport: { width: 360, height: 740 } });
      if (theme === 'dark') await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
      await signIn(page, server.admin.userName, server.admin.password);
      for (const screen of screens()) await check(page, screen, theme);
      await context.close();
      // Twelve full page loads, each with an axe run: 17-25 s on a quiet machine, over 60 s on a
      // busy one (2026-12-07).
    }, 180_000);
  }
});
