// Service providers and service verification (ADR-0026): the list (search, filters, CSV), the
// provider's page, add and edit online and offline (then uploaded), delete with a reason and the
// password, verification (approve, reject with a required comment, badge counts), the rejected
// list, the role rules, and an accessibility check of every screen.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, linkNames, newDebugPage, newPage, settle, signIn, type PageOptions, type TestPage } from '../helpers/browser';
import { seriousViolations } from '../helpers/axe';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let adminToken: string;

// Organisation 1 of the seed lists; territory 1 is Goma, 7 Beni; category 1 Health.
const admin = { userName: 'sp-admin', password: 'sp-admin-password', role: 1, location: 1, fullName: 'Awa Admin' };
const restricted = { userName: 'sp-role6', password: 'sp-role6-password', role: 6, location: 1 };
const reports = { userName: 'sp-role2', password: 'sp-role2-password', role: 2, location: 1 };
/** Makes the services the administrator verifies: nobody verifies their own (ADR-0026). */
const seeder = { userName: 'sp-seeder', password: 'sp-seeder-password', role: 3, location: 1 };
let seederToken: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const user of [admin, restricted, reports, seeder]) await server.createUser(user);
  adminToken = await server.login(admin.userName, admin.password);
  seederToken = await server.login(seeder.userName, seeder.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** expect.poll with room for a page load or an upload (its default is 1 s). */
const poll = <T>(read: () => Promise<T> | T, { timeout = 15_000 } = {}) => expect.poll(read, { timeout, interval: 100 });

/** A signed-in page; `debug` installs the store's support handle (`window.__icrs`). */
async function open(
  user: { userName: string; password: string },
  { debug = false, ...options }: Partial<PageOptions> & { debug?: boolean } = {},
): Promise<TestPage> {
  const opened = await (debug ? newDebugPage : newPage)(browser, { baseURL: server.url, lang: 'en', ...options });
  await signIn(opened.page, user.userName, user.password);
  return opened;
}

interface ProviderInput {
  sp_Name: string;
  sp_type: number;
  territory: number;
  [field: string]: unknown;
}

async function seedProvider(values: ProviderInput): Promise<string> {
  const { status, body } = await server.api('POST', '/sproviers/', { token: adminToken, body: values });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.sp_Id as string;
}

async function seedService(spId: string, name: string): Promise<string> {
  const { status, body } = await server.api('POST', '/spDetail/', {
    token: seederToken,
    body: { sp_Id: spId, name, category: 1, serviceType: 1, territory: 1, description: `What ${name} offers` },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.sp_Detail_Id as string;
}

const getProvider = (id: string) => server.api('GET', `/sproviers/${id}`, { token: adminToken });

/** The names in the grid's first column once it has loaded. */
function gridColumn(page: Page, field = 'sp_Name'): Promise<string[]> {
  return page.locator(`.MuiDataGrid-row [data-field="${field}"]`).allTextContents();
}

/** Types a quick search and waits for the debounced request (400 ms) to be answered. */
async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('grid-search').fill(text);
  await page.waitForTimeout(450);
  await poll(() =>
    page.locator('.MuiDataGrid-root .MuiLinearProgress-root, [data-testid="grid-refreshing"] .MuiLinearProgress-root').count(),
  ).toBe(0);
}

async function pick(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  await settle(page);
  expect(await seriousViolations(page), screen).toEqual([]);
}

/** The sidebar's badge counts, read from the menu links' names ("Verify Services (3 pending)"). */
async function badges(page: Page): Promise<{ pending: number; rejected: number }> {
  const names = await linkNames(page.getByRole('navigation', { name: 'Main menu' }));
  const count = (prefix: string) => Number(/\((\d+) /.exec(names.find((name) => name.startsWith(prefix)) ?? '')?.[1] ?? 0);
  return { pending: count('Verify Services'), rejected: count('Rejected Services') };
}

async function serverCounts(): Promise<{ pending: number; rejected: number }> {
  const { body } = await server.api('GET', '/stats/pendings', { token: adminToken });
  return { pending: body[0].Pending as number, rejected: body[0].Rejected as number };
}

describe('service provider list', () => {
  it('pages, searches, filters by type and territory, exports the filtered rows and opens a provider', async () => {
    const ids = {
      alpha: await seedProvider({
        sp_Name: 'Listing Alpha Centre',
        sp_type: 1,
        territory: 1,
        sp_Address: 'Avenue du Lac 1, Goma',
        phone: '+243 81 000 0001',
      }),
      beta: await seedProvider({ sp_Name: 'Listing Beta Legal Aid', sp_type: 3, territory: 7 }),
      gamma: await seedProvider({ sp_Name: 'Listing Gamma Social Shelter', sp_type: 1, territory: 7, contact: 'Mama Neema' }),
    };
    const { context, page } = await open(admin);
    await page.getByRole('link', { name: 'Service Provider List' }).click();
    await page.getByRole('heading', { name: 'Service Providers', level: 1 }).waitFor();
    await search(page, 'Listing');
    await poll(() => gridColumn(page)).toEqual(['Listing Alpha Centre', 'Listing Beta Legal Aid', 'Listing Gamma Social Shelter']);

    // Labels, not ids: the type and territory read as people know them.
    const beta = page.locator(`.MuiDataGrid-row[data-id="${ids.beta}"]`);
    await expect(beta.locator('[data-field="sp_type"]').textContent()).resolves.toBe('Legal');
    await expect(beta.locator('[data-field="territory"]').textContent()).resolves.toBe('Beni');

    await pick(page, 'Type', 'Legal');
    await poll(() => gridColumn(page)).toEqual(['Listing Beta Legal Aid']);
    await pick(page, 'Type', 'Social');
    await poll(() => gridColumn(page)).toEqual(['Listing Alpha Centre', 'Listing Gamma Social Shelter']);
    await pick(page, 'Territory', 'Beni');
    await poll(() => gridColumn(page)).toEqual(['Listing Gamma Social Shelter']);
    await pick(page, 'Territory', 'All');
    await search(page, 'Listing Alpha');
    await poll(() => gridColumn(page)).toEqual(['Listing Alpha Centre']);
    await search(page, 'Listing');
    await poll(() => gridColumn(page)).toEqual(['Listing Alpha Centre', 'Listing Gamma Social Shelter']);

    // Sorting asks the server: name descending.
    await page.getByRole('columnheader', { name: 'Name' }).click();
    await poll(() => gridColumn(page)).toEqual(['Listing Gamma Social Shelter', 'Listing Alpha Centre']);

    // The export holds exactly the filtered rows (social, "Listing"), labelled as on screen.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^service-provider-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Type,Territory,Address,Contact person,Phone,Created');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
      'Listing Gamma Social Shelter,Social,Beni',
      'Listing Alpha Centre,Social,Goma',
    ]);
    expect(lines[2]).toContain('"Avenue du Lac 1, Goma"');
    expect(lines[2]).toContain("'+243 81 000 0001");

    await expectNoSeriousViolations(page, 'provider list');
    await page.locator(`.MuiDataGrid-row[data-id="${ids.alpha}"]`).click();
    await page.waitForURL((url) => url.pathname === `/serviceproviders/${ids.alpha}`);
    await page.getByRole('heading', { name: 'Listing Alpha Centre', level: 1 }).waitFor();
    await context.close();
  });

  it('shows a provider saved elsewhere and an edit made elsewhere in an open list, without a reload', async () => {
    const { context, page } = await open(admin);
    await page.goto('/serviceproviders');
    await page.locator('.MuiDataGrid-row').first().waitFor();
    // Saved by another user while the list is open: the change stream makes the list ask again.
    const spId = await seedProvider({ sp_Name: 'AAA Live Arrival', sp_type: 1, territory: 1 });
    const row = page.locator(`.MuiDataGrid-row[data-id="${spId}"]`);
    await row.getByText('AAA Live Arrival').waitFor({ timeout: 10_000 });
    const edited = await server.api('PUT', `/sproviers/${spId}`, { token: adminToken, body: { sp_Name: 'AAA Live Renamed' } });
    expect(edited.status).toBe(200);
    await row.getByText('AAA Live Renamed').waitFor({ timeout: 10_000 });
    await context.close();
  });

  it("after a page load, shows the server's rows and this device's unsent one, each once", async () => {
    const { context, page } = await open(admin);
    await context.addInitScript(() => localStorage.setItem('icrsDebug', '1')); // window.__icrs: the data layer
    await page.reload();
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    const first = await seedProvider({ sp_Name: '0000 Mixed A', sp_type: 1, territory: 1 });
    const second = await seedProvider({ sp_Name: '0000 Mixed B', sp_type: 1, territory: 1 });
    // Saved on this device without a network: pending, unknown to the server.
    await context.setOffline(true);
    const waiting = await page.evaluate(async () => {
      const handle = window.__icrs;
      const doc = await handle?.data?.create(handle.entities.serviceProvider, { sp_Name: '0000 Mixed Waiting', sp_type: 1, territory: 1 });
      return doc?.sp_Id as string;
    });
    await context.setOffline(false);
    expect((await getProvider(waiting)).status).toBe(404);

    // A full load: the list asks the server while the store opens, then adds the device's record.
    await page.goto('/serviceproviders');
    await page.locator(`.MuiDataGrid-row[data-id="${waiting}"]`).waitFor();
    const ids = await page.locator('.MuiDataGrid-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
    expect(ids.slice(0, 3)).toEqual([waiting, first, second]);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await gridColumn(page)).slice(0, 3)).toEqual(['0000 Mixed Waitingnot uploaded', '0000 Mixed A', '0000 Mixed B']);
    await context.close();
  });

  it("asks the list's first page once, before the screen is drawn, on a page load and from the menu", async () => {
    const { context, page } = await open(admin);
    // In the page: the list requests sent (axios sends through XMLHttpRequest), and how many had
    // been sent when the grid's first row came into the page.
    await context.addInitScript(() => {
      const w = window as unknown as { __listAsks: number; __asksAtFirstRow: number | null };
      w.__listAsks = 0;
      w.__asksAtFirstRow = null;
      const open = XMLHttpRequest.prototype.open;
      XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['open']>) {
        if (String(args[1]).includes('/sproviers/srch')) w.__listAsks += 1;
        return open.apply(this, args);
      } as XMLHttpRequest['open'];
      new MutationObserver(() => {
        if (w.__asksAtFirstRow === null && document.querySelector('.MuiDataGrid-row')) w.__asksAtFirstRow = w.__listAsks;
      }).observe(document, { childList: true, subtree: true });
    });
    await seedProvider({ sp_Name: '0000 Asked once', sp_type: 1, territory: 1 });
    await page.goto('/serviceproviders');
    await page.locator('.MuiDataGrid-row').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __asksAtFirstRow: number | null }).__asksAtFirstRow)).toBe(1);
    expect(await gridColumn(page)).toContain('0000 Asked once');

    await page.goto('/testing');
    await page.evaluate(() => Object.assign(window, { __listAsks: 0 }));
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /^Service Provider List/ })
      .click();
    await page.locator('.MuiDataGrid-row').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __asksAtFirstRow: number | null }).__asksAtFirstRow)).toBe(1);
    expect(await gridColumn(page)).toContain('0000 Asked once');
    await context.close();
  });

  it('refuses role 2 (403) and hides Verify from role 6, who may still see the rejected list', async () => {
    const reporter = await open(reports);
    await reporter.page.goto('/serviceproviders');
    await reporter.page.waitForURL((url) => url.pathname === '/forbidden');
    await reporter.page.getByText('403', { exact: true }).waitFor();
    await reporter.context.close();

    const { context, page } = await open(restricted);
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: /^Rejected Services/ }).waitFor();
    await expect(nav.getByRole('link', { name: /^Verify Services/ }).count()).resolves.toBe(0);
    await page.goto('/serviceproviders/verify');
    await page.waitForURL((url) => url.pathname === '/forbidden');
    await page.goto('/serviceproviders/rejected');
    await page.getByRole('heading', { name: 'Rejected Services', level: 1 }).waitFor();
    // Role 6 adds providers (product.md §6): the list offers it.
    await page.goto('/serviceproviders');
    await page.getByRole('link', { name: 'Add service provider', exact: true }).waitFor();
    await context.close();
  });
});

