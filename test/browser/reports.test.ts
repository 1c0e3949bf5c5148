// The reports screen (ADR-0032) on the demo data, as a programme-wide report user (role 2):
// key figures and tables equal to the API's, the territory and date filters changing every
// table, the CSV file of a table in English and French, the print layout (no navigation, one
// section per page, charts kept), and axe in both themes on a desktop and at 360 px.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seedDemo } from '../../server/seed/demo';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser, newPage, settle, signIn, typedDay, type TestPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
let token: string;
let lists: Record<string, { id: number; en: string; fr: string }[]>;

// Of an organisation: a reader without one sees no client figures (ADR-0007).
const reporter = { userName: 'report2', password: 'report-password-2', role: 2, location: 2 };

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedDemo(t.server.db, { scale: 1, seed: 21 });
  await t.createUser(reporter);
  token = await t.login(reporter.userName, reporter.password);
  lists = (await t.api('GET', '/lists/profilelist', { token })).body;
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function api<T>(path: string): Promise<T> {
  const { status, body } = await t.api('GET', path, { token });
  expect(status, path).toBe(200);
  return body as T;
}

const label = (list: string, id: number, lang: 'en' | 'fr' = 'en') => lists[list]?.find((item) => item.id === id)?.[lang] ?? `#${id}`;

