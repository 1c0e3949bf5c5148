// Services screens (ADR-0026): list with filters, add with images, the service page with its
// images, apprenticeships and vocational trainings, edit (images kept, replaced, removed; a
// rejected service goes back to pending), delete with reason and password, offline create and
// upload, validation messages, the 403 page, and axe on each screen. Built app, real server.
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn, type PageOptions, type TestPage } from '../helpers/browser';
import { seriousViolations } from '../helpers/axe';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let fieldToken: string;
let adminToken: string;

const field = { userName: 'svcfield', password: 'field-password-4', role: 4, location: 1 };
const reports = { userName: 'svcreports', password: 'reports-password-2', role: 2, location: 1 };
const otherOrg = { userName: 'svcother', password: 'other-password-3', role: 4, location: 2 };

/** A real PNG of w×h pixels of one colour (decodable by the browser, distinct bytes per colour). */
function makePng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const RED = makePng(40, 30, [220, 30, 30]);
const BLUE = makePng(30, 40, [30, 30, 220]);
const GREEN = makePng(20, 20, [30, 180, 30]);

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  await server.createUser(field);
  await server.createUser(reports);
  await server.createUser(otherOrg);
  fieldToken = await server.login(field.userName, field.password);
  adminToken = await server.login(server.admin.userName, server.admin.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** expect.poll with room for a save, an upload or a page load. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

async function open(options: Partial<PageOptions> & { debug?: boolean } = {}): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: server.url, lang: 'en', ...options });
  if (options.debug) await opened.context.addInitScript(() => localStorage.setItem('icrsDebug', '1'));
  return opened;
}

async function signedIn(user = field, options: Partial<PageOptions> & { debug?: boolean } = {}): Promise<TestPage> {
  const opened = await open(options);
  await signIn(opened.page, user.userName, user.password);
  // The lookup lists are cached at sign-in: forms and lists label from them.
  await opened.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return opened;
}

let counter = 0;
async function apiProvider(name = `Centre ${++counter}`): Promise<string> {
  const { status, body } = await server.api('POST', '/sproviers/', {
    token: fieldToken,
    body: { sp_Name: name, sp_type: 1, territory: 2 },
  });
  expect(status).toBe(201);
  return body.sp_Id as string;
}

async function apiService(name: string, spId?: string): Promise<string> {
  const provider = spId ?? (await apiProvider());
  const { status, body } = await server.api('POST', '/spDetail/', {
    token: fieldToken,
    body: { sp_Id: provider, name, category: 1, serviceType: 1, territory: 2, hours: 'Mon-Fri 8-16' },
  });
  expect(status).toBe(201);
  return body.sp_Detail_Id as string;
}

async function serverService(id: string) {
  return server.api('GET', `/spDetail/${id}`, { token: fieldToken });
}

async function serverImage(id: string, name: unknown): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${server.url}/api/imgs/getById?id=${id}&imagename=${String(name)}`, {
    headers: { authorization: `Bearer ${fieldToken}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The non-empty image slots of a server row. */
function imageNames(row: Record<string, unknown>): string[] {
  return ['sp_img1', 'sp_img2', 'sp_img3'].map((slot) => row[slot]).filter((v): v is string => typeof v === 'string' && v !== '');
}

async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function optionNames(page: Page, label: string): Promise<string[]> {
  await page.getByRole('combobox', { name: label }).click();
  const names = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return names;
}

function addImages(page: Page, files: { name: string; data: Buffer }[]) {
  return page.getByTestId('image-file').setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'image/png', buffer: f.data })));
}

/** Waits until every image of the service page is drawn (fetched with the token, or local). */
/** Waits until the page shows `expected` images, each loaded (images arrive after the record). */
async function expectShownImages(page: Page, expected: number): Promise<void> {
  await poll(() => page.getByTestId('service-image').count()).toBe(expected);
  await poll(() => page.locator('[data-testid="service-image"] img[src^="blob:"]').count()).toBe(expected);
}

async function goOffline(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await page.waitForFunction(() => Boolean(window.__icrs?.data));
}

