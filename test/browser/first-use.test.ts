// What a new user tripped over (ADR-0022), in the built app: no link leads to the 403 page,
// a wrong password when deleting gives one message, list names are read whole at 1280 and
// 360 px with the 'not uploaded' mark beside them (not over them), and the footer links to the
// programme's site only when the installation names one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, saveProviderOffline, signIn } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const PROGRAMME_URL = 'https://programme.example.net/icrs';
const LONG_NAME = 'Association des mamans pour le développement communautaire intégré du Nord-Kivu';
const LONG_LOCAL_NAME = 'Coopérative des femmes maraîchères et éleveuses de petit bétail de Beni-Mbau';

let server: TestServer;
let browser: Browser;
let adminToken: string;

const password = 'first-use-password-1';
const BROWSER_ROLES = [1, 3, 6, 7];
const userName = (role: number) => `first-use-role${role}`;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ config: { programmeUrl: PROGRAMME_URL } }), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const role of BROWSER_ROLES) await server.createUser({ userName: userName(role), password, role, location: 1 });
  adminToken = await server.login(server.admin.userName, server.admin.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

async function open(role: number, options: { width?: number; lang?: 'en' | 'fr' } = {}) {
  const opened = await newPage(browser, {
    baseURL: server.url,
    lang: options.lang ?? 'en',
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  await signIn(opened.page, userName(role), password);
  return opened;
}

async function seedProvider(name: string): Promise<string> {
  const { status, body } = await server.api('POST', '/sproviers/', {
    token: adminToken,
    body: { sp_Name: name, sp_type: 1, territory: 1 },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.sp_Id as string;
}

/** The targets of the dashboard's tile links and of the sidebar's entries. */
function homeLinks(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="tile-"] a[href], nav[aria-label="Main menu"] a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? '').filter((href) => href.startsWith('/')));
}

/** Follows an in-app link to `href` (as a click does, without reloading the app) and answers
 * the path of the page that shows: a new page heading marks the final page (a refused route
 * shows the 403 page's). Call it between pages of different kinds (home, then a link). */
async function pageAfter(page: Page, href: string): Promise<string> {
  await page.evaluate((to) => {
    for (const heading of document.querySelectorAll('h1')) heading.setAttribute('data-left', '');
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, href);
  await page.locator('h1:not([data-left])').first().waitFor();
  return page.evaluate(() => location.pathname);
}

describe('links by role', () => {
  // Each kind of menu once: roles 4 and 5 have role 3's links, role 2's are a subset of role
  // 1's (test/unit/links.test.ts checks every role against the matrix).
  for (const role of BROWSER_ROLES) {
    it(`role ${role}: every dashboard and sidebar link opens its page, never the 403 page`, async () => {
      const { context, page } = await open(role);
      await page.getByTestId('tile-services').waitFor();
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').first().waitFor();
      const links = [...new Set(await homeLinks(page))];
      expect(links.length).toBeGreaterThan(1);
      const refused: string[] = [];
      for (const href of links.filter((link) => link !== '/')) {
        if ((await pageAfter(page, href)) === '/forbidden') refused.push(href);
        await pageAfter(page, '/');
      }
      expect(refused).toEqual([]);
      await context.close();
    }, 120_000);
  }
});

describe('deleting with a wrong password', () => {
  it('says it once, in the dialog, with no interceptor toast', async () => {
    const spId = await seedProvider('Wrong Password Centre');
    const { context, page } = await open(1);
    // Every toast shown from now on, in order.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
      new MutationObserver(() => {
        for (const toast of document.querySelectorAll('[data-testid="toast"]:not([data-seen])')) {
          toast.setAttribute('data-seen', '');
          seen.push(toast.textContent ?? '');
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Service Provider List' }).click();
    await page.evaluate((id) => {
      history.pushState({}, '', `/serviceproviders/${id}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, spId);
    await page.getByRole('heading', { name: 'Wrong Password Centre', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Closed for good');
    await dialog.getByLabel(/Password|password/).fill('not-my-password');
    await dialog.getByRole('button', { name: /Delete/ }).click();
    await dialog.getByRole('alert').getByText('Wrong password: nothing was deleted').waitFor();
    expect((await server.api('GET', `/sproviers/${spId}`, { token: adminToken })).status).toBe(200);

    // The right password deletes; its success toast comes after any toast of the failure.
    await dialog.getByLabel(/Password|password/).fill(password);
    await dialog.getByRole('button', { name: /Delete/ }).click();
    await page.getByTestId('toast').filter({ hasText: 'Service provider deleted' }).waitFor();
    const toasts = await page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen);
    expect(toasts.filter((text) => /Interceptor Error|Wrong password/.test(text))).toEqual([]);
    expect(toasts.some((text) => text.includes('Service provider deleted'))).toBe(true);
    await context.close();
  });
});

/** The element shows all its text: nothing cut at its right edge or its bottom, its own and its
 * children's boxes included. */
async function clipped(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const cut: string[] = [];
    for (const node of [root, ...root.querySelectorAll('*')]) {
      const el = node as HTMLElement;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        cut.push(`${el.className}: width ${el.scrollWidth} > ${el.clientWidth}`);
      if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible')
        cut.push(`${el.className}: height ${el.scrollHeight} > ${el.clientHeight}`);
      if (getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth) cut.push(`${el.className}: ellipsis`);
    }
    return cut;
  });
}

/** The rows' name cells, in the data grid (wide) or the phone list (narrow, ADR-0024). */
const NAME_CELLS = '[role="grid"] [role="gridcell"][data-field="sp_Name"]';
const nameCell = (page: Page) => page.locator(NAME_CELLS).first();

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function searchList(page: Page, text: string): Promise<void> {
  await page.getByTestId('grid-search').fill(text);
  await poll(() => page.locator(NAME_CELLS).allTextContents()).toEqual([expect.stringContaining(text)]);
}

describe('list names', () => {
  it('are read whole at 1280 and 360 px, and the not-uploaded mark sits beside the name, not over it', async () => {
    await seedProvider(LONG_NAME);
    const { context, page } = await open(1);
    await page.waitForFunction(() => localStorage.getItem('lists') !== null); // lookups for the offline form
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/serviceproviders');
      await searchList(page, 'Association des mamans');
      const cell = nameCell(page);
      await expect(cell.innerText(), `${width} px`).resolves.toBe(LONG_NAME);
      expect(await clipped(cell), `${width} px`).toEqual([]);
    }
    // A provider saved on this device only carries the mark.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await saveProviderOffline(page, LONG_LOCAL_NAME);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/serviceproviders');
      await searchList(page, 'Coopérative des femmes');
      const cell = nameCell(page);
      const title = cell.getByTestId('row-title');
      const mark = cell.getByTestId('not-uploaded');
      await expect(title.innerText(), `${width} px`).resolves.toBe(LONG_LOCAL_NAME);
      expect(await clipped(cell), `${width} px`).toEqual([]);
      const [titleBox, markBox] = await Promise.all([title.boundingBox(), mark.boundingBox()]);
      expect(titleBox && markBox, `${width} px: both shown`).toBeTruthy();
      expect(
        overlaps(titleBox as NonNullable<typeof titleBox>, markBox as NonNullable<typeof markBox>),
        `${width} px: the mark covers the name`,
      ).toBe(false);
    }
    await context.close();
  }, 120_000);
});

describe('footer', () => {
  it("links to the programme's site the server names, and shows the version only when it names none", async () => {
    const { context, page } = await open(3);
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: 'Programme website' }).getAttribute('href')).resolves.toBe(PROGRAMME_URL);
    await footer.getByText('Version 1.1.0').waitFor();

    await page.route('**/api/config', (route) => route.fulfill({ json: { programmeUrl: null } }));
    const answered = page.waitForResponse('**/api/config');
    await page.reload();
    await answered;
    await footer.getByText('Version 1.1.0').waitFor();
    await expect(footer.getByRole('link').count()).resolves.toBe(0);
    expect(await footer.innerText()).not.toMatch(/example\.org/);
    await context.close();
  });
});
