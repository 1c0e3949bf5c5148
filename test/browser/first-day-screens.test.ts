// What a field worker meets on the first day, on a phone in French and on a desktop in English
// dark: the upload's messages in the interface's language only, with tiles that add up; lists
// that show results first; a registration form that asks once; the offline switch one tap away;
// a client's page that leads with the person, saves one section alone, and a history that reads
// as a story. axe on each screen; the screenshots of each go to SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { expectAxeClean } from '../helpers/axe';
import { launchBrowser, newPage, settle, signIn, type TestPage } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
const worker = { userName: 'firstday3', password: 'firstday-password-3', role: 3, location: 2 };
const colleague = { userName: 'colleague4', password: 'colleague-password-4', role: 4, location: 2 };
let client: { profId: string; last: string };
let jobReferralId: string;

const SHOTS = process.env.SHOTS_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/** The two ways of the closing note: a phone in French, light; a desktop in English, dark. */
const LOOKS = [
  { name: '360-fr', width: 360, height: 740, lang: 'fr', theme: 'light' },
  { name: '1280-en-dark', width: 1280, height: 800, lang: 'en', theme: 'dark' },
] as const;
type Look = (typeof LOOKS)[number];

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(t.server.db);
  for (const user of [worker, colleague]) await t.createUser(user);
  const token = await t.login(colleague.userName, colleague.password);
  const last = 'Kahindo';
  const body = {
    ...sampleBody(entityByName.profile, {}),
    prof_Reg_No: registrationNumber('ADC'),
    firstName: 'Amina',
    middleName: 'Furaha',
    lastName: last,
    phone: '+243 81 000 1111',
  };
  const made = await t.api('POST', '/profile/', { token, body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  client = { profId: String(made.body.prof_Id), last };
  const skills = { prof_Id: client.profId, diploma: 'State diploma', languages: 'Swahili, French' };
  expect((await t.api('POST', '/profile/skprofile/', { token, body: skills })).status).toBe(201);
  // A job the client was referred to, for the follow-up without a new status.
  const job: Record<string, unknown> = {
    ...sampleBody(entityByName.job, {}),
    title: 'Mason at the school site',
    employer: 'Kivu Builders',
    open: true,
  };
  expect((await t.api('POST', '/jobs/', { token, body: job })).status).toBe(201);
  const referral = {
    ...sampleBody(entityByName.jobReferral, { profile: client.profId, job: String(job.jb_Id) }),
    date: new Date().toISOString().slice(0, 10),
    followUpDate: null,
    statusDate: undefined,
    status: undefined,
  };
  const made2 = await t.api('POST', '/jobreferral/', { token, body: referral });
  expect(made2.status, JSON.stringify(made2.body)).toBe(201);
  jobReferralId = String(made2.body.jref_Id);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function opened(look: Look, debug = false): Promise<TestPage> {
  const page = await newPage(browser, { baseURL: t.url, lang: look.lang, viewport: { width: look.width, height: look.height } });
  await page.context.addInitScript(
    ({ theme, debug }) => {
      localStorage.setItem('theme', theme);
      if (debug) localStorage.setItem('icrsDebug', '1');
    },
    { theme: look.theme, debug },
  );
  await signIn(page.page, worker.userName, worker.password);
  await page.page.waitForFunction(() => localStorage.getItem('lists') !== null);
  return page;
}

async function shot(page: Page, item: string, look: Look): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${item}-${look.name}.png`), fullPage: look.width > 400 });
}

const say = (look: Look, fr: string, en: string) => (look.lang === 'fr' ? fr : en);

describe('the first day, on a phone in French and on a desktop in English dark', () => {
  it('upload: one message in the interface language, tiles that add up, a report of what happened', async () => {
    for (const look of LOOKS) {
      const { context, page } = await opened(look, true);
      await page.getByRole('switch', { name: say(look, 'Mode hors ligne', 'Offline mode') }).check();
      await page.waitForURL((url) => url.pathname === '/offlinehp');
      await page.waitForFunction(() => Boolean(window.__icrs?.data));
      await page.evaluate(async () => {
        const { data, entities } = window.__icrs!;
        await data!.create(entities.job, { title: 'Mason', employer: 'Employer Ltd', sector: 1, territory: 1 });
        const provider = await data!.create(entities.serviceProvider, { sp_Name: 'Centre Espoir', sp_type: 1, territory: 1 });
        await data!.create(entities.service, { sp_Id: provider.sp_Id, name: 'Counselling', category: 1, serviceType: 1, territory: 1 });
        const person = await data!.create(entities.profile, {
          firstName: 'Neema',
          lastName: 'Upload',
          sex: 'F',
          territory: 1,
          consent: true,
        });
        await data!.create(entities.skills, { prof_Id: person.prof_Id, diploma: 'None' });
      });
      // Every record waiting is in one tile: 2 + 1 + 2 = the 5 of the total and of the list.
      const tile = (id: string) => page.getByTestId(`offline-count-${id}-value`);
      await poll(() => tile('services').textContent()).toBe('2');
      await poll(() => tile('jobs').textContent()).toBe('1');
      await poll(() => tile('clients').textContent()).toBe('2');
      await page
        .getByTestId('offline-total')
        .getByText(say(look, '5 enregistrements', '5 records'))
        .waitFor();
      expect(await page.locator('[data-testid^="report-"][data-testid$="-total"]').count()).toBe(5); // only kinds that wait

      // No network: one toast, in the interface's language only.
      await context.setOffline(true);
      await page.getByRole('button', { name: say(look, 'Envoyer les données en ligne', 'Upload Data online') }).click();
      const title = say(look, 'Pas de connexion', 'connetivity Error');
      await page.getByTestId('toast-title').getByText(title).waitFor();
      await page.waitForTimeout(300); // a second toast, if any, is drawn by then
      const titles = await page.getByTestId('toast-title').allTextContents();
      expect(
        titles.filter((text) => text === title),
        titles.join(' | '),
      ).toHaveLength(1);
      if (look.lang === 'fr') expect(await page.locator('body').textContent()).not.toMatch(/connetivity|Connectioon/);
      await expectAxeClean(page, `offline home ${look.name}`);
      await shot(page, 'item4-upload-offline', look);

      // The "no connection" prompt stays while it is true (it does not close by itself)…
      const noConnection = page.getByTestId('toast').filter({ has: page.getByTestId('toast-title').getByText(title) });
      await page.waitForTimeout(6_000); // longer than any toast lasts (TOAST_DURATION_MS, 5 s)
      expect(await noConnection.count()).toBe(1);
      // …and goes when the network is back; the offer to upload goes once the upload it offers has run.
      await context.setOffline(false);
      await noConnection.waitFor({ state: 'detached' });
      const offer = page.getByTestId('upload-offer');
      await offer.waitFor();
      await page.getByRole('button', { name: say(look, 'Envoyer les données en ligne', 'Upload Data online') }).click();
      await page.getByTestId('upload-summary').waitFor({ timeout: 30_000 });
      await offer.waitFor({ state: 'detached' });
      await poll(() => page.locator('[data-testid^="report-"][data-testid$="-success"]').allTextContents()).toEqual([
        '1',
        '1',
        '1',
        '1',
        '1',
      ]);
      await page.waitForTimeout(300);
      await shot(page, 'item4-upload-report', look);
      await page.getByRole('switch', { name: say(look, 'Mode hors ligne', 'Offline mode') }).uncheck();
      await context.close();
    }
  }, 120_000);

  it('lists: results first on a phone, the filters in a sheet; the desktop keeps its bar', async () => {
    for (const look of LOOKS) {
      const { context, page } = await opened(look);
      await page.goto('/profiles');
      await page.getByRole('grid').waitFor();
      const filtersButton = page.getByTestId('filters-open');
      if (look.width < 600) {
        await page.getByText('Amina Furaha Kahindo').waitFor(); // the full name in the row
        expect(await page.getByTestId('filter-territory').isVisible()).toBe(false);
        await expect(filtersButton.textContent()).resolves.toBe('Filtres');
        const grid = await page.getByRole('grid').boundingBox();
        expect(grid && grid.y < 300, 'the results start on the first screen').toBe(true);
        await expectAxeClean(page, 'client list 360');
        await shot(page, 'item5-client-list', look);
        await filtersButton.click();
        const sheet = page.getByTestId('filters-sheet');
        await sheet.getByTestId('filter-territory').waitFor();
        await sheet.getByTestId('grid-export').waitFor();
        await sheet.getByTestId('filter-territory').getByRole('combobox').click();
        await page.getByRole('option').nth(1).click();
        await page.getByRole('button', { name: 'Voir les résultats' }).click();
        await poll(() => filtersButton.textContent()).toBe('Filtres (1)');
        await page.goto('/referral');
        await page.getByTestId('filters-open').waitFor();
        expect(await page.getByTestId('referral-dateFrom').isVisible()).toBe(false);
        await page.getByTestId('filters-open').click();
        await page.getByTestId('filters-sheet').getByTestId('referral-dateFrom').waitFor();
        await expectAxeClean(page, 'referral filters sheet 360');
        await shot(page, 'item5-referral-filters', look);
      } else {
        await page.getByTestId('filter-territory').waitFor();
        expect(await filtersButton.count()).toBe(0);
        await expectAxeClean(page, 'client list 1280');
        await shot(page, 'item5-client-list', look);
      }
      await context.close();
    }
  }, 90_000);

  it('registration: education asked once in its order, no tick on a skipped step, each step at the top on a phone', async () => {
    for (const look of LOOKS) {
      const { context, page } = await opened(look);
      await page.goto('/profiles/add');
      const education = page.getByRole('combobox', { name: new RegExp(`^${say(look, "Niveau d'études", 'Education level')}`) });
      await education.click();
      const levels = await page.getByRole('option').allTextContents();
      expect(levels.slice(0, 3)).toEqual(
        say(look, 'Aucun|Primaire non terminé|Primaire', 'None|Primary, not completed|Primary').split('|'),
      );
      await page.keyboard.press('Escape');
      await page.getByRole('textbox', { name: new RegExp(`^${say(look, 'Prénom', 'First name')}`) }).fill('Zawadi');
      await page
        .getByRole('textbox', { name: new RegExp(`^${say(look, 'Nom', 'Last name')}`) })
        .first()
        .fill('Stepper');
      await page.getByRole('combobox', { name: new RegExp(`^${say(look, 'Sexe', 'Sex')}`) }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('combobox', { name: new RegExp(`^${say(look, 'Territoire', 'Territory')}`) }).click();
      await page.getByRole('option').first().click();
      await page.keyboard.press('Escape');
      await page.getByRole('radiogroup').last().getByRole('radio').first().check();
      const next = page.getByRole('button', { name: say(look, 'Suivant', 'Next'), exact: true });
      const title = page.locator('#client-step-title');
      await next.click(); // → basic services
      // Its step in place first: on a phone a second press while the steps move can miss.
      await poll(() => title.textContent()).toMatch(new RegExp(`^${say(look, 'Services de base', 'Basic services')}`));
      await next.click(); // → skills
      await poll(() => title.textContent()).toMatch(new RegExp(`^${say(look, 'Compétences', 'Skills')}`));
      // Asked once: the skills step has no education level of its own.
      expect(await education.count()).toBe(0);
      await page.getByRole('button', { name: say(look, 'Passer cette étape', 'Skip this step') }).click(); // → social
      if (look.width < 600) {
        // The new step is at the top of the screen, not below the finished ones.
        await poll(async () => (await page.locator('#client-step-social').boundingBox())?.y ?? 999).toBeLessThan(120);
      }
      const skillsStep = page.locator('.MuiStep-root').nth(2);
      expect(await skillsStep.locator('.Mui-completed').count(), 'a skipped step has no tick').toBe(0);
      expect(await page.locator('.MuiStep-root').nth(0).locator('.Mui-completed').count()).toBeGreaterThan(0);
      await expectAxeClean(page, `registration ${look.name}`);
      await page.locator('#client-step-title').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('client-step-social')?.scrollIntoView({ block: 'start' }));
      await shot(page, 'item6-registration', look);
      await page.getByRole('button', { name: say(look, 'Annuler', 'Cancel') }).click();
      await context.close();
    }
  }, 90_000);

  it('top bar: the offline switch one tap away, the lock away from it, nothing cut on the lock and password screens', async () => {
    for (const look of LOOKS) {
      const { context, page } = await opened(look);
      const offline = page.getByRole('switch', { name: say(look, 'Mode hors ligne', 'Offline mode') });
      await offline.waitFor(); // in the bar, without opening a menu
      const lock = page.getByRole('button', { name: say(look, 'Verrouiller', 'Lock'), exact: true });
      if (look.width < 600) {
        expect(await lock.count(), 'no lock beside the switch on a phone').toBe(0);
        await page.getByRole('button', { name: "Plus d'actions" }).click();
        await page.getByRole('menuitem', { name: 'Verrouiller' }).waitFor();
        await expectAxeClean(page, 'phone menu');
        await page.keyboard.press('Escape');
      }
      await expectAxeClean(page, `top bar ${look.name}`);
      await shot(page, 'item7-top-bar', look);

      await page.goto('/users/chngpas');
      const confirm = page.locator('label', { hasText: say(look, 'Nouveau mot de passe (confirmation)', 'New password again') }).first();
      await confirm.waitFor();
      expect(await confirm.evaluate((label) => label.scrollWidth <= label.clientWidth), 'confirmation label whole').toBe(true);
      await shot(page, 'item7-change-password', look);

      await page.goto('/');
      if (look.width < 600) {
        await page.getByRole('button', { name: "Plus d'actions" }).click();
        await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: 'Verrouiller' }).click()]);
      } else await Promise.all([page.waitForEvent('load'), lock.click()]);
      const language = page.getByRole('combobox', { name: say(look, 'Langue', 'Language') });
      await language.waitFor();
      const shown = language.locator('xpath=.');
      expect(await shown.evaluate((el) => el.scrollWidth <= el.clientWidth), 'language select shows its whole value').toBe(true);
      await expect(language.textContent()).resolves.toBe(say(look, 'Français', 'English'));
      await expectAxeClean(page, `lock screen ${look.name}`);
      await shot(page, 'item7-lock-screen', look);
      await context.close();
    }
  }, 90_000);

  it('referral follow-up: "no change" with a note is in the referral history and in the change history', async () => {
    for (const look of LOOKS) {
      const { context, page } = await opened(look);
      await page.goto(`/referral/job/${jobReferralId}`);
      const note = say(look, 'Appel au client : entretien reporté à lundi', 'Called the client: interview moved to Monday');
      await page.getByRole('textbox', { name: say(look, 'Retour', 'Feedback') }).fill(note);
      await page.getByRole('button', { name: say(look, 'Enregistrer le suivi', 'Save the follow-up') }).click();
      const timeline = page.getByTestId('referral-history');
      await timeline.getByText(note).waitFor();
      const entry = timeline.locator('[data-follow-up]', { hasText: note });
      expect(await entry.getByText(say(look, 'Suivi', 'Follow-up'), { exact: true }).count()).toBe(1);
      await page.getByTestId('history-toggle').click();
      await poll(() => page.getByTestId('history-follow-up').allTextContents()).toContain(note);
      await expectAxeClean(page, `referral follow-up ${look.name}`);
      await shot(page, 'item9-follow-up-note', look);
      await context.close();
    }
  }, 90_000);

  it('client page: the person first, empty sections folded, one section saved alone, a history that reads as a story', async () => {
    for (const [index, look] of LOOKS.entries()) {
      const { context, page } = await opened(look);
      await page.goto(`/profiles/${client.profId}`);
      await page.getByTestId('client-registered').getByText(colleague.userName).waitFor(); // not "a colleague"
      await page.getByTestId('client-to-complete').waitFor();
      await page.getByTestId('client-empty-social').waitFor();
      expect(await page.getByTestId('client-section-social').count()).toBe(0);
      const identity = await page.getByTestId('client-section-identity').boundingBox();
      const referrals = await page.getByTestId('client-referrals').boundingBox();
      const skills = await page.getByTestId('client-section-skills').boundingBox();
      expect(identity!.y < referrals!.y && referrals!.y < skills!.y, 'who, then referrals, then the rest').toBe(true);
      await expectAxeClean(page, `client page ${look.name}`);
      await shot(page, 'item9-client-page', look);

      // One section, saved alone: the skills record is not written again.
      const skillsBefore = (
        await t.api('GET', `/profile/skprofile/${client.profId}`, { token: await t.login(worker.userName, worker.password) })
      ).body.updatedAt;
      await page.getByRole('link', { name: say(look, 'Modifier : Identité', 'Edit: Identity') }).click();
      expect(await page.locator('.MuiStepper-root').count(), 'no walk through the steps').toBe(0);
      const phone = `+243 81 000 22${index}2`;
      await page.getByRole('textbox', { name: new RegExp(`^${say(look, 'Téléphone', 'Phone')}`) }).fill(phone);
      await expectAxeClean(page, `section edit ${look.name}`);
      await shot(page, 'item9-section-edit', look);
      await page.getByRole('button', { name: say(look, 'Enregistrer', 'Save'), exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/profiles/${client.profId}`);
      const token = await t.login(worker.userName, worker.password);
      await poll(async () => (await t.api('GET', `/profile/${client.profId}`, { token })).body.phone).toBe(phone);
      expect((await t.api('GET', `/profile/skprofile/${client.profId}`, { token })).body.updatedAt).toBe(skillsBefore);

      // The history: changes only, by the screen's labels. The save's toast may lie over the
      // toggle on a phone, and a mouse resting on a toast keeps it (a finger does not): it goes first.
      await settle(page);
      await page.getByTestId('history-toggle').click();
      await page.getByTestId('history-list').waitFor();
      const changes = await page.getByTestId('history-change').evaluateAll((els) => els.map((el) => el.getAttribute('data-field')));
      expect(changes).toContain('phone');
      expect(changes).not.toContain('deleted');
      await expectAxeClean(page, `history ${look.name}`);
      await page.getByTestId('history-section').scrollIntoViewIfNeeded();
      await shot(page, 'item9-history', look);
      await context.close();
    }
  }, 90_000);
});