describe('adding and editing a provider', () => {
  it('validates, keeps a draft across a reload, saves online with the position, and lists it', async () => {
    const { context, page } = await open(restricted);
    await page.goto('/serviceproviders');
    await page.getByRole('link', { name: 'Add service provider', exact: true }).click();
    await page.getByRole('heading', { name: 'Add Service Provider', level: 1 }).waitFor();

    // Nothing filled: the required fields say so, nothing is sent.
    await page.getByRole('button', { name: 'Save' }).click();
    const summary = page.getByTestId('form-errors');
    await summary.getByText('Name is required').waitFor();
    await summary.getByText('Type is required').waitFor();
    await summary.getByText('Territory is required').waitFor();

    await page.getByRole('textbox', { name: 'Name' }).fill('Created Online Clinic');
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByTestId('location-lat').fill('-1.6601');
    await page.getByRole('button', { name: 'Save' }).click();
    await summary.getByText('Email must be an email address, for example name@example.org').waitFor();
    await summary.getByText('Longitude is needed too: give both coordinates or neither.').waitFor();

    // A reload keeps what was typed.
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByText(/Unsaved changes from .* were restored\./).waitFor();
    await expect(page.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Created Online Clinic');
    await expect(page.getByTestId('location-lat').inputValue()).resolves.toBe('-1.6601');
    await expectNoSeriousViolations(page, 'provider form');

    await pick(page, 'Type', 'Economic');
    await page.getByRole('combobox', { name: 'Territory' }).fill('Gom');
    await page.getByRole('option', { name: 'Goma', exact: true }).click();
    await page.getByRole('textbox', { name: 'Address' }).fill('Boulevard Kanyamuhanga 12');
    await page.getByRole('textbox', { name: 'Contact person' }).fill('Dr Kavira');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+243 99 123 4567');
    await page.getByRole('textbox', { name: 'Email' }).fill('clinic@example.org');
    await page.getByTestId('location-lng').fill('29.2305');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL((url) => /^\/serviceproviders\/[0-9a-f-]{36}$/.test(url.pathname));
    const spId = new URL(page.url()).pathname.split('/').pop() as string;
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Service provider saved' })
      .getByText('Created Online Clinic is saved on the server.')
      .waitFor();
    await page.getByRole('heading', { name: 'Created Online Clinic', level: 1 }).waitFor();
    const details = page.getByTestId('provider-details');
    await details.getByText('Economic').waitFor();
    await details.getByText('Boulevard Kanyamuhanga 12').waitFor();
    await expect(details.getByRole('link', { name: 'clinic@example.org' }).getAttribute('href')).resolves.toBe('mailto:clinic@example.org');
    await page.getByTestId('provider-coords').getByText('Latitude -1.6601, longitude 29.2305').waitFor();
    await expect(page.getByTestId('not-uploaded').count()).resolves.toBe(0);

    const saved = await getProvider(spId);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      sp_Name: 'Created Online Clinic',
      sp_type: 2,
      territory: 1,
      lat: -1.6601,
      lng: 29.2305,
      phone: '+243 99 123 4567',
      location: 1,
    });

    // The draft is gone once saved, and the provider is listed.
    await page.goto('/serviceproviders/add');
    await expect(page.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('');
    await page.goto('/serviceproviders');
    await search(page, 'Created Online');
    await poll(() => gridColumn(page)).toEqual(['Created Online Clinic']);
    await context.close();
  });

  it('saves offline as not uploaded, then the offline home uploads it', async () => {
    const { context, page } = await open(admin);
    await page.waitForFunction(() => localStorage.getItem('lists') !== null); // lookups for offline forms
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');

    await page.goto('/serviceproviders/add');
    await page.getByRole('textbox', { name: 'Name' }).fill('Offline Field Centre');
    await pick(page, 'Type', 'Education');
    await page.getByRole('combobox', { name: 'Territory' }).fill('Beni');
    await page.getByRole('option', { name: 'Beni', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => /^\/serviceproviders\/[0-9a-f-]{36}$/.test(url.pathname));
    const spId = new URL(page.url()).pathname.split('/').pop() as string;
    await page.getByText('Offline Field Centre is saved on this device. Upload it from the offline home once you are online.').waitFor();
    await page.getByRole('heading', { name: 'Offline Field Centre', level: 1 }).getByTestId('not-uploaded').waitFor();
    await page.getByTestId('no-location').waitFor();
    expect((await getProvider(spId)).status).toBe(404);
    await expectNoSeriousViolations(page, 'provider page, not uploaded');

    // Listed at once from the device, marked as not uploaded; verification needs the server.
    await page.goto('/serviceproviders');
    await search(page, 'Offline Field');
    await poll(() => gridColumn(page)).toEqual(['Offline Field Centrenot uploaded']);
    await expectNoSeriousViolations(page, 'provider list, offline');
    await page.goto('/serviceproviders/verify');
    await page.getByTestId('verify-offline').getByText('Connection needed').waitFor();

    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
    expect((await getProvider(spId)).status).toBe(200);
    expect((await getProvider(spId)).body).toMatchObject({ sp_Name: 'Offline Field Centre', sp_type: 4, territory: 7, location: 1 });

    await page.goto(`/serviceproviders/${spId}`);
    await page.getByRole('heading', { name: 'Offline Field Centre', level: 1 }).waitFor();
    await expect(page.getByTestId('not-uploaded').count()).resolves.toBe(0);
    await context.close();
  });

  it('offline: removes a provider never uploaded from the device, and leaves deletion of an uploaded one to the server', async () => {
    const keptId = await seedProvider({ sp_Name: 'Uploaded Kept Centre', sp_type: 1, territory: 1 });
    const { context, page } = await open(admin, { debug: true });
    await page.waitForFunction(() => localStorage.getItem('lists') !== null);
    await page.goto('/serviceproviders');
    await search(page, 'Uploaded Kept');
    await poll(() => gridColumn(page)).toEqual(['Uploaded Kept Centre']);
    // Shown from the server first; written into the device's store once the store is open. The
    // full page loads below would drop a write still waiting for it (a copy of the server's, not
    // the user's work): wait until the device holds it.
    await poll(
      () =>
        page.evaluate(
          (key) =>
            window.__icrs?.db.collections.tbl_serviceprovider
              ?.findOne(key)
              .exec()
              .then((d) => d?.get('syncState') ?? null) ?? null,
          keptId,
        ),
      { timeout: 60_000 },
    ).toBe('synced');
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');

    await page.goto('/serviceproviders/add');
    await page.getByRole('textbox', { name: 'Name' }).fill('Mistaken Entry');
    await pick(page, 'Type', 'Legal');
    await page.getByRole('combobox', { name: 'Territory' }).fill('Goma');
    await page.getByRole('option', { name: 'Goma', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Mistaken Entry', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this service provider?' });
    await confirm.getByText(/exist only on this device/).waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL((url) => url.pathname === '/serviceproviders');
    await search(page, 'Mistaken');
    await poll(() => page.getByText('No rows').count()).toBe(1);
    await expect(page.evaluate(() => localStorage.getItem('mode'))).resolves.toBe('offline');

    await page.goto(`/serviceproviders/${keptId}`);
    await page.getByRole('heading', { name: 'Uploaded Kept Centre', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Connection needed' })
      .getByText(/Only the server can check your password/)
      .waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    expect((await getProvider(keptId)).status).toBe(200);
    await context.close();
  });

  it('edits a provider, and keeps the edit when someone else changed it meanwhile', async () => {
    const spId = await seedProvider({ sp_Name: 'Editable Centre', sp_type: 1, territory: 1, sp_Address: 'Old address' });
    const { context, page } = await open(admin);
    await page.goto(`/serviceproviders/${spId}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Editable Centre', level: 1 }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Address' }).inputValue()).resolves.toBe('Old address');
    await page.getByRole('textbox', { name: 'Address' }).fill('New address 5');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+243 81 555 0101');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === `/serviceproviders/${spId}`);
    await page.getByTestId('provider-details').getByText('New address 5').waitFor();
    expect((await getProvider(spId)).body).toMatchObject({
      sp_Address: 'New address 5',
      phone: '+243 81 555 0101',
      sp_Name: 'Editable Centre',
    });

    // A colleague renames it while this form is open (and the device pulls their change): the
    // save is refused, the server's copy shows with this user's change over it, and a second
    // save keeps both.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Contact person' }).fill('Mr Paluku');
    await page.waitForTimeout(500); // the draft is written
    expect((await server.api('PUT', `/sproviers/${spId}`, { token: adminToken, body: { sp_Name: 'Renamed Centre' } })).status).toBe(200);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Changed meanwhile' }).waitFor();
    // The screen explains the conflict; the app's generic error toast stays out of it.
    await expect(
      page
        .getByTestId('toast-text')
        .filter({ hasText: /^conflict$/ })
        .count(),
    ).resolves.toBe(0);
    await page.getByText('The record has changed on the server since', { exact: false }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Contact person' }).inputValue()).resolves.toBe('Mr Paluku');
    await expect(page.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Renamed Centre');
    await settle(page); // the warning toast sits over the Save button at this size
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === `/serviceproviders/${spId}`);
    expect((await getProvider(spId)).body).toMatchObject({ contact: 'Mr Paluku', sp_Address: 'New address 5', sp_Name: 'Renamed Centre' });
    await context.close();
  });
});

describe('deleting a provider', () => {
  it('asks a reason and the password; a wrong password deletes nothing', async () => {
    const spId = await seedProvider({ sp_Name: 'Doomed Centre', sp_type: 2, territory: 1 });
    const serviceId = await seedService(spId, 'Doomed counselling');
    const { context, page } = await open(admin);
    await page.goto(`/serviceproviders/${spId}`);
    await page.getByRole('heading', { name: 'Doomed Centre', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Closed for good');
    await dialog.getByLabel(/Password|password/).fill('not-my-password');
    await dialog.getByRole('button', { name: /Delete/ }).click();
    await dialog.getByRole('alert').getByText('Wrong password: nothing was deleted', { exact: false }).waitFor();
    expect((await getProvider(spId)).status).toBe(200);

    await dialog.getByLabel(/Password|password/).fill(admin.password);
    await dialog.getByRole('button', { name: /Delete/ }).click();
    await page.waitForURL((url) => url.pathname === '/serviceproviders');
    await page
      .getByTestId('toast')
      .filter({ hasText: 'Service provider deleted' })
      .getByText('Doomed Centre and its services were deleted.')
      .waitFor();
    expect((await getProvider(spId)).status).toBe(404);
    expect((await server.api('GET', `/spDetail/${serviceId}`, { token: adminToken })).status).toBe(404);
    await search(page, 'Doomed');
    await poll(() => page.getByText('No rows').count()).toBe(1);
    await context.close();
  });
});

describe('verification', () => {
  // ADR-0026: nobody verifies a service they created or last changed; the screen says why.
  it('says why a service may not be verified by its own maker, and why one is pending again', async () => {
    const spId = await seedProvider({ sp_Name: 'Own Works', sp_type: 2, territory: 1 });
    const own = (
      await server.api('POST', '/spDetail/', {
        token: adminToken,
        body: { sp_Id: spId, name: 'VY Own bakery', category: 1, serviceType: 1, territory: 1 },
      })
    ).body.sp_Detail_Id as string;
    const again = await seedService(spId, 'VY Moved clinic');
    expect((await server.api('POST', '/sverify/', { token: adminToken, body: { sp_Detail_Id: again, status: 1 } })).status).toBe(200);
    const role6 = await server.login(restricted.userName, restricted.password);
    expect((await server.api('PUT', `/sproviers/${spId}`, { token: role6, body: { sp_Address: 'Nouvelle avenue 3' } })).status).toBe(200);
    const { context, page } = await open(admin);
    await page.goto('/serviceproviders/verify');
    await page.getByRole('heading', { name: 'Verify Services', level: 1 }).waitFor();
    await search(page, 'VY');
    await poll(() => gridColumn(page, 'name')).toEqual(expect.arrayContaining(['VY Own bakery', 'VY Moved clinic']));
    const row = (id: string) => page.locator(`.MuiDataGrid-row[data-id="${id}"]`);
    await expect(row(own).getByTestId('verify-note').textContent()).resolves.toBe(
      'You created or last changed this service: another verifier must verify it.',
    );
    await expect(row(own).getByRole('button', { name: 'Approve VY Own bakery' }).isDisabled()).resolves.toBe(true);
    await expect(row(again).getByTestId('verify-note').textContent()).resolves.toBe(
      'Verified before, then its address, contact or location changed: check it again.',
    );
    await expect(row(again).getByRole('button', { name: 'Approve VY Moved clinic' }).isDisabled()).resolves.toBe(false);
    await row(own).locator('[data-field="name"]').click();
    const review = page.getByRole('dialog', { name: 'VY Own bakery' });
    await review.getByTestId('review-note').getByText('another verifier must verify it').waitFor();
    await expect(review.getByRole('button', { name: 'Approve' }).isDisabled()).resolves.toBe(true);
    await context.close();
  });

  it('approves, rejects only with a comment, and the badges and lists follow', async () => {
    const spId = await seedProvider({ sp_Name: 'Verified Works', sp_type: 2, territory: 1, lat: -1.68, lng: 29.22 });
    const approveId = await seedService(spId, 'VX Approve tailoring');
    const rejectId = await seedService(spId, 'VX Reject welding');
    const before = await serverCounts();
    const { context, page } = await open(admin);
    await poll(() => badges(page)).toEqual(before);

    await page.getByRole('link', { name: /^Verify Services/ }).click();
    await page.getByRole('heading', { name: 'Verify Services', level: 1 }).waitFor();
    await search(page, 'VX');
    await poll(() => gridColumn(page, 'name')).toEqual(['VX Reject welding', 'VX Approve tailoring']);
    const row = (id: string) => page.locator(`.MuiDataGrid-row[data-id="${id}"]`);
    await expect(row(approveId).locator('[data-field="providerName"]').textContent()).resolves.toBe('Verified Works');
    await expect(row(approveId).locator('[data-field="category"]').textContent()).resolves.toBe('Health');
    await expect(row(approveId).locator('[data-field="territory"]').textContent()).resolves.toBe('Goma');
    await expectNoSeriousViolations(page, 'verify');

    // The row opens the whole service before deciding.
    await row(approveId).locator('[data-field="name"]').click();
    const review = page.getByRole('dialog', { name: 'VX Approve tailoring' });
    await review.getByText('What VX Approve tailoring offers').waitFor();
    await review.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Service verified' }).waitFor();
    await poll(() => gridColumn(page, 'name')).toEqual(['VX Reject welding']);
    await poll(() => badges(page)).toEqual({ pending: before.pending - 1, rejected: before.rejected });

    // Rejecting without a comment is refused on the spot.
    await page.getByRole('button', { name: 'Reject VX Reject welding' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject a service' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await reject.getByText('A comment is required to reject a service.').waitFor();
    expect((await server.api('GET', `/spDetail/${rejectId}`, { token: adminToken })).body.status).toBe(0);
    await reject.getByTestId('reject-comment').fill('No welding workshop at this address');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Service rejected' }).waitFor();
    await poll(() => gridColumn(page, 'name')).toEqual([]);
    await poll(() => badges(page)).toEqual({ pending: before.pending - 2, rejected: before.rejected + 1 });

    const approved = (await server.api('GET', `/spDetail/${approveId}`, { token: adminToken })).body;
    const rejected = (await server.api('GET', `/spDetail/${rejectId}`, { token: adminToken })).body;
    expect(approved.status).toBe(1);
    expect(rejected).toMatchObject({ status: 2, verifyComment: 'No welding workshop at this address' });

    // The provider's page shows each service's status.
    await page.goto(`/serviceproviders/${spId}`);
    await row(approveId).locator('[data-testid="status-chip"][data-status="verified"]').waitFor();
    await row(rejectId).locator('[data-testid="status-chip"][data-status="rejected"]').waitFor();
    await expect(page.getByRole('link', { name: 'Add a service' }).getAttribute('href')).resolves.toBe(
      `/serviceproviders/services/add?sp_Id=${spId}`,
    );
    await expectNoSeriousViolations(page, 'provider page');

    // The rejected list: comment, who, when, and the way to correct it.
    await page.goto('/serviceproviders/rejected');
    await search(page, 'VX');
    await poll(() => gridColumn(page, 'name')).toEqual(['VX Reject welding']);
    await expect(row(rejectId).locator('[data-field="comment"]').textContent()).resolves.toBe('No welding workshop at this address');
    await expect(row(rejectId).locator('[data-field="rejectedBy"]').textContent()).resolves.toBe('Awa Admin');
    await expect(row(rejectId).locator('[data-field="rejectedAt"]').textContent()).resolves.toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(page.getByRole('link', { name: 'Edit VX Reject welding' }).getAttribute('href')).resolves.toBe(
      `/serviceproviders/services/${rejectId}/edit`,
    );
    await expectNoSeriousViolations(page, 'rejected');
    await context.close();
  });
});

describe('accessibility in the dark theme and in French', () => {
  it('list, provider page, form, verify and rejected have no serious violation', async () => {
    const spId = await seedProvider({
      sp_Name: 'Sombre Centre',
      sp_type: 4,
      territory: 1,
      lat: -1.67,
      lng: 29.23,
      email: 'sombre@example.org',
    });
    const pending = await seedService(spId, 'Sombre attente');
    const refused = await seedService(spId, 'Sombre refus');
    const verified = await seedService(spId, 'Sombre vérifié');
    await server.api('POST', '/sverify/', {
      token: adminToken,
      body: { sp_Detail_Id: refused, status: 2, comment: 'Adresse introuvable' },
    });
    await server.api('POST', '/sverify/', { token: adminToken, body: { sp_Detail_Id: verified, status: 1 } });
    const { context, page } = await newPage(browser, { baseURL: server.url, lang: 'fr' });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(page, admin.userName, admin.password);

    await page.goto('/serviceproviders');
    await page.getByRole('heading', { name: 'Prestataires de services', level: 1 }).waitFor();
    await expectNoSeriousViolations(page, 'list (dark, fr)');
    await page.goto(`/serviceproviders/${spId}`);
    await page.locator(`.MuiDataGrid-row[data-id="${pending}"]`).locator('[data-testid="status-chip"][data-status="pending"]').waitFor();
    await page.locator('[data-testid="status-chip"][data-status="rejected"]').waitFor();
    await page.locator('[data-testid="status-chip"][data-status="verified"]').waitFor();
    await expectNoSeriousViolations(page, 'provider page (dark, fr)');
    await page.goto(`/serviceproviders/${spId}/edit`);
    await page.getByRole('heading', { name: 'Modifier Sombre Centre', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'E-mail' }).fill('pas-un-email');
    // Leave the field first: its message appears on blur and moves the button under the pointer.
    await page.getByRole('textbox', { name: 'E-mail' }).press('Tab');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByTestId('form-errors')
      .getByText(/E-mail/)
      .waitFor();
    await expectNoSeriousViolations(page, 'form (dark, fr)');
    await page.goto('/serviceproviders/verify');
    await search(page, 'Sombre');
    await poll(() => gridColumn(page, 'name')).toEqual(['Sombre attente']);
    await expectNoSeriousViolations(page, 'verify (dark, fr)');
    await page.getByRole('button', { name: 'Rejeter Sombre attente' }).click();
    await page.getByRole('dialog', { name: 'Rejeter un service' }).getByRole('button', { name: 'Rejeter' }).click();
    await page.getByText('Un commentaire est obligatoire pour rejeter un service.').waitFor();
    await expectNoSeriousViolations(page, 'reject dialog (dark, fr)');
    await page.keyboard.press('Escape');
    await page.goto('/serviceproviders/rejected');
    await search(page, 'Sombre');
    await poll(() => gridColumn(page, 'name')).toEqual(['Sombre refus']);
    await expectNoSeriousViolations(page, 'rejected (dark, fr)');
    await context.close();
  });
});
