// What staff meet on their first day, in Chromium: the programme supervisor's dashboard and
// reports count every organisation's clients and open none of them; a birth date in 2031 is
// refused on a phone with the network cut; an untouched yes/no question reads "—" on the client's
// page; an online reload and a new tab ask no password, the lock button does; the user form says
// what a role may do and shows the first password once; the organisations have their screen.
// axe-core on each, at 360 px in French and 1280 px in English dark. The closing note's
// screenshots are written to SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { startupLines } from '../../server/serve';
import { expectAxeClean } from '../helpers/axe';
import { newPage, sessionToken, settle, signIn, startAdminSession, type AdminSession } from '../helpers/browser';

const poll = expect.poll;
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = 'first-day-browser-1';
const field = { userName: 'field.adc', password: PASSWORD, role: 3, location: 2 };
const fieldB = { userName: 'field.caj', password: PASSWORD, role: 3, location: 3 };
const supervisor = { userName: 'supervisor', password: PASSWORD, role: 2, location: 0 };
const SHOTS = process.env.SHOTS_DIR;

let session: AdminSession;
const clients: string[] = [];

type Look = { lang: 'fr' | 'en'; dark: boolean; viewport: typeof PHONE };
const LOOKS: Record<'phone' | 'desktop', Look> = {
  phone: { lang: 'fr', dark: false, viewport: PHONE },
  desktop: { lang: 'en', dark: true, viewport: DESKTOP },
};

async function pageAs(user: { userName: string; password: string }, look: Look) {
  const opened = await newPage(session.browser, { baseURL: session.t.url, lang: look.lang, viewport: look.viewport });
  if (look.dark) await opened.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await signIn(opened.page, user.userName, user.password);
  return opened;
}

/** Waits for the screen to be still (no spinner, no toast); a phone's dashboard keeps its map's
 * loader longer, which a screenshot may show. */
const still = (page: Page) => settle(page, 8_000).catch(() => undefined);

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  session = await startAdminSession({ users: [field, fieldB, supervisor] });
  const { t } = session;
  for (const [user, abbr] of [
    [field, 'ADC'],
    [fieldB, 'CAJ'],
  ] as const) {
    const token = await t.login(user.userName, user.password);
    const body = {
      ...sampleBody(entityByName.profile, {}),
      prof_Reg_No: registrationNumber(abbr),
      firstName: 'Neema',
      lastName: `Client ${abbr}`,
    };
    delete (body as Record<string, unknown>).disability; // never asked
    const made = await t.api('POST', '/profile/', { token, body });
    expect(made.status).toBe(201);
    clients.push(made.body.prof_Id as string);
  }
}, 120_000);

afterAll(() => session?.close());