async function goOnline(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
  await page.waitForURL((url) => url.pathname === '/');
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

describe('services online', () => {
  it('creates a service with 2 images, lists it, shows its page, and the server has the images', async () => {
    const spId = await apiProvider('Hope Clinic');
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/add?sp_Id=${spId}`);
    await page.getByRole('heading', { name: 'Add service' }).waitFor();
    await expect(page.getByTestId('chosen-provider').textContent()).resolves.toBe('Hope Clinic');

    await page.getByLabel('Name').fill('Prenatal consultations');
    // The provider's territory is the starting value.
    await expect(page.getByRole('combobox', { name: 'Territory' }).inputValue()).resolves.not.toBe('');
    // Service types follow the chosen category (lookup `parent`).
    await pickOption(page, 'Category', 'Health');
    const types = await optionNames(page, 'Service type');
    expect(types).toEqual(expect.arrayContaining(['Medical consultation', 'Maternal health']));
    expect(types).not.toContain('School enrolment');
    await pickOption(page, 'Service type', 'Maternal health');
    await page.getByLabel('Opening hours').fill('Mon-Sat 7-15');

    await addImages(page, [
      { name: 'front.png', data: RED },
      { name: 'inside.png', data: BLUE },
    ]);
    await page.getByText('Photos of the service (2 of 3)').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('heading', { name: 'Prenatal consultations' }).waitFor();
    await toast(page, 'Service saved').getByText('Prenatal consultations was saved and waits for verification.').waitFor();
    const id = page.url().split('/').pop() as string;
    await expect(page.getByTestId('status-chip').textContent()).resolves.toBe('Pending');
    await expect(page.getByTestId('provider-link').textContent()).resolves.toBe('Hope Clinic');
    await page.getByText('Maternal health').waitFor();
    await expectShownImages(page, 2);

    // On the server, with both images, byte for byte (small PNGs are kept as they are).
    const { status, body } = await serverService(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Prenatal consultations',
      sp_Id: spId,
      category: 1,
      serviceType: 2,
      hours: 'Mon-Sat 7-15',
      status: 0,
    });
    expect((await serverImage(id, body.sp_img1)).bytes.equals(RED)).toBe(true);
    expect((await serverImage(id, body.sp_img2)).bytes.equals(BLUE)).toBe(true);

    // The list shows it; the status chips filter it.
    await page.getByRole('link', { name: 'Services' }).first().click();
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Prenatal consultations' });
    await row.waitFor();
    await expect(row.getByText('Pending').count()).resolves.toBe(1);
    await page.getByTestId('status-filter-verified').click();
    await poll(() => row.count()).toBe(0);
    await page.getByTestId('status-filter-pending').click();
    await row.waitFor();
    await row.click();
    await page.waitForURL((url) => url.pathname === `/serviceproviders/services/${id}`);
    await context.close();
  });

  it('edits a service: removes one image and replaces the other', async () => {
    const spId = await apiProvider();
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/add?sp_Id=${spId}`);
    await page.getByLabel('Name').fill('Literacy evenings');
    await pickOption(page, 'Category', 'Education and training');
    await pickOption(page, 'Service type', 'Literacy classes');
    await addImages(page, [
      { name: 'a.png', data: RED },
      { name: 'b.png', data: BLUE },
    ]);
    await page.getByText('Photos of the service (2 of 3)').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Literacy evenings' }).waitFor();
    const id = page.url().split('/').pop() as string;
    const before = (await serverService(id)).body;

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Literacy evenings' }).waitFor();
    await page.getByText('Photos of the service (2 of 3)').waitFor();
    await poll(() => page.locator('fieldset img[src^="blob:"]').count()).toBe(2); // the server's images, fetched
    // Remove both, then add one: the new image takes a slot, the other slot is emptied.
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await page.getByText('Photos of the service (0 of 3)').waitFor();
    await addImages(page, [{ name: 'c.png', data: GREEN }]);
    await page.getByText('Photos of the service (1 of 3)').waitFor();
    await page.getByLabel('Opening hours').fill('Evenings');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Service updated').getByText('Literacy evenings was updated.').waitFor();
    await page.getByRole('heading', { name: 'Literacy evenings' }).waitFor();
    await expectShownImages(page, 1);

    const after = (await serverService(id)).body;
    expect(after.hours).toBe('Evenings');
    const names = imageNames(after);
    expect(names).toHaveLength(1);
    expect(imageNames(before)).not.toContain(names[0]);
    expect((await serverImage(id, names[0])).bytes.equals(GREEN)).toBe(true);
    await context.close();
  });

  it('adds and edits apprenticeships and vocational trainings of a service', async () => {
    const id = await apiService('Garage workshop');
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/${id}`);
    await page.getByRole('heading', { name: 'Garage workshop' }).waitFor();

    const appr = page.getByTestId('section-appr');
    await appr.getByRole('link', { name: 'Add apprenticeship' }).click();
    await page.getByRole('heading', { name: 'Add apprenticeship' }).waitFor();
    await page.getByRole('link', { name: 'Garage workshop' }).waitFor();
    const trades = await optionNames(page, 'Trade');
    expect(trades.length).toBeGreaterThan(0);
    await pickOption(page, 'Trade', trades[0] as string);
    await page.getByLabel('Places').fill('6');
    await page.getByLabel('Duration (months)').fill('18');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Garage workshop' }).waitFor();
    await toast(page, 'Apprenticeship saved').waitFor();
    const apprRow = appr.getByRole('row').filter({ hasText: trades[0] as string });
    await apprRow.waitFor();
    await expect(apprRow.getByText('18').count()).resolves.toBe(1);

    // Rows open their form only once the page knows the user may change the service (its
    // provider's record read, as Add shows): until then a click on a row does nothing.
    await appr.getByRole('link', { name: 'Add apprenticeship' }).waitFor();
    await apprRow.click();
    // The row's click opens its form: a lost click fails here, a slow form below.
    await page.waitForURL(/\/appr\/[^/]+\/edit$/, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Edit apprenticeship' }).waitFor();
    await expect(page.getByLabel('Places').inputValue()).resolves.toBe('6');
    await page.getByLabel('Places').fill('9');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Garage workshop' }).waitFor();
    await poll(() =>
      appr
        .getByRole('row')
        .filter({ hasText: trades[0] as string })
        .getByText('9', { exact: true })
        .count(),
    ).toBe(1);

    const voc = page.getByTestId('section-voc');
    await voc.getByRole('link', { name: 'Add vocational training' }).click();
    await page.getByRole('heading', { name: 'Add vocational training' }).waitFor();
    const fields = await optionNames(page, 'Field');
    await pickOption(page, 'Field', fields[0] as string);
    await page.getByLabel('Certificate').fill('State diploma');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Garage workshop' }).waitFor();
    const vocRow = voc.getByRole('row').filter({ hasText: 'State diploma' });
    await voc.getByRole('link', { name: 'Add vocational training' }).waitFor();
    await vocRow.click();
    await page.waitForURL(/\/voc\/[^/]+\/edit$/, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Edit vocational training' }).waitFor();
    await page.getByLabel('Certificate').fill('Trade certificate');
    await page.getByRole('button', { name: 'Save' }).click();
    await voc.getByRole('row').filter({ hasText: 'Trade certificate' }).waitFor();

    const apprs = await server.api('GET', `/appr/spd/${id}`, { token: fieldToken });
    expect(apprs.body.rows).toEqual([expect.objectContaining({ sp_d_Id: id, places: 9, durationMonths: 18 })]);
    const vocs = await server.api('GET', `/vocTrain/spd/${id}`, { token: fieldToken });
    expect(vocs.body.rows).toEqual([expect.objectContaining({ sp_d_Id: id, certificate: 'Trade certificate' })]);
    await context.close();
  });

  it('deletes a service only with the right password', async () => {
    const id = await apiService('Closed kitchen');
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/${id}`);
    await page.getByRole('heading', { name: 'Closed kitchen' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Closed kitchen?' });
    await dialog.getByLabel('Reason').fill('The kitchen closed');
    await dialog.getByLabel('Your password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').waitFor();
    expect((await serverService(id)).status).toBe(200);

    await dialog.getByLabel('Your password').fill(field.password);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/serviceproviders/services');
    await toast(page, 'Service deleted').waitFor();
    expect((await serverService(id)).status).toBe(404);
    await context.close();
  });

  it('keeps an unsaved new service across a reload, category and type included', async () => {
    const spId = await apiProvider();
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/add?sp_Id=${spId}`);
    await page.getByLabel('Name').fill('Half-typed service');
    await pickOption(page, 'Category', 'Health');
    await pickOption(page, 'Service type', 'Maternal health');
    await page.waitForTimeout(500); // the draft is written after a short pause
    await page.reload();
    await page.getByText(/Unsaved changes from .* were restored/).waitFor();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('Half-typed service');
    await expect(page.getByRole('combobox', { name: 'Service type' }).inputValue()).resolves.toBe('Maternal health');
    await context.close();
  });

  it('shows validation messages: required fields and maximum length', async () => {
    const spId = await apiProvider();
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/add?sp_Id=${spId}`);
    await page.getByRole('button', { name: 'Save' }).click();
    const summary = page.getByTestId('form-errors');
    await summary.getByText('Name is required').waitFor();
    await summary.getByText('Category is required').waitFor();
    await summary.getByText('Service type is required').waitFor();
    // The same messages on the fields themselves.
    await expect(page.getByRole('combobox', { name: 'Category' }).getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Name').fill('x'.repeat(201));
    await page.getByText('Name must have at most 200 characters (now 201)').first().waitFor();
    await page.getByLabel('Cost').fill('y'.repeat(201));
    await page.getByLabel('Cost').blur();
    await page.getByText('Cost must have at most 200 characters (now 201)').first().waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    expect(new URL(page.url()).pathname).toBe('/serviceproviders/services/add');
    expect((await server.api('GET', `/spDetail/getbySp/${spId}`, { token: fieldToken })).body.total).toBe(0);
    await context.close();
  });

  it('a rejected service shows the comment, and saving it sends it back to pending', async () => {
    const id = await apiService('Legal desk');
    const verified = await server.api('POST', '/sverify/', {
      token: adminToken,
      body: { sp_Detail_Id: id, status: 2, comment: 'Opening hours are missing' },
    });
    expect(verified.status).toBe(200);
    const { context, page } = await signedIn();
    await page.goto(`/serviceproviders/services/${id}`);
    await page.getByRole('heading', { name: 'Legal desk' }).waitFor();
    await expect(page.getByTestId('status-chip').textContent()).resolves.toBe('Rejected');
    await page
      .getByTestId('rejected-comment')
      .getByText(/Opening hours are missing/)
      .waitFor();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Opening hours').fill('Tue and Thu 9-12');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Service updated').getByText('Legal desk was updated and sent back for verification.').waitFor();
    await poll(() => page.getByTestId('status-chip').textContent()).toBe('Pending');
    await expect(page.getByTestId('rejected-comment').count()).resolves.toBe(0);
    expect((await serverService(id)).body).toMatchObject({ status: 0, hours: 'Tue and Thu 9-12' });
    await context.close();
  });
});

