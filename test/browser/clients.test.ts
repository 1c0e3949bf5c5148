// Clients (ADR-0028): a client registered online and one offline through every step, with a
// photo and a PDF document; a reload in the middle of the offline one; the upload; both found in
// the list by registration number with every part and file on the server; the duplicate
// warning online and offline; the spec's error for a user without organisation; roles 2, 6 and
// 7 without menu and with a 403; axe on the list, each step and the client page, light and dark,
// at 360 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, signIn, typedDay, type TestPage } from '../helpers/browser';
import { ensureOrganisations, png } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
let token: string;

const worker = { userName: 'field4', password: 'field-password-4', role: 4, location: 2 };
const noOrganisation = { userName: 'noorg3', password: 'noorg-password-3', role: 3, location: 0 };
/** Each with a menu entry the role does have, so that the menu is known to be there. */
const refused = [
  { userName: 'reports2', password: 'reports-password-2', role: 2, location: 2, has: 'Reports' },
  { userName: 'restricted6', password: 'restricted-password-6', role: 6, location: 2, has: 'Available Jobs' },
  { userName: 'orgadmin7', password: 'orgadmin-password-7', role: 7, location: 2, has: 'User Management' },
];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(t.server.db);
  for (const { has: _has, ...user } of [worker, ...refused].map((u) => ({ has: '', ...u }))) await t.createUser(user);
  await t.createUserWithoutOrganisation(noOrganisation); // an account made before organisations were required (ADR-0007)
  token = await t.login(worker.userName, worker.password);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const PHOTO = png(8, [180, 90, 60]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 100 });

async function signedIn(
  user: { userName: string; password: string } = worker,
  options: { lang?: 'en' | 'fr'; viewport?: { width: number; height: number } } = {},
): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: t.url, lang: options.lang ?? 'en', viewport: options.viewport });
  await signIn(opened.page, user.userName, user.password);
  await opened.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return opened;
}

async function choose(page: Page, label: RegExp, option?: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('option');
  await (option ? options.filter({ hasText: option }).first() : options.first()).click();
  await page.keyboard.press('Escape');
}

interface Person {
  first: string;
  last: string;
  birth: string;
  phone: string;
}

async function fillIdentity(page: Page, p: Person): Promise<void> {
  await page.getByRole('textbox', { name: /^First name/ }).fill(p.first);
  await page.getByRole('textbox', { name: /^Last name/ }).fill(p.last);
  await choose(page, /^Sex/, 'Female');
  await page.getByLabel(/^Date of birth/).fill(typedDay(p.birth));
  await page.getByRole('textbox', { name: /^Phone/ }).fill(p.phone);
  await choose(page, /^Territory/, 'Goma');
  await page
    .getByRole('radiogroup', { name: /agrees that their data is kept/ })
    .getByRole('radio', { name: 'Yes' })
    .check();
}

const next = (page: Page) => page.getByRole('button', { name: 'Next', exact: true }).click();
const stepTitle = (page: Page) => page.locator('#client-step-title');

async function atStep(page: Page, title: string): Promise<void> {
  await poll(async () => (await stepTitle(page).textContent())?.startsWith(title)).toBe(true);
}

/** Identity → services → skills → social → security (skipped) → business. */
async function fillUpToFiles(page: Page, p: Person): Promise<void> {
  await fillIdentity(page, p);
  await next(page);
  await atStep(page, 'Basic services');
  await choose(page, /^Organisational help/, 'Start-up kit');
  await next(page);
  await atStep(page, 'Skills');
  await choose(page, /^Skills/);
  await page.getByRole('textbox', { name: /^Diploma/ }).fill('State diploma');
  await next(page);
  await atStep(page, 'Social situation');
  await choose(page, /^Marital status/, 'Married');
  await page.getByRole('spinbutton', { name: /^Dependants/ }).fill('3');
  await next(page);
  await atStep(page, 'Security');
  await page.getByRole('button', { name: 'Skip this step' }).click();
  await atStep(page, 'Business start');
  await page.getByRole('textbox', { name: /^Business idea/ }).fill('A tailoring workshop');
  await next(page);
  await atStep(page, 'Photo and documents');
}

async function addFiles(page: Page): Promise<void> {
  await page.getByTestId('file-input-photo').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PHOTO });
  await page.getByTestId('file-slot-photo').locator('img').waitFor();
  await page.getByTestId('file-input-idDocument').setInputFiles({ name: 'id-card.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByTestId('file-slot-idDocument').getByText('id-card.pdf').waitFor();
}

/** Waits until the drafts' database of the signed-in user holds `count` files. */
async function draftFilesKept(page: Page, count: number): Promise<void> {
  await page.waitForFunction(async (expected) => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.startsWith('icrs_drafts-'));
    let kept = 0;
    for (const name of names) {
      kept += await new Promise<number>((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('files')) return (db.close(), resolve(0));
          const counting = db.transaction('files').objectStore('files').count();
          counting.onsuccess = () => (db.close(), resolve(counting.result));
          counting.onerror = () => (db.close(), resolve(0));
        };
      });
    }
    return kept >= expected;
  }, count);
}

