// A field device's pending work for a client erased on the server meanwhile (docs/security.md
// "Erased means gone"), in the built app: the upload is refused with the erasure message, the
// pending page shows "Client erased" with that message and offers only Discard (no Retry, no
// Export), the record is not sent again by the next upload nor after a reload, and it goes only
// when the user discards it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { profile, social } from '../../schemas/index';
import { launchBrowser, newPage, signIn } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

// Organisation 2 of the seed lists (abbreviation ADC), so profiles get registration numbers.
const field = { userName: 'erasure4', password: 'erasure-password-4', role: 4, location: 2 };
const orgAdmin = { userName: 'erasure7', password: 'erasure-password-7', role: 7, location: 2 };
const ERASED = "This client's data was erased on the server: nothing more can be stored for this client";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const user of [field, orgAdmin]) await server.createUser(user);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

describe('pending work for a client erased on the server meanwhile', () => {
  it('is refused with the erasure message, shown as "Client erased" with only Discard, and stays until discarded', async () => {
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'en' });
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
    await signIn(page, field.userName, field.password);
    await page.waitForFunction(() => localStorage.getItem('lists') !== null);
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    // A client saved online (a synced copy on the device)…
    const values: Record<string, unknown> = { ...sampleBody(profile), firstName: 'Imani', lastName: 'Kabasele' };
    for (const key of profile.keyFields) delete values[key];
    delete values.prof_Reg_No; // made by the data layer from the organisation
    const profId = await page.evaluate(async (body) => {
      const { data, entities } = window.__icrs!;
      return String((await data!.create(entities.profile, body)).prof_Id);
    }, values);
    const token = await server.login(field.userName, field.password);
    await poll(async () => (await server.api('GET', `/profile/${profId}`, { token })).status).toBe(200);

    // …then, offline, a social sheet for that client and an edit of the client.
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    const sheet: Record<string, unknown> = { ...sampleBody(social, { profile: profId }), needs: 'A roof before the rains' };
    await page.evaluate(
      async ({ id, body }) => {
        const { data, entities } = window.__icrs!;
        await data!.create(entities.social, body);
        await data!.update(entities.profile, id, { address: 'Avenue du Lac 4' });
      },
      { id: profId, body: sheet },
    );
    expect(await page.evaluate(() => window.__icrs?.countPending())).toBe(2);

    // Meanwhile the organisation's administrator erases the client on the server.
    const erased = await server.api('POST', `/profile/${profId}/erase`, {
      token: await server.login(orgAdmin.userName, orgAdmin.password),
      body: { reasonCode: 'clientRequest', password: orgAdmin.password },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);

    // Back online, the upload is refused record by record, with the erasure message.
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    const summary = page.getByTestId('upload-summary');
    await summary.getByText(/Not sent, their client was erased on the server: .+\. Discard them from the pending records\./).waitFor();
    expect((await summary.textContent()) ?? '').toMatch(/2 records are kept on this device/);

    await page.getByRole('link', { name: /Pending records/ }).click();
    const rows = page.locator(`[data-testid="pending-row"][data-key="${profId}"]`);
    await poll(() => rows.count()).toBe(2);
    for (let i = 0; i < 2; i += 1) {
      const row = rows.nth(i);
      await poll(() => row.getAttribute('data-state')).toBe('erased');
      await row.getByText('Client erased', { exact: true }).waitFor();
      expect(await row.getByTestId('pending-error').textContent()).toBe(ERASED);
      // Only Discard: never Retry, never Export (the client's data must not reach the server again).
      expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
      expect(await row.getByRole('button', { name: /^Export/ }).count()).toBe(0);
      expect(await row.getByRole('button', { name: /^Discard/ }).count()).toBe(1);
    }

    // Never sent again: another upload and a reload leave both as they are, and nothing reached the server.
    const requests: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(sync\/push|profile)/.test(request.url()) && request.method() !== 'GET') requests.push(request.url());
    });
    await page.getByRole('button', { name: 'Retry all' }).click();
    await page.getByRole('button', { name: 'Retry all' }).waitFor();
    await poll(() => page.getByRole('button', { name: 'Retry all' }).isEnabled()).toBe(true);
    await page.reload();
    await poll(() => rows.count()).toBe(2);
    expect(requests).toEqual([]);
    expect(await page.evaluate(() => window.__icrs?.countPending())).toBe(2);
    const [stored] = await server.server.db.query<{ needs: string | null }>(
      'SELECT "needs" FROM "tbl_profiles_social" WHERE "prof_Id" = $1',
      [profId],
    );
    expect(stored?.needs ?? null).toBeNull();

    // Only the user's Discard removes them.
    for (let left = 2; left > 0; left -= 1) {
      await rows
        .first()
        .getByRole('button', { name: /^Discard/ })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
      await poll(() => rows.count()).toBe(left - 1);
    }
    expect(await page.evaluate(() => window.__icrs?.countPending())).toBe(0);
    await context.close();
  });
});