describe('services offline', () => {
  it('creates a service with an image and an apprenticeship offline, then uploads them', async () => {
    const spId = await apiProvider('Riverside Centre');
    const { context, page } = await signedIn(field, { debug: true });
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    // The provider reaches the device through the pull replication (own organisation).
    await poll(() =>
      page.evaluate((key) => window.__icrs!.db.collections.tbl_serviceprovider.findOne(key).exec().then(Boolean), spId),
    ).toBe(true);
    await goOffline(page);

    await page.goto('/serviceproviders/services/add');
    await page.getByRole('heading', { name: 'Add service' }).waitFor();
    await page.getByRole('combobox', { name: 'Service provider' }).fill('Riverside');
    await page.getByRole('option', { name: /Riverside Centre/ }).click();
    await expect(page.getByTestId('chosen-provider').textContent()).resolves.toBe('Riverside Centre');
    await page.getByLabel('Name').fill('Water point repairs');
    await pickOption(page, 'Category', 'Water, sanitation and hygiene');
    const types = await optionNames(page, 'Service type');
    await pickOption(page, 'Service type', types[0] as string);
    await addImages(page, [{ name: 'pump.png', data: GREEN }]);
    await page.getByText('Photos of the service (1 of 3)').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Service saved')
      .getByText('Water point repairs was saved on this device. It will be sent with the next upload.')
      .waitFor();
    await page.getByRole('heading', { name: 'Water point repairs' }).waitFor();
    const id = page.url().split('/').pop() as string;
    await page.getByTestId('not-uploaded').waitFor();
    await expect(page.getByTestId('status-chip').textContent()).resolves.toBe('Pending');
    await expectShownImages(page, 1);
    await page.getByTestId('service-image').getByText('not uploaded').waitFor();

    // An apprenticeship of the service, offline too.
    await page.getByTestId('section-appr').getByRole('link', { name: 'Add apprenticeship' }).click();
    const trades = await optionNames(page, 'Trade');
    await pickOption(page, 'Trade', trades[0] as string);
    await page.getByLabel('Places').fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Water point repairs' }).waitFor();
    await page
      .getByTestId('section-appr')
      .getByRole('row')
      .filter({ hasText: trades[0] as string })
      .getByTestId('not-uploaded')
      .waitFor();

    // The list (from the device) marks it as not uploaded.
    await page.goto('/serviceproviders/services');
    const row = page.getByRole('row').filter({ hasText: 'Water point repairs' });
    await row.getByTestId('not-uploaded').waitFor();
    expect((await serverService(id)).status).toBe(404);

    await goOnline(page);
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await poll(() => page.getByTestId('offline-count-services-value').textContent()).toBe('0');
    // The run settles the apprenticeship after the server answers: leaving the page before that
    // would lose the answer (the next upload would find it as a duplicate), so wait for the end.
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor();
    await page.getByRole('button', { name: 'Upload Data online' }).waitFor(); // back once the run ends
    await poll(async () => (await serverService(id)).status).toBe(200);
    const { body } = await serverService(id);
    expect(body).toMatchObject({ name: 'Water point repairs', sp_Id: spId, status: 0 });
    expect((await serverImage(id, body.sp_img1)).bytes.equals(GREEN)).toBe(true);
    await poll(async () => (await server.api('GET', `/appr/spd/${id}`, { token: fieldToken })).body.total).toBe(1);

    // Online now: the page reads the server's copy, with its image.
    await page.goto(`/serviceproviders/services/${id}`);
    await page.getByRole('heading', { name: 'Water point repairs' }).waitFor();
    await expectShownImages(page, 1);
    await poll(() => page.getByTestId('not-uploaded').count()).toBe(0);
    await context.close();
  });

  it('edits a server service offline, removing its image (uploaded later), refuses a delete offline, and discards one never uploaded', async () => {
    const id = await apiService('Night shelter');
    // The service has a photo on the server, which the field worker finds wrong and removes offline.
    const form = new FormData();
    form.append('data', JSON.stringify({}));
    form.append('sp_img1', new Blob([new Uint8Array(GREEN)], { type: 'image/png' }), 'wrong.png');
    const withImage = await fetch(`${server.url}/api/spDetail/${id}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${fieldToken}` },
    });
    expect(withImage.status).toBe(200);
    const { context, page } = await signedIn(field, { debug: true });
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    await poll(() => page.evaluate((key) => window.__icrs!.db.collections.tbl_sp_detail.findOne(key).exec().then(Boolean), id)).toBe(true);
    await goOffline(page);

    await page.goto(`/serviceproviders/services/${id}/edit`);
    await page.getByRole('heading', { name: 'Edit Night shelter' }).waitFor();
    await page.getByLabel('Opening hours').fill('Every night 19-7');
    await page.getByText('Photos of the service (1 of 3)').waitFor();
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await page.getByText('Photos of the service (0 of 3)').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Service updated')
      .getByText('The changes to Night shelter were saved on this device. They will be sent with the next upload.')
      .waitFor();
    await page.getByRole('heading', { name: 'Night shelter' }).waitFor();
    await page.getByTestId('not-uploaded').waitFor();
    await page.getByText('Every night 19-7').waitFor();
    expect((await serverService(id)).body).toMatchObject({ hours: 'Mon-Fri 8-16', sp_img1: expect.any(String) });

    // The server's copy can only be deleted online: said plainly, nothing deleted.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Night shelter?' });
    await dialog.getByLabel('Reason').fill('Closed for good');
    await dialog.getByLabel('Your password').fill(field.password);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/Deleting needs online mode/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A service never uploaded is discarded from the device, without reason or password.
    const spId = (await serverService(id)).body.sp_Id as string;
    await page.goto(`/serviceproviders/services/add?sp_Id=${spId}`);
    await page.getByLabel('Name').fill('Draft service');
    await pickOption(page, 'Category', 'Health');
    await pickOption(page, 'Service type', 'Medical consultation');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Draft service' }).waitFor();
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard this service?' }).getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL((url) => url.pathname === '/serviceproviders/services');
    await page.getByRole('row').filter({ hasText: 'Night shelter' }).waitFor();
    await expect(page.getByRole('row').filter({ hasText: 'Draft service' }).count()).resolves.toBe(0);

    await goOnline(page);
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    // The fields and the emptied slot may go in two requests (a field cleared too): wait for both.
    await poll(async () => {
      const { hours, sp_img1 } = (await serverService(id)).body;
      return { hours, sp_img1 };
    }).toEqual({ hours: 'Every night 19-7', sp_img1: null });
    await context.close();
  });
});