/** Saves from the review step; answers the new client's key and registration number. */
async function saveFromReview(page: Page): Promise<{ profId: string; regNo: string }> {
  await next(page);
  await atStep(page, 'Review and save');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL((url) => /^\/profiles\/[0-9a-f-]{36}$/.test(url.pathname));
  const profId = new URL(page.url()).pathname.split('/').pop() as string;
  const regNo = (await page.getByTestId('client-reg-no').textContent()) ?? '';
  return { profId, regNo };
}

async function serverFile(profId: string, kind: string): Promise<Buffer> {
  const response = await fetch(`${t.url}/api/imgs/getfile?id=${profId}&filename=${kind}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Every part of the client is on the server: profile, the records filled in (security was
 * skipped), the photo and the PDF. */
async function expectOnServer(profId: string, p: Person): Promise<void> {
  const client = await t.api('GET', `/profile/${profId}`, { token });
  expect(client.status).toBe(200);
  expect(client.body).toMatchObject({ firstName: p.first, lastName: p.last, sex: 'F', birthDate: p.birth, consent: true });
  expect(client.body.BspData.orgHelp).toHaveLength(1);
  expect((await t.api('GET', `/profile/skprofile/${profId}`, { token })).body).toMatchObject({ diploma: 'State diploma' });
  expect((await t.api('GET', `/profile/social/${profId}`, { token })).body).toMatchObject({ maritalStatus: 'married', dependants: 3 });
  expect((await t.api('GET', `/profile/Bstart/${profId}`, { token })).body).toMatchObject({ businessIdea: 'A tailoring workshop' });
  expect((await t.api('GET', `/profile/security/${profId}`, { token })).status).toBe(404);
  const files = await t.api('GET', `/profile/images/${profId}`, { token });
  expect(files.body.map((f: { img_for: string }) => f.img_for).sort()).toEqual(['idDocument', 'photo']);
  expect((await serverFile(profId, 'idDocument')).equals(PDF)).toBe(true);
  expect((await serverFile(profId, 'photo')).subarray(0, 4).equals(PHOTO.subarray(0, 4))).toBe(true);
}

const online: Person = { first: 'Amani', last: 'Kahindo', birth: '1994-03-12', phone: '+243 81 555 0101' };
const offline: Person = { first: 'Bahati', last: 'Masika', birth: '2001-07-30', phone: '+243 99 555 0202' };

describe('clients', () => {
  it('registers a client online through every step, with a photo and a PDF, and warns of a duplicate', async () => {
    const { context, page } = await signedIn();
    await page.goto('/profiles/add');
    await atStep(page, 'Identity');
    expect(await seriousViolations(page)).toEqual([]);
    // A step is checked before the next: nothing filled in, the required fields say so.
    await next(page);
    await page.getByText('First name is required').waitFor();
    await page.getByText(/agrees that their data is kept is required/).waitFor();
    await fillUpToFiles(page, online);
    await addFiles(page);
    const { profId, regNo } = await saveFromReview(page);
    expect(regNo).toMatch(/^ADC[A-Z0-9]{8}$/);
    await page.getByTestId('client-saved').getByText(regNo).waitFor();
    await expectOnServer(profId, online);
    // The client's page: every section, who registered and when.
    await page
      .getByTestId('client-registered')
      .getByText(/^Registered on .+ by .+/)
      .waitFor();
    await page.getByTestId('client-social').getByText('Married').waitFor();
    await page.getByTestId('client-to-complete').getByTestId('client-empty-security').waitFor();
    await page.getByTestId('file-slot-idDocument').getByText('id-card.pdf').waitFor();
    // Its referrals, and the way to make one (ADR-0029).
    await page.getByTestId('client-referrals').getByRole('link', { name: 'Refer to a service' }).waitFor();

    // The same person again: the warning names the first one, with a link; saving stays possible.
    await page.goto('/profiles/add');
    await fillIdentity(page, { ...online, first: 'AMANI ', phone: '' });
    await next(page);
    const warning = page.getByTestId('possible-duplicates');
    await warning.getByRole('link', { name: regNo }).waitFor();
    await expect(warning.textContent()).resolves.toContain('same names and date of birth');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('registers a client offline, survives reloads in the middle, and uploads every part', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.goto('/profiles/add');
    await fillIdentity(page, offline);
    await next(page);
    await atStep(page, 'Basic services');
    await choose(page, /^Organisational help/, 'Start-up kit');
    await next(page);
    await atStep(page, 'Skills');

    // A reload in the middle: the registration comes back at its step with its values.
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    await atStep(page, 'Skills');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await atStep(page, 'Identity');
    await expect(page.getByRole('textbox', { name: /^First name/ }).inputValue()).resolves.toBe(offline.first);
    await next(page);
    await next(page);
    await choose(page, /^Skills/);
    await page.getByRole('textbox', { name: /^Diploma/ }).fill('State diploma');
    await next(page);
    await choose(page, /^Marital status/, 'Married');
    await page.getByRole('spinbutton', { name: /^Dependants/ }).fill('3');
    await next(page);
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByRole('textbox', { name: /^Business idea/ }).fill('A tailoring workshop');
    await next(page);
    await addFiles(page);
    // The picked files survive a reload too, once kept (sealing them takes a moment).
    await draftFilesKept(page, 2);
    await page.reload();
    await atStep(page, 'Photo and documents');
    await page.getByTestId('file-slot-photo').locator('img').waitFor();
    await page.getByTestId('file-slot-idDocument').getByText('id-card.pdf').waitFor();
    const { profId, regNo } = await saveFromReview(page);
    expect(regNo).toMatch(/^ADC[A-Z0-9]{8}$/);
    await page.getByTestId('client-summary').getByTestId('not-uploaded').waitFor();
    await page.getByTestId('client-referrals-later').waitFor(); // referred once uploaded
    expect((await t.api('GET', `/profile/${profId}`, { token })).status).toBe(404);

    // Offline, the duplicate warning searches the device's store.
    await page.goto('/profiles/add');
    await expect(page.getByTestId('draft-restored').count()).resolves.toBe(0);
    await fillIdentity(page, { ...offline, first: 'bahati', last: 'MASIKA' });
    await next(page);
    await page.getByTestId('possible-duplicates').getByRole('link', { name: regNo }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    // The list shows it at once, marked not uploaded.
    await page.goto('/profiles');
    await page.getByRole('row').filter({ hasText: regNo }).getByTestId('not-uploaded').waitFor();

    // Online again: the upload sends the profile, its records, then its files.
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await poll(() => page.getByTestId('report-tbl_profiles-success').textContent()).toBe('1');
    await poll(() => page.getByTestId('report-tbl_profiles_images-success').textContent()).toBe('2');
    await expectOnServer(profId, offline);

    // Both clients are found in the list by their registration number.
    await page.goto('/profiles');
    await page.getByTestId('grid-search').fill(regNo);
    await poll(() => page.getByRole('row').filter({ hasText: regNo }).count()).toBe(1);
    await poll(() => page.getByRole('row').count()).toBe(2); // header + the client
    await page.getByRole('row').filter({ hasText: regNo }).click();
    await page.waitForURL((url) => url.pathname.endsWith(profId));
    await page.getByTestId('client-business').getByText('A tailoring workshop').waitFor();
    await context.close();
  }, 120_000); // a whole registration, two reloads and an upload: over a minute on a loaded CI machine

  it('edits one section from the client page and removes a document from the server', async () => {
    const list = await t.api('GET', `/profile?q=${encodeURIComponent(online.last)}`, { token });
    const profId = list.body.rows[0].prof_Id as string;
    const { context, page } = await signedIn();
    await page.goto(`/profiles/${profId}`);
    await page.getByRole('link', { name: 'Edit: Photo and documents' }).click();
    await atStep(page, 'Photo and documents');
    await page.getByRole('button', { name: 'Remove the Identity document' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/profiles/${profId}`);
    await poll(async () =>
      (await t.api('GET', `/profile/images/${profId}`, { token })).body.map((f: { img_for: string }) => f.img_for),
    ).toEqual(['photo']);
    await poll(
      async () =>
        (await fetch(`${t.url}/api/imgs/getfile?id=${profId}&filename=idDocument`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
    ).toBe(404);
    await context.close();
  });

  it("keeps a colleague's change made while the form was open: the save is a conflict", async () => {
    const list = await t.api('GET', `/profile?q=${encodeURIComponent(online.last)}`, { token });
    const profId = list.body.rows[0].prof_Id as string;
    const { context, page } = await signedIn();
    await page.goto(`/profiles/edit/${profId}?step=identity`);
    await page.getByRole('textbox', { name: /^Address/ }).fill('Typed in the form');
    const colleague = await t.api('PUT', `/profile/${profId}`, { token, body: { address: 'Changed by a colleague' } });
    expect(colleague.status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByTestId('client-save-error')
      .getByText(/Someone changed this client since you opened it/)
      .waitFor();
    expect((await t.api('GET', `/profile/${profId}`, { token })).body.address).toBe('Changed by a colleague');
    await context.close();
  });

  it('opens a section edit over an unfinished draft of other sections as the whole draft, and saves every change', async () => {
    const list = await t.api('GET', `/profile?q=${encodeURIComponent(online.last)}`, { token });
    const profId = list.body.rows[0].prof_Id as string;
    const { context, page } = await signedIn();
    // A whole-form edit left unfinished: the draft survives the way out of the page.
    await page.goto(`/profiles/edit/${profId}`);
    await page.getByRole('textbox', { name: /^Address/ }).fill('Kept from the draft');
    await page.goto(`/profiles/${profId}`);
    await page.getByRole('link', { name: 'Edit: Social situation' }).click();
    // The draft changed the identity: the section edit shows the whole draft, at that section, and says so.
    await page
      .getByTestId('draft-restored')
      .getByText(/in other sections too/)
      .waitFor();
    await atStep(page, 'Social situation');
    await expect(page.getByRole('textbox', { name: /^Address/ }).count()).resolves.toBe(0);
    await page.getByRole('spinbutton', { name: /^Dependants/ }).fill('5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/profiles/${profId}`);
    expect((await t.api('GET', `/profile/${profId}`, { token })).body.address).toBe('Kept from the draft');
    expect((await t.api('GET', `/profile/social/${profId}`, { token })).body.dependants).toBe(5);
    await context.close();
  });

  it('refuses a user without organisation with the spec error, storing nothing', async () => {
    const before = (await t.api('GET', '/profile', { token: await t.login(t.admin.userName, t.admin.password) })).body.total;
    const { context, page } = await signedIn(noOrganisation);
    // No 'Add Clients' in the menu (product.md §2: only when the location is not 0).
    await page.getByRole('link', { name: 'Client List' }).waitFor({ state: 'attached' });
    await expect(page.getByRole('link', { name: 'Add Clients' }).count()).resolves.toBe(0);
    await page.goto('/profiles/add');
    await page.getByTestId('no-organisation').getByText('Error Saving Super admin cannot create').waitFor();
    await fillIdentity(page, { first: 'Chance', last: 'Mbusa', birth: '1990-01-01', phone: '+243 81 555 0303' });
    for (let i = 0; i < 7; i += 1) await next(page);
    await atStep(page, 'Review and save');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('client-save-error').getByText('Error Saving Super admin cannot create').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profiles/add');
    const after = (await t.api('GET', '/profile', { token: await t.login(t.admin.userName, t.admin.password) })).body.total;
    expect(after).toBe(before);
    await context.close();
  });

  it('hides clients from roles 2, 6 and 7 and refuses them (403 page and API)', async () => {
    for (const user of refused) {
      const { context, page } = await signedIn(user);
      await page.getByRole('link', { name: user.has }).first().waitFor({ state: 'attached' });
      await expect(page.getByRole('link', { name: 'Client List' }).count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Add Clients' }).count()).resolves.toBe(0);
      await page.goto('/profiles');
      await page.waitForURL((url) => url.pathname === '/forbidden');
      await page.goto('/profiles/add');
      await page.waitForURL((url) => url.pathname === '/forbidden');
      const userToken = await t.login(user.userName, user.password);
      expect((await t.api('GET', '/profile', { token: userToken })).status).toBe(403);
      await context.close();
    }
  });

  it('passes axe on the list, each step and the client page, light and dark, at 360 px', async () => {
    const list = await t.api('GET', `/profile?q=${encodeURIComponent(offline.last)}`, { token });
    const profId = list.body.rows[0].prof_Id as string;
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await signedIn(worker, { viewport: { width: 360, height: 740 }, lang: theme === 'dark' ? 'fr' : 'en' });
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      await page.goto('/profiles');
      await page.getByRole('row').nth(1).waitFor();
      expect(await seriousViolations(page), `list ${theme}`).toEqual([]);
      await page.goto(`/profiles/${profId}`);
      await page.getByTestId('client-reg-no').waitFor();
      expect(await seriousViolations(page), `client page ${theme}`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await page.goto(`/profiles/edit/${profId}`);
      for (let step = 0; step < 8; step += 1) {
        await page.locator('#client-step-title').waitFor();
        expect(await seriousViolations(page), `step ${step} ${theme}`).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
          `no sideways scroll at step ${step}`,
        ).toBe(true);
        if (step < 7) await page.getByRole('button', { name: theme === 'dark' ? 'Suivant' : 'Next', exact: true }).click();
      }
      await context.close();
    }
  }, 120_000); // twelve axe checks: over a minute on a loaded CI machine
});