async function opened(options: { lang?: 'en' | 'fr'; width?: number; dark?: boolean; path?: string } = {}): Promise<TestPage> {
  const page = await newPage(browser, {
    baseURL: t.url,
    lang: options.lang ?? 'en',
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  if (options.dark) await page.context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await signIn(page.page, reporter.userName, reporter.password);
  await page.page.goto(options.path ?? '/reports');
  await loaded(page.page);
  return page;
}

/** The page has the figures of its current filter. */
async function loaded(page: Page): Promise<void> {
  await poll(() => page.getByTestId('report-state').getAttribute('data-loading')).toBe('false');
  await page.getByTestId('report-kpis').waitFor();
}

/** A table's body rows as text cells, and its total line. */
async function tableRows(page: Page, id: string): Promise<{ rows: string[][]; total: string[] }> {
  const table = page.getByTestId(`table-${id}`);
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
  const total = await table
    .locator('tfoot tr')
    .first()
    .evaluate((tr) => [...tr.children].map((td) => td.textContent ?? ''));
  return { rows, total };
}

/** The rows a count table should show for `counts` (label, count, share), English numbers. */
function expected(counts: { id: number | string; count: number }[], name: (id: number | string) => string): string[][] {
  if (counts.length === 0) return [['No data for this chart yet.']]; // what an empty table shows
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  return counts.map((c) => [name(c.id), c.count.toLocaleString('en'), (Math.round((c.count / total) * 1000) / 10).toLocaleString('en')]);
}

const SEX = { F: 'Female', M: 'Male' } as Record<string, string>;

describe('reports', () => {
  it('shows the API figures, and the filters change every table (role 2, English)', async () => {
    const { context, page } = await opened();
    const kpis = await api<Record<string, number>>('/stats/getKPIs/');
    for (const name of ['services', 'jobs', 'profiles', 'referrals', 'hired']) {
      expect(await page.getByTestId(`kpi-${name}`).locator('dd').textContent(), name).toBe(kpis[name]?.toLocaleString('en'));
    }
    const byTerritory = await api<{ id: number; count: number }[]>('/stats/byter/services');
    expect((await tableRows(page, 'servicesByTerritory')).rows).toEqual(expected(byTerritory, (id) => label('territory', Number(id))));
    const sex = await api<{ id: string; count: number }[]>('/stats/by/profiles/sex');
    expect((await tableRows(page, 'clientsBySex')).rows).toEqual(expected(sex, (id) => SEX[id] ?? String(id)));
    const status = await api<{ id: string; count: number }[]>('/stats/by/referrals/status');
    expect((await tableRows(page, 'referralsByStatus')).rows.map((r) => r[1])).toEqual(status.map((s) => s.count.toLocaleString('en')));
    await page.getByTestId('chart-servicesByTerritory').locator('svg').first().waitFor();
    const offers = await api<{ id: number; count: number }[]>('/stats/byoffrall');
    expect((await tableRows(page, 'offersOverall')).total[1]).toBe(offers.reduce((s, o) => s + o.count, 0).toLocaleString('en'));

    // Territory filter: Beni (7) only, kept in the address.
    await page.getByTestId('filter-territory').click();
    await page.getByRole('option', { name: label('territory', 7) }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await poll(() => new URL(page.url()).searchParams.get('territory')).toBe('7');
    await loaded(page);
    const beni = await api<{ id: number; count: number }[]>('/stats/byter/services?territory=7');
    await poll(async () => (await tableRows(page, 'servicesByTerritory')).rows).toEqual(
      expected(beni, (id) => label('territory', Number(id))),
    );
    const beniKpis = await api<Record<string, number>>('/stats/getKPIs/?territory=7');
    expect(await page.getByTestId('kpi-services').locator('dd').textContent()).toBe(beniKpis.services?.toLocaleString('en'));
    expect(beniKpis.services).toBeLessThan(kpis.services ?? 0);
    const beniSectors = await api<{ id: number; count: number }[]>('/stats/getJbSec/?territory=7');
    expect((await tableRows(page, 'jobsBySector')).rows).toEqual(expected(beniSectors, (id) => label('sector', Number(id))));
    const cross = await t.api('POST', '/stats/byterCate/', { token, body: { territory: 7 } });
    expect((await tableRows(page, 'servicesByTerritoryCategory')).rows.map((r) => r[0])).toEqual(
      cross.body.length ? [label('territory', 7)] : [],
    );

    // Date range on top of it (whole days, both ends included).
    const from = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date().toISOString().slice(0, 10);
    await page.getByTestId('filter-from').fill(typedDay(from));
    await page.getByTestId('filter-to').fill(typedDay(to));
    await poll(() => new URL(page.url()).searchParams.get('from')).toBe(from);
    await loaded(page);
    const dated = await api<{ id: string; count: number }[]>(`/stats/by/profiles/sex?territory=7&dateFrom=${from}&dateTo=${to}`);
    await poll(async () => (await tableRows(page, 'clientsBySex')).rows).toEqual(expected(dated, (id) => SEX[id] ?? String(id)));
    const datedKpis = await api<Record<string, number>>(`/stats/getKPIs/?territory=7&dateFrom=${from}&dateTo=${to}`);
    expect(await page.getByTestId('kpi-profiles').locator('dd').textContent()).toBe(datedKpis.profiles?.toLocaleString('en'));

    // An end before the start is refused on the page; the figures stay those of the last filter.
    await page.getByTestId('filter-to').fill('01/01/2000');
    await page.getByText('The end date must not be before the start date.').waitFor();
    expect(await page.getByTestId('kpi-profiles').locator('dd').textContent()).toBe(datedKpis.profiles?.toLocaleString('en'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await loaded(page);
    await poll(() => page.getByTestId('kpi-services').locator('dd').textContent()).toBe(kpis.services?.toLocaleString('en'));

    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('saves a table as CSV in English and in French', async () => {
    const categories = await api<{ id: number; count: number }[]>('/stats/byspdtype');
    const total = categories.reduce((sum, c) => sum + c.count, 0);
    for (const lang of ['en', 'fr'] as const) {
      const { context, page } = await opened({ lang });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-servicesByCategory').click()]);
      const text = await readFile(await download.path(), 'utf8');
      const sep = lang === 'en' ? ',' : ';';
      const lines = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(download.suggestedFilename()).toMatch(lang === 'en' ? /^services-by-category\.csv$/ : /^services-par-categorie\.csv$/);
      expect(lines[0]).toBe(lang === 'en' ? 'Category,Services,Share (%)' : 'Catégorie;Services;Part (%)');
      const cell = (text: string) => (text.includes(sep) ? `"${text}"` : text);
      const share = (count: number) => (Math.round((count / total) * 1000) / 10).toLocaleString(lang, { useGrouping: false });
      expect(lines.slice(1, -1)).toEqual(
        categories.map((c) => [cell(label('category', c.id, lang)), String(c.count), share(c.count)].join(sep)),
      );
      expect(lines.at(-1)).toBe(['Total', String(total), '100'].join(sep));
      await context.close();
    }
  });

  it('prints without navigation, one section per page, with its charts', async () => {
    const { context, page } = await opened();
    await page.getByTestId('chart-servicesByCategory').locator('svg').first().waitFor();
    await page.emulateMedia({ media: 'print' });
    for (const hidden of [
      '.MuiAppBar-root',
      '.MuiDrawer-root',
      'footer',
      '[data-testid="training-banner"]',
      '[data-testid="filter-from"]',
    ]) {
      expect(await page.locator(hidden).first().isVisible(), hidden).toBe(false);
    }
    const sections = page.locator('.report-section');
    const count = await sections.count();
    expect(count).toBeGreaterThanOrEqual(13);
    const breaks = await sections.evaluateAll((all) => all.map((s) => getComputedStyle(s).breakBefore));
    // The key figures share the first page with the title; every other section starts a page.
    expect(breaks[0]).not.toBe('page');
    expect(new Set(breaks.slice(1))).toEqual(new Set(['page']));
    expect(await page.getByTestId('chart-servicesByCategory').locator('svg').first().isVisible()).toBe(true);
    expect(await page.locator('[data-testid^="csv-"]').first().isVisible()).toBe(false);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
    expect(pages).toBeGreaterThanOrEqual(count - 1);
    await context.close();
  });

  it('fits 360 px and passes axe in French, dark and light', async () => {
    for (const dark of [true, false]) {
      const { context, page } = await opened({ lang: 'fr', width: 360, dark });
      await page.getByRole('heading', { level: 1, name: 'Rapports' }).waitFor();
      await page.getByText('Services par territoire', { exact: true }).waitFor();
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), dark ? 'dark' : 'light').toBeLessThanOrEqual(360);
      expect(await seriousViolations(page), dark ? 'dark' : 'light').toEqual([]);
      await context.close();
    }
  });
});