describe('roles and accessibility', () => {
  it('role 2 gets the 403 page on every service screen', async () => {
    const id = await apiService('Hidden service');
    const { context, page } = await signedIn(reports);
    for (const path of [
      '/serviceproviders/services',
      '/serviceproviders/services/add',
      `/serviceproviders/services/${id}`,
      `/serviceproviders/services/${id}/edit`,
      `/serviceproviders/services/${id}/appr/add`,
    ]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/forbidden');
      await page.getByText('403', { exact: true }).waitFor();
    }
    await context.close();
  });

  it("another organisation's service is shown without Edit, Delete or Add buttons; its own organisation gets them", async () => {
    const id = await apiService('Service of organisation 1');
    const other = await signedIn(otherOrg);
    await other.page.goto(`/serviceproviders/services/${id}`);
    await other.page.getByRole('heading', { level: 1, name: /Service of organisation 1/ }).waitFor();
    await other.page.getByTestId('provider-link').filter({ hasNotText: 'Loading' }).waitFor();
    const content = other.page.getByRole('main');
    await expect(content.getByRole('button', { name: /^(Edit|Delete|Add)/ }).count()).resolves.toBe(0);
    await expect(content.getByRole('link', { name: /^(Edit|Add)/ }).count()).resolves.toBe(0);
    await other.context.close();

    const owner = await signedIn(field);
    await owner.page.goto(`/serviceproviders/services/${id}`);
    await owner.page.getByRole('main').getByRole('link', { name: /^Edit/ }).first().waitFor();
    await owner.context.close();
  });

  it('list, service page and form have no serious accessibility violation (light and dark)', async () => {
    const id = await apiService('Accessible service');
    for (const theme of ['light', 'dark']) {
      const { context, page } = await open();
      await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signIn(page, field.userName, field.password);
      await page.waitForFunction(() => localStorage.getItem('lists') !== null);

      await page.goto('/serviceproviders/services');
      await page.getByRole('row').filter({ hasText: 'Accessible service' }).waitFor();
      expect(await seriousViolations(page), `list ${theme}`).toEqual([]);

      await page.goto(`/serviceproviders/services/${id}`);
      await page.getByTestId('section-voc').getByRole('grid').waitFor();
      await page.getByTestId('provider-link').waitFor();
      expect(await seriousViolations(page), `page ${theme}`).toEqual([]);

      await page.goto(`/serviceproviders/services/${id}/edit`);
      await page.getByRole('heading', { name: 'Edit Accessible service' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).waitFor();
      expect(await seriousViolations(page), `form ${theme}`).toEqual([]);

      await page.goto('/serviceproviders/services/add');
      await page.getByRole('combobox', { name: 'Service provider' }).waitFor();
      expect(await seriousViolations(page), `add ${theme}`).toEqual([]);
      await context.close();
    }
  }, 120_000); // six pages under axe, each theme: over a minute on a slow 2-core machine
});
