// The caseload's client screens in the built app (docs/product.md §6.5.1 "The screens"): an
// office worker (role 4) ticks 3 clients in the list and assigns them to a field worker, seeing
// what it adds to the worker's device first; the audit holds one `assign` entry per client; the
// field worker filters "Assigned to: Me" and finds exactly them; pins a colleague's client
// online ("Keep on this device"), goes offline, reloads and reads it; offline, the list says how
// many of the organisation's clients are not on the device.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { profile } from '../../schemas/index';
import { launchBrowser, newDebugPage, signIn, storeReady } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

// Organisation 2 of the seed lists (abbreviation ADC).
const office = { userName: 'cls-office4', password: 'office-password-4', role: 4, location: 2, fullName: 'Bahati Office' };
const worker = { userName: 'cls-field3', password: 'field-password-3', role: 3, location: 2, fullName: 'Amani Field' };
const colleague = { userName: 'cls-other3', password: 'other-password-3', role: 3, location: 2, fullName: 'Neema Other' };
const id: Record<string, string> = {};
const clients: { id: string; name: string }[] = [];

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const [key, user] of Object.entries({ office, worker, colleague })) id[key] = (await server.createUser(user)).userId;
  // Six clients the colleague registered (so assigned to them).
  const token = await server.login(colleague.userName, colleague.password);
  for (const [first, last] of [
    ['Asha', 'Kabila'],
    ['Baraka', 'Mulumba'],
    ['Chausiku', 'Ngoy'],
    ['Dunia', 'Ilunga'],
    ['Eliya', 'Mwamba'],
    ['Furaha', 'Kasongo'],
  ] as const) {
    const body: Record<string, unknown> = {
      ...sampleBody(profile),
      prof_Reg_No: registrationNumber('ADC'),
      firstName: first,
      middleName: null,
      lastName: last,
    };
    const created = await server.api('POST', '/profile/', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    clients.push({ id: String(body.prof_Id), name: `${first} ${last}` });
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the caseload screens', () => {
  it('assigns 3 clients from the list to a field worker, audited, and the worker finds them "assigned to me"', async () => {
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, office.userName, office.password);
    await page.goto('/profiles');
    const chosen = clients.slice(0, 3);
    for (const client of chosen) await page.getByRole('checkbox', { name: `Select ${client.name}` }).check();
    await page.getByTestId('assign-count').getByText('3 clients selected').waitFor();
    await page.getByRole('button', { name: 'Assign 3 clients to…' }).click();
    const dialog = page.getByTestId('assign-dialog');
    await dialog.getByTestId('assign-worker').getByRole('combobox').click();
    await page.getByRole('option', { name: worker.fullName, exact: true }).click();
    // What the worker's device takes, before confirming.
    await dialog
      .getByTestId('assign-preview')
      .getByText(/^This adds 3 clients \(\d+ records?, about [\d.]+ MB\) to Amani Field's device\.$/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByText('3 clients assigned to Amani Field.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The list shows the new worker (a column on a wide screen).
    await poll(() =>
      page
        .getByRole('row', { name: new RegExp(chosen[0]!.name.split(' ')[0]!) })
        .getByText('Amani Field')
        .count(),
    ).toBe(1);

    // One audit entry `assign` per client, from the colleague to the worker, by the office worker.
    const admin = await server.login(server.admin.userName, server.admin.password);
    const audit = await server.api('GET', '/audit?action=assign&pageSize=100', { token: admin });
    const entries = (audit.body.rows as { recordId: string; userId: string; note: string }[]).map((e) => [e.recordId, e.userId, e.note]);
    expect(entries.sort()).toEqual(chosen.map((c) => [c.id, id.office, `${id.colleague} → ${id.worker}`]).sort());
    await context.close();

    // The field worker: "Assigned to: Me" lists exactly those three.
    const field = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(field.page, worker.userName, worker.password);
    await field.page.goto('/profiles');
    await field.page.getByTestId('filter-assignedTo').getByRole('combobox').click();
    await field.page.getByRole('option', { name: 'Me', exact: true }).click();
    const names = () =>
      field.page
        .getByRole('grid')
        .getByRole('row')
        .evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    await poll(async () => (await names()).filter((text) => clients.some((c) => text.includes(c.name.split(' ')[1]!))).length).toBe(3);
    const shown = await names();
    for (const client of chosen) expect(shown.some((text) => text.includes(client.name.split(' ')[1]!))).toBe(true);
    for (const client of clients.slice(3)) expect(shown.some((text) => text.includes(client.name.split(' ')[1]!))).toBe(false);
    // Selecting and assigning is for the roles that assign.
    expect(await field.page.getByTestId('assign-bar').count()).toBe(0);
    await field.context.close();
  });

  it("keeps a colleague's client on the device, readable offline after a reload; offline the list says what is not on the device", async () => {
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, worker.userName, worker.password);
    await storeReady(page);
    const kept = clients[4]!;
    await page.goto(`/profiles/${kept.id}`);
    await page.getByRole('heading', { name: kept.name }).waitFor();
    await page.getByTestId('client-assigned').getByText('Assigned to Neema Other').waitFor();
    await page.getByRole('button', { name: 'Keep on this device' }).click();
    await page.getByRole('button', { name: 'Remove from this device' }).waitFor();
    const token = await server.login(worker.userName, worker.password);
    expect((await server.api('GET', '/caseload/pins', { token })).body).toEqual({ pins: [kept.id] });
    // The device pulls it with its caseload (the pull woken by the pin).
    const figures = async () => (await server.api('GET', '/caseload', { token })).body.figures as { clients: number; outside: number };
    await poll(async () => (await figures()).clients).toBe(4);
    await poll(() =>
      page.evaluate(async (key) => Boolean(await window.__icrs!.data!.get(window.__icrs!.entities.profile, key)), kept.id),
    ).toBe(true);
    const { outside } = await figures();
    expect(outside).toBe(clients.length - 4);
    // The device keeps the figures of its last sync (asked after each pull of the clients).
    const kept$ = () =>
      page.evaluate(async () => {
        const doc = await window.__icrs!.db.getLocal<{ figures: { outside: number } }>('caseload-status');
        return (doc?.get('figures') as { outside: number } | undefined)?.outside ?? null;
      });
    await poll(kept$).toBe(outside);

    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.goto(`/profiles/${kept.id}`);
    await page.reload();
    await page.getByRole('heading', { name: kept.name }).waitFor();
    // Offline the pin cannot change, and says why.
    await page.getByTestId('client-keep-offline').waitFor();

    await page.goto('/profiles');
    const notice = page.getByTestId('caseload-outside');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      new RegExp(
        `^${outside} of your organisation's clients (is|are) not on this device \\(counted at the last sync, .+\\)\\. Online, the search finds them\\.$`,
      ),
    );
    await context.close();
  });
});