describe('the programme supervisor', () => {
  it.each(Object.entries(LOOKS))(
    "sees every organisation's clients on the dashboard and in the reports, and opens none (%s)",
    async (name, look) => {
      const { context, page } = await pageAs(supervisor, look);
      await poll(() => page.getByTestId('tile-clients-count').textContent(), { timeout: 30_000 }).toBe('2'); // one per organisation
      await still(page);
      await expectAxeClean(page, `supervisor dashboard (${name})`);
      await shot(page, `item1-supervisor-dashboard-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
      await page.goto('/reports');
      await poll(() => page.getByTestId('kpi-profiles').locator('dd').textContent()).toBe('2');
      await page
        .getByTestId('report-state')
        .getByText(look.lang === 'fr' ? /toutes les organisations/ : /every organisation/)
        .waitFor();
      await still(page);
      await expectAxeClean(page, `supervisor reports (${name})`);
      await shot(page, `item1-supervisor-reports-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
      await page.goto(`/profiles/${clients[0]}`);
      await page.waitForURL((url) => url.pathname === '/forbidden');
      await context.close();
    },
  );
});

describe('dates and yes/no answers', () => {
  it.each(Object.entries(LOOKS))('refuses a birth date in 2031 with the network cut (%s)', async (name, look) => {
    const { context, page } = await pageAs(field, look);
    await page.goto('/profiles/add');
    const birth = page.getByLabel(look.lang === 'fr' ? /^Date de naissance/ : /^Date of birth/);
    await birth.waitFor();
    await context.setOffline(true);
    await birth.fill('10/05/2031');
    await birth.blur();
    await page
      .getByText(
        look.lang === 'fr' ? /^Date impossible : choisissez une date du .+ au .+\.$/ : /^Impossible date: choose a date from .+ to .+\.$/,
      )
      .waitFor();
    await expectAxeClean(page, `birth date refused (${name})`);
    await shot(page, `item2-birth-date-refused-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
    await context.setOffline(false);
    await context.close();
  });

  it.each(Object.entries(LOOKS))('shows and takes dates in the interface order, not the browser one (%s)', async (name, look) => {
    const { context, page } = await pageAs(field, look);
    await page.goto('/profiles/add');
    const birth = page.getByRole('textbox', { name: look.lang === 'fr' ? /^Date de naissance/ : /^Date of birth/ });
    await birth.waitFor();
    expect(await birth.getAttribute('placeholder')).toBe(look.lang === 'fr' ? 'jj/mm/aaaa' : 'dd/mm/yyyy');
    // Digits alone, as a phone's number pad types them: the slashes come by themselves.
    await birth.click();
    await page.keyboard.type('15031990');
    expect(await birth.inputValue()).toBe('15/03/1990');
    await birth.blur();
    expect(await birth.getAttribute('aria-invalid')).toBe('false');
    // No 31 February: the message names the order to write.
    await birth.fill('31/02/1990');
    await birth.blur();
    const pattern = look.lang === 'fr' ? 'jj/mm/aaaa' : 'dd/mm/yyyy';
    await page
      .getByText(new RegExp(`${pattern.replaceAll('/', '\\/')} \\(`))
      .first()
      .waitFor();
    expect(await birth.getAttribute('aria-invalid')).toBe('true');
    await expectAxeClean(page, `date field (${name})`);
    await shot(page, `item6-date-field-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
    await context.close();
  });

  it.each(Object.entries(LOOKS))('shows an untouched yes/no question as "—" on the client page (%s)', async (name, look) => {
    const { context, page } = await pageAs(field, look);
    await page.goto(`/profiles/${clients[0]}`);
    const answer = page.locator('[data-field="disability"] dd');
    await poll(() => answer.textContent()).toBe('—');
    await answer.scrollIntoViewIfNeeded();
    await expectAxeClean(page, `client page (${name})`);
    await shot(page, `item3-unanswered-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
    await context.close();
  });
});

describe('one sign-in per browser session', () => {
  it.each(Object.entries(LOOKS))(
    'reloads and opens a new tab online without the password; the lock button asks it (%s)',
    async (name, look) => {
      const { context, page } = await pageAs(field, look);
      const dashboard = look.lang === 'fr' ? 'Tableau de bord' : 'Dashboard';
      await page.getByRole('heading', { name: dashboard, level: 1 }).waitFor();
      const token = await sessionToken(page);
      await page.reload();
      await page.getByRole('heading', { name: dashboard, level: 1 }).waitFor();
      expect(await page.getByTestId('unlock-page').count()).toBe(0);
      expect(await sessionToken(page)).toBe(token);
      await still(page);
      await shot(page, `item8-reloaded-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
      const tab = await context.newPage();
      await tab.goto('/');
      await tab.getByRole('heading', { name: dashboard, level: 1 }).waitFor();
      expect(await tab.getByTestId('unlock-page').count()).toBe(0);
      await tab.close();
      if (name === 'desktop') {
        await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Lock', exact: true }).click()]);
        await page.getByRole('heading', { name: 'This device is locked' }).waitFor();
        await page.reload();
        await page.getByRole('heading', { name: 'This device is locked' }).waitFor();
      }
      await context.close();
    },
  );
});

describe('user creation', () => {
  it.each(Object.entries(LOOKS))(
    'describes the role, shows the first password once, and has an organisations screen (%s)',
    async (name, look) => {
      const { context, page } = await pageAs(session.t.admin, look);
      const fr = look.lang === 'fr';
      await page.goto('/organisations');
      await page.getByRole('heading', { name: 'Organisations', level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Organisations' }).getByText('ICRS', { exact: true }).waitFor();
      await still(page);
      await expectAxeClean(page, `organisations (${name})`);
      await shot(page, `item10-organisations-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);

      await page.goto('/users/add');
      await page
        .getByLabel(/^Nom\b|^Name/)
        .first()
        .fill(`Superviseur ${name}`);
      await page.getByLabel(fr ? /^Nom d'utilisateur/ : /^User name/).fill(`sup.${name}`);
      // The organisation is marked required for a field role, not for a programme supervisor.
      const organisation = page.getByRole('combobox', { name: /^Organisation/ });
      await page.getByRole('combobox', { name: fr ? /^Rôle/ : /^Role/ }).click();
      await page.getByRole('option', { name: fr ? 'Gestionnaire de cas' : 'Case manager', exact: true }).click();
      await poll(() => organisation.getAttribute('required')).not.toBeNull();
      await page.getByRole('combobox', { name: fr ? /^Rôle/ : /^Role/ }).click();
      await page.getByRole('option', { name: fr ? 'Superviseur du programme' : 'Programme supervisor', exact: true }).click();
      await page
        .getByTestId('role-reach')
        .getByText(fr ? /jamais la fiche d'un client/ : /never a client’s record/)
        .waitFor();
      expect(await organisation.getAttribute('required')).toBeNull();
      expect(
        await page
          .locator('label', { hasText: /^Organisation/ })
          .first()
          .textContent(),
      ).not.toContain('*');
      await page.getByRole('button', { name: fr ? 'Proposer un mot de passe' : 'Suggest a password' }).click();
      await expectAxeClean(page, `add user (${name})`);
      await shot(page, `item10-role-help-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
      await page.getByRole('button', { name: fr ? 'Créer le compte' : 'Create the account' }).click();
      const dialog = page.getByRole('dialog', { name: fr ? 'Compte créé' : 'Account created' });
      const password = (await dialog.getByTestId('created-password').textContent()) ?? '';
      expect(password.length).toBeGreaterThanOrEqual(8);
      expect((await session.t.api('POST', '/login', { body: { userName: `sup.${name}`, password } })).status).toBe(200);
      await expectAxeClean(page, `account created (${name})`);
      await shot(page, `item10-password-once-${name === 'phone' ? '360-fr' : '1280-en-dark'}`);
      await dialog.getByRole('button', { name: fr ? 'Terminé, ouvrir le compte' : 'Done, open the account' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByText(password).count()).toBe(0);
      await context.close();
    },
  );
});

describe('a quiet terminal', () => {
  it('says where the app is and how to sign in (the closing note shows it)', async () => {
    const text = startupLines({ ...session.t.config, databaseUrl: undefined, dataDir: './data', logLevel: 'warn' }, 8080, {
      userName: 'admin',
      passwordFile: '/srv/icrs/data/first-admin-password.txt',
    });
    expect(text).toContain('http://localhost:8080');
    expect(text).toContain('Request log off');
    for (const [name, look] of Object.entries(LOOKS)) {
      const { context, page } = await newPage(session.browser, { baseURL: session.t.url, viewport: look.viewport });
      const colours = look.dark ? 'background:#111;color:#ddd' : 'background:#fff;color:#111';
      await page.setContent(
        `<html lang="en"><body style="margin:0;${colours}"><pre style="white-space:pre-wrap;padding:8px;font-size:13px">$ npm start\n${text.replace(/</g, '&lt;')}</pre></body></html>`,
      );
      await shot(page, `item6-terminal-${name === 'phone' ? '360' : '1280-dark'}`);
      await context.close();
    }
  });
});
