// Available jobs (ADR-0027): the list (search, filters, open/closed, CSV), the job page (fields,
// images, other jobs, close/reopen) and the add/edit form with its other-job rows, online and
// offline (saved on the device, uploaded from /offlinehp, job before other job), validation
// in both languages, the 403 of a role that may not see jobs, and axe on every screen.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, signIn, typedDay, type TestPage, chooseOption, jobTitleField } from '../helpers/browser';
import { ensureOrganisations, png } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
let token: string;

const writer = { userName: 'jobs4', password: 'jobs-password-4', role: 4, location: 1 };
const reports = { userName: 'reports2', password: 'reports-password-2', role: 2, location: 1 };

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(t.server.db);
  await t.createUser(writer);
  await t.createUser(reports);
  token = await t.login(writer.userName, writer.password);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const SITE_PNG = png(8, [200, 120, 40]);
const KITCHEN_PNG = png(6, [40, 120, 200]);

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** 'YYYY-MM-DD', `days` from today (local time, as the form checks it). */
function day(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

async function signedIn(lang: 'en' | 'fr' = 'en', user = writer): Promise<TestPage> {
  const opened = await newPage(browser, { baseURL: t.url, lang });
  await signIn(opened.page, user.userName, user.password);
  // Lookup lists are cached at sign-in: the forms and grids read them.
  await opened.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return opened;
}

async function pick(page: Page, scope: Locator | Page, label: RegExp, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

interface JobInput {
  title: string;
  employer?: string;
  deadline?: string;
  email?: string;
}

/** Fills the job's own fields (not the other-job rows). */
async function fillJob(page: Page, job: JobInput): Promise<void> {
  const form = page.locator('form');
  await jobTitleField(page).fill(job.title);
  await form.getByRole('textbox', { name: /^Employer/ }).fill(job.employer ?? 'Kivu Builders');
  await pick(page, form, /^Sector/, 'Construction');
  await pick(page, form, /^Territory/, 'Goma');
  await form.getByRole('textbox', { name: /^Address/ }).fill('12 Avenue du Lac, Goma');
  await form
    .getByRole('spinbutton', { name: /^Positions/ })
    .first()
    .fill('4');
  await pick(page, form, /^Contract/, 'Fixed term');
  await form.getByLabel(/^Deadline/).fill(typedDay(job.deadline ?? day(30)));
  await form
    .getByRole('textbox', { name: /^Description/ })
    .first()
    .fill('Masons for a school building site.');
  await form.getByRole('textbox', { name: /^Contact person/ }).fill('Jeanne M.');
  await form.getByRole('textbox', { name: /^Phone/ }).fill('+243 81 234 5678');
  await form.getByRole('textbox', { name: /^Email/ }).fill(job.email ?? 'jobs@kivu-builders.example');
}

/** Adds an other-job row with a title and a number of positions. */
async function addRow(page: Page, title: string, positions: string): Promise<void> {
  await page.getByRole('button', { name: 'Add another job' }).click();
  const row = page.getByTestId('other-job-editor').last();
  await row.getByRole('textbox', { name: /^Title/ }).fill(title);
  await row.getByRole('spinbutton', { name: /^Positions/ }).fill(positions);
}

async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL((url) => /^\/availablejobs\/[0-9a-f-]{36}$/.test(url.pathname));
  return new URL(page.url()).pathname.split('/').pop() as string;
}

async function serverImage(jbId: string, name: string): Promise<Buffer> {
  const response = await fetch(`${t.url}/api/imgs/getById?id=${jbId}&imagename=${encodeURIComponent(name)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The lazy map has replaced its loading placeholder (drawn, or replaced by its notice). */
async function mapSettled(page: Page): Promise<void> {
  await poll(() => page.locator('.MuiSkeleton-root').count()).toBe(0);
}

async function noToasts(page: Page): Promise<void> {
  await poll(() => page.getByTestId('toast').count()).toBe(0);
}

const gridRow = (page: Page, text: string) => page.getByRole('grid').getByRole('row').filter({ hasText: text });

/** Sets the list's search box and waits for the debounced request to settle. */
async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('grid-search').fill(text);
}

async function status(page: Page, name: 'All' | 'Open' | 'Closed'): Promise<void> {
  await page.getByTestId('job-status-filter').getByRole('button', { name, exact: true }).click();
}

describe('available jobs', () => {
  it('creates a job online with an image and other jobs, lists, filters, exports, shows and edits it', async () => {
    const { context, page } = await signedIn();
    await page.goto('/availablejobs');
    await page.getByRole('heading', { name: 'Available Jobs', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Add available job', exact: true }).click();
    await page.getByRole('heading', { name: 'Add Available Job', level: 1 }).waitFor();

    await fillJob(page, { title: 'Mason online' });
    await page.getByTestId('image-file').setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: SITE_PNG });
    await page.getByText('1 of 3').waitFor();
    await addRow(page, 'Carpenter', '2');
    await addRow(page, 'Site guard', '1');
    // Typed values survive a reload (drafts); the picked image does not (blobs are not kept).
    await page.reload();
    await poll(() => page.getByTestId('other-job-editor').count()).toBe(2);
    await mapSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await expect(jobTitleField(page).inputValue()).resolves.toBe('Mason online');
    await expect(
      page
        .getByTestId('other-job-editor')
        .last()
        .getByRole('textbox', { name: /^Title/ })
        .inputValue(),
    ).resolves.toBe('Site guard');
    await page.getByTestId('image-file').setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: SITE_PNG });
    await page.getByText('1 of 3').waitFor();
    const jbId = await save(page);

    // The job page: its fields, the image, both other jobs.
    await page.getByRole('heading', { name: 'Mason online', level: 1 }).waitFor();
    const details = page.getByTestId('job-details');
    await details.getByText('Kivu Builders').waitFor();
    await details.getByText('Construction').waitFor();
    await details.getByText('Fixed term').waitFor();
    await details.getByRole('link', { name: 'jobs@kivu-builders.example' }).waitFor();
    await expect(page.getByTestId('job-status').textContent()).resolves.toBe('Open');
    await poll(() => page.getByTestId('other-job-row').count()).toBe(2);
    await expect(page.getByTestId('other-job-row').first().textContent()).resolves.toContain('Carpenter');
    const thumb = page.getByTestId('job-images').locator('img');
    await poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    // Checked once the save's toast is gone (a reload), like a user arriving on the page.
    await page.reload();
    await page.getByRole('heading', { name: 'Mason online', level: 1 }).waitFor();
    await poll(() => page.getByTestId('other-job-row').count()).toBe(2);
    await mapSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show image 1 larger' }).click();
    await poll(() =>
      page
        .getByTestId('job-image-large')
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(8);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // The server has the job, its image and its other jobs.
    const stored = await t.api('GET', `/jobs/${jbId}`, { token });
    expect(stored.body).toMatchObject({
      title: 'Mason online',
      employer: 'Kivu Builders',
      sector: 3,
      territory: 1,
      positions: 4,
      contract: 'fixedTerm',
      open: true,
    });
    expect(stored.body.jb_img1).toEqual(expect.any(String));
    expect((await serverImage(jbId, stored.body.jb_img1)).equals(SITE_PNG)).toBe(true); // small and PNG: stored as picked
    const others = await t.api('GET', `/jobsother/jb/${jbId}`, { token });
    expect(others.body.rows.map((r: { title: string }) => r.title).sort()).toEqual(['Carpenter', 'Site guard']);

    // The list: search and the sector filter find it; another sector does not; CSV has it.
    await page.goto('/availablejobs');
    await search(page, 'Mason online');
    await gridRow(page, 'Mason online').waitFor();
    const sector = page.getByTestId('filter-sector').getByRole('combobox');
    await chooseOption(page, sector, 'Mining');
    await page.getByText('0–0 of 0').waitFor(); // the grid's footer: no rows, and the grid in view
    expect(await gridRow(page, 'Mason online').count()).toBe(0);
    await chooseOption(page, sector, 'Construction');
    await gridRow(page, 'Mason online').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv).toContain('Mason online');
    expect(csv).toContain('Kivu Builders');

    // Edit: a field of the job and one of its other jobs, from the job page.
    await gridRow(page, 'Mason online').getByText('Mason online').click();
    await page.waitForURL(`**/availablejobs/${jbId}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit: Mason online', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Edit: Mason online', level: 1 }).waitFor();
    await mapSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .locator('form')
      .getByRole('textbox', { name: /^Employer/ })
      .fill('Lake Kivu Builders');
    await poll(() => page.getByTestId('other-job-editor').count()).toBe(2);
    await page
      .getByTestId('other-job-editor')
      .first()
      .getByRole('spinbutton', { name: /^Positions/ })
      .fill('3');
    // Rows already on the server can be changed, not removed (the API has no delete for them).
    await expect(
      page
        .getByTestId('other-job-editor')
        .first()
        .getByRole('button', { name: /^Remove other job/ })
        .count(),
    ).resolves.toBe(0);
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await page.getByText('0 of 3').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/availablejobs/${jbId}`);
    await page.getByTestId('job-details').getByText('Lake Kivu Builders').waitFor();
    await page.getByTestId('other-job-row').first().getByText('3 positions').waitFor();
    await page.getByText('No images for this job.').waitFor();
    const after = await t.api('GET', `/jobs/${jbId}`, { token });
    expect(after.body).toMatchObject({ employer: 'Lake Kivu Builders', jb_img1: null });
    const edited = await t.api('GET', `/jobsother/jb/${jbId}`, { token });
    expect(edited.body.rows.find((r: { title: string }) => r.title === 'Carpenter').positions).toBe(3);

    // Other jobs are added and edited on the job page too, in a dialog.
    await noToasts(page); // the toasts are the app's, checked elsewhere
    await page.getByRole('button', { name: 'Add another job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add another job' });
    await dialog.getByRole('textbox', { name: /^Title/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('textbox', { name: /^Title/ }).fill('Painter');
    await dialog.getByRole('spinbutton', { name: /^Positions/ }).fill('2');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() => page.getByTestId('other-job-row').count()).toBe(3);
    await page.getByRole('button', { name: 'Edit other job 3: Painter' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit other job' });
    await editDialog.getByRole('textbox', { name: /^Title/ }).fill('House painter');
    await editDialog.getByRole('button', { name: 'Save', exact: true }).click();
    await editDialog.waitFor({ state: 'hidden' });
    await page.getByTestId('other-job-row').nth(2).getByText('House painter').waitFor();
    const all = await t.api('GET', `/jobsother/jb/${jbId}`, { token });
    expect(all.body.rows.map((r: { title: string }) => r.title).sort()).toEqual(['Carpenter', 'House painter', 'Site guard']);
    await context.close();
  }, 120_000); // the whole life of a job, with three axe checks: over a minute on a loaded CI machine

  it('closes and reopens a job after a confirmation; the open/closed filter follows', async () => {
    const created = await t.api('POST', '/jobs/', {
      token,
      body: { title: 'Driver to close', employer: 'Transport SARL', sector: 5, territory: 2 },
    });
    const jbId = created.body.jb_Id as string;
    const { context, page } = await signedIn();
    await page.goto(`/availablejobs/${jbId}`);
    await page.getByRole('heading', { name: 'Driver to close', level: 1 }).waitFor();

    // Cancelled: nothing changes.
    const closeDialog = page.getByRole('dialog', { name: 'Close this job?' });
    await page.getByRole('button', { name: 'Close job' }).click();
    await closeDialog.getByRole('button', { name: 'Cancel' }).click();
    await closeDialog.waitFor({ state: 'hidden' });
    await expect(page.getByTestId('job-status').textContent()).resolves.toBe('Open');
    expect((await t.api('GET', `/jobs/${jbId}`, { token })).body.open).toBe(true);

    await page.getByRole('button', { name: 'Close job' }).click();
    await closeDialog.getByRole('button', { name: 'Close job' }).click();
    await poll(() => page.getByTestId('job-status').textContent()).toBe('Closed');
    await poll(async () => (await t.api('GET', `/jobs/${jbId}`, { token })).body.open).toBe(false);

    await page.goto('/availablejobs');
    await search(page, 'Driver to close');
    await gridRow(page, 'Driver to close').waitFor();
    await status(page, 'Open');
    await poll(() => gridRow(page, 'Driver to close').count()).toBe(0);
    await status(page, 'Closed');
    await gridRow(page, 'Driver to close').waitFor();

    await page.goto(`/availablejobs/${jbId}`);
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.getByRole('dialog', { name: 'Reopen this job?' }).getByRole('button', { name: 'Reopen' }).click();
    await poll(() => page.getByTestId('job-status').textContent()).toBe('Open');
    await poll(async () => (await t.api('GET', `/jobs/${jbId}`, { token })).body.open).toBe(true);
    await page.goto('/availablejobs');
    await search(page, 'Driver to close');
    await status(page, 'Closed');
    await poll(() => gridRow(page, 'Driver to close').count()).toBe(0);
    await status(page, 'Open');
    await gridRow(page, 'Driver to close').waitFor();
    await context.close();
  });

  it('creates a job with an other job offline and uploads both, the job first', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.goto('/availablejobs/add');
    await fillJob(page, { title: 'Cook offline', employer: 'Hotel du Lac' });
    await page.getByTestId('image-file').setInputFiles({ name: 'kitchen.png', mimeType: 'image/png', buffer: KITCHEN_PNG });
    await addRow(page, 'Kitchen helper', '2');
    await addRow(page, 'Waiter', '1');
    await page.getByRole('button', { name: 'Remove other job 2' }).click(); // taken out before saving
    await poll(() => page.getByTestId('other-job-editor').count()).toBe(1);
    const jbId = await save(page);

    // Saved on the device: shown at once, marked as not uploaded.
    await page.getByRole('heading', { name: 'Cook offline', level: 1 }).waitFor();
    await page.getByTestId('job-status').waitFor();
    await expect(page.locator('main').getByTestId('not-uploaded').first().isVisible()).resolves.toBe(true);
    await poll(() => page.getByTestId('other-job-row').count()).toBe(1);
    await page.getByTestId('other-job-row').getByTestId('not-uploaded').waitFor();
    await page.getByTestId('job-images').getByText('not uploaded').waitFor();
    expect((await t.api('GET', `/jobs/${jbId}`, { token })).status).toBe(404);

    // An other job added from the page of a job not uploaded yet waits with it.
    await page.getByRole('button', { name: 'Add another job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add another job' });
    await dialog.getByRole('textbox', { name: /^Title/ }).fill('Dishwasher');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() => page.getByTestId('other-job-row').count()).toBe(2);
    await poll(() => page.getByTestId('other-job-row').getByTestId('not-uploaded').count()).toBe(2);
    await page.reload(); // offline too: the page reads the device's store
    await poll(() => page.getByTestId('other-job-row').count()).toBe(2);
    await page.getByTestId('job-images').locator('img').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/availablejobs');
    await gridRow(page, 'Cook offline').getByTestId('not-uploaded').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Online again: the upload sends the job (with its image), then its other job.
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await poll(() => page.getByTestId('report-tbl_jobs_other-success').textContent()).toBe('2');
    await expect(page.getByTestId('report-available-jobs-success').textContent()).resolves.toBe('1');

    const stored = await t.api('GET', `/jobs/${jbId}`, { token });
    expect(stored.body).toMatchObject({ title: 'Cook offline', employer: 'Hotel du Lac' });
    expect((await serverImage(jbId, stored.body.jb_img1)).equals(KITCHEN_PNG)).toBe(true);
    const others = await t.api('GET', `/jobsother/jb/${jbId}`, { token });
    expect(others.body.rows.map((r: { title: string }) => r.title).sort()).toEqual(['Dishwasher', 'Kitchen helper']);
    for (const row of others.body.rows) expect(Date.parse(row.createdAt)).toBeGreaterThanOrEqual(Date.parse(stored.body.createdAt));
    await context.close();
  });

  it('shows the validation messages in English and French', async () => {
    const cases = [
      {
        lang: 'en' as const,
        save: 'Save',
        messages: ['Title is required', 'Employer is required', 'Sector is required', 'Territory is required'],
        past: 'Deadline cannot be in the past',
        email: 'Email must be an email address',
        title: /^Title/,
        deadline: /^Deadline/,
        emailLabel: /^Email/,
        rowRequired: 'Title is required',
      },
      {
        lang: 'fr' as const,
        save: 'Enregistrer',
        messages: [
          '« Intitulé » est obligatoire',
          '« Employeur » est obligatoire',
          '« Secteur » est obligatoire',
          '« Territoire » est obligatoire',
        ],
        past: '« Date limite » ne peut pas être dans le passé',
        email: '« E-mail » doit être une adresse e-mail',
        title: /^Intitulé/,
        deadline: /^Date limite/,
        emailLabel: /^E-mail/,
        rowRequired: '« Intitulé » est obligatoire',
      },
    ];
    for (const c of cases) {
      const { context, page } = await signedIn(c.lang);
      await page.goto('/availablejobs/add');
      const summary = page.getByTestId('form-errors');
      await page.getByRole('button', { name: c.save, exact: true }).click();
      for (const message of c.messages) await summary.getByText(message).waitFor();

      const form = page.locator('form');
      await form.getByLabel(c.deadline).fill(typedDay(day(-1)));
      await form.getByRole('textbox', { name: c.emailLabel }).fill('not-an-email');
      await page.getByRole('button', { name: c.save, exact: true }).click();
      await summary.getByText(c.past).waitFor();
      await summary.getByText(c.email, { exact: false }).waitFor();

      // Today is allowed; an empty other-job row is refused with its own message.
      await form.getByLabel(c.deadline).fill(typedDay(day(0)));
      await page.getByRole('button', { name: c.save, exact: true }).click();
      await poll(() => summary.getByText(c.past).count()).toBe(0);
      await page
        .getByTestId('other-job-editor')
        .count()
        .then((n) => expect(n).toBe(0));
      await page
        .locator('form')
        .getByRole('button', { name: c.lang === 'en' ? 'Add another job' : 'Ajouter un autre poste' })
        .click();
      await page.getByRole('button', { name: c.save, exact: true }).click();
      await page.getByTestId('other-job-editor').getByText(c.rowRequired).waitFor();
      expect(new URL(page.url()).pathname).toBe('/availablejobs/add');
      await context.close();
    }
  });

  it('has no serious accessibility problem in French and the dark theme, on a phone', async () => {
    const created = await t.api('POST', '/jobs/', {
      token,
      body: {
        title: 'Électricien',
        employer: 'Énergie Kivu',
        sector: 3,
        territory: 1,
        deadline: day(20),
        lat: -1.68,
        lng: 29.22,
        email: 'rh@energie.example',
      },
    });
    const jbId = created.body.jb_Id as string;
    await t.api('POST', '/jobsother/', { token, body: { jb_Id: jbId, title: 'Aide-électricien', positions: 2 } });
    const opened = await newPage(browser, { baseURL: t.url, lang: 'fr', viewport: { width: 360, height: 740 } });
    await opened.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(opened.page, writer.userName, writer.password);
    const { page } = opened;
    await page.goto('/availablejobs');
    await page.getByRole('heading', { name: 'Emplois disponibles', level: 1 }).waitFor();
    await gridRow(page, 'Électricien').waitFor();
    await noToasts(page); // the sign-in toast is the shell's
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/availablejobs/${jbId}`);
    await page.getByRole('heading', { name: 'Électricien', level: 1 }).waitFor();
    await page.getByTestId('job-status').getByText('Ouverte').waitFor();
    await page.getByTestId('other-job-row').getByText('2 postes').waitFor();
    await mapSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/availablejobs/${jbId}/edit`);
    await poll(() => page.getByTestId('other-job-editor').count()).toBe(1);
    await mapSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await opened.context.close();
  });

  it('sends a role that may not see jobs to the 403 page', async () => {
    const { context, page } = await signedIn('en', reports);
    for (const path of ['/availablejobs', '/availablejobs/add']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/forbidden');
      await page.getByText('403', { exact: true }).waitFor();
    }
    await context.close();
  });
});
