// @vitest-environment jsdom
// The client list's caseload parts (docs/product.md §6.5.1 "The screens"): each client's
// assigned worker by name; "Assigned to" (anyone, me, a worker of the organisation) goes into the
// list's query as the `assignedTo` filter, the same query online (the server's list) and offline
// (the store's); the roles that assign tick clients and open "Assign to…", which is off offline
// and says why; the others have no selection. Offline, a field worker's list says how many of the
// organisation's clients are not on the device, "more than" past the server's count bound.
import { createElement } from 'react';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../src/lib/data/types';
import { mediaQueryList, width } from '../../helpers/media';
import { click, render, wait, type Rendered } from './render';
import { mockApi, mockedApiViews, signIn } from './audit-fixtures';

const queries = vi.hoisted(() => [] as ListQuery[]);
const ROWS = vi.hoisted(() => [
  {
    prof_Id: 'c1',
    prof_Reg_No: 'ESPAAAA1111',
    firstName: 'Asha',
    lastName: 'Kabila',
    sex: 'F',
    territory: 1,
    location: 2,
    assignedTo: 'w-amani',
    syncState: 'synced',
  },
  {
    prof_Id: 'c2',
    prof_Reg_No: 'ESPBBBB2222',
    firstName: 'Baraka',
    lastName: 'Mulumba',
    sex: 'M',
    territory: 2,
    location: 2,
    assignedTo: 'me',
    syncState: 'synced',
  },
]);
const caseload = vi.hoisted(() => ({ status: null as unknown }));
vi.mock('../../../src/features/offline', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useCaseloadStatus: () => caseload.status,
}));
vi.mock('../../../src/lib/data/hooks', () => ({
  useOpeningDataLayer: () => ({
    listPages: (_entity: unknown, query: ListQuery) => {
      queries.push(query);
      return Promise.resolve({ rows: ROWS, total: ROWS.length, page: 1, pageSize: 25 });
    },
    firstPage: () => undefined,
  }),
}));

const { ClientListPage } = await import('../../../src/features/clients/ClientListPage');
const { PreferencesProvider } = await import('../../../src/components');

const WORKERS = [
  { userId: 'w-amani', name: 'Amani Field', location: 2, caseload: true },
  { userId: 'w-bahati', name: 'Bahati Office', location: 2, caseload: false },
];

async function show(): Promise<Rendered> {
  mockApi((call) => (call.url === '/caseload/workers' ? { status: 200, data: { workers: WORKERS } } : { status: 404, data: {} }));
  const rendered = await render(
    createElement(MemoryRouter, { initialEntries: ['/profiles'] }, createElement(PreferencesProvider, null, createElement(ClientListPage))),
  );
  await wait(50);
  return rendered;
}

/** Picks `option` in the "Assigned to" select (on a phone, in the filters' sheet). */
async function chooseAssigned(option: string): Promise<void> {
  const sheetButton = document.querySelector('[data-testid="filters-open"]');
  if (!document.querySelector('[data-testid="filters-sheet"]') && sheetButton) await click(sheetButton);
  const combobox = document.querySelector<HTMLElement>('[data-testid="filter-assignedTo"] [role="combobox"]');
  if (!combobox) throw new Error('no "Assigned to" select');
  await act(async () => {
    combobox.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  });
  const found = Array.from(document.querySelectorAll<HTMLElement>('[role="option"]')).find((o) => o.textContent === option);
  if (!found) throw new Error(`no option ${option}`);
  await click(found);
  await wait(50);
}

describe('the client list and the caseload', () => {
  const mounted = mockedApiViews({
    reset: () => {
      queries.length = 0;
      caseload.status = null;
      // A phone: the light list draws the rows (the data grid does not in jsdom).
      width.narrow = true;
      window.matchMedia = mediaQueryList;
    },
  });

  it('shows the assigned worker and filters by "Assigned to": a worker, me, anyone', async () => {
    signIn(3);
    mounted.shown = await show();
    // On a phone, a line under the name; oneself by one's own name.
    const lines = Array.from(document.querySelectorAll('[data-testid="row-assigned"]')).map((l) => l.textContent);
    expect(lines).toEqual(['Assigned to Amani Field', 'Assigned to admin']);
    expect(queries.at(-1)?.filter).toBeUndefined();
    await chooseAssigned('Amani Field');
    expect(queries.at(-1)?.filter).toEqual({ assignedTo: 'w-amani' });
    await chooseAssigned('Me');
    expect(queries.at(-1)?.filter).toEqual({ assignedTo: 'me' }); // the signed-in user's id
    await chooseAssigned('Anyone');
    expect(queries.at(-1)?.filter).toBeUndefined();
    // A field worker does not assign: no selection.
    expect(document.querySelector('[data-testid="row-select"]')).toBeNull();
    expect(document.querySelector('[data-testid="assign-bar"]')).toBeNull();
  });

  it('lets the roles that assign tick clients and open "Assign to…", online only', async () => {
    signIn(5);
    mounted.shown = await show();
    const boxes = () => Array.from(document.querySelectorAll<HTMLInputElement>('[data-testid="row-select"] input'));
    expect(boxes().map((b) => b.getAttribute('aria-label'))).toEqual(['Select Asha Kabila', 'Select Baraka Mulumba']);
    const open = () => document.querySelector<HTMLButtonElement>('[data-testid="assign-open"]');
    expect(open()?.disabled).toBe(true); // nothing ticked
    for (const box of boxes()) await click(box);
    expect(document.querySelector('[data-testid="assign-count"]')?.textContent).toBe('2 clients selected');
    expect(open()?.textContent).toBe('Assign 2 clients to…');
    expect(open()?.disabled).toBe(false);
    await click(open() as Element);
    await wait(50);
    expect(document.querySelector('[data-testid="assign-dialog"]')?.textContent).toContain('Assign 2 clients');
  });

  it('selects the clients of the page shown at once, leaving out those already ticked', async () => {
    signIn(1);
    mounted.shown = await show();
    const selectPage = () => document.querySelector<HTMLButtonElement>('[data-testid="select-page"]');
    const ticked = () => Array.from(document.querySelectorAll<HTMLInputElement>('[data-testid="row-select"] input')).map((b) => b.checked);
    expect(selectPage()?.textContent).toBe('Select this page (2 clients)');
    await click(document.querySelector('[data-testid="row-select"] input') as Element);
    expect(selectPage()?.textContent).toBe('Select this page (1 client)');
    await click(selectPage() as Element);
    expect(ticked()).toEqual([true, true]);
    expect(document.querySelector('[data-testid="assign-count"]')?.textContent).toBe('2 clients selected');
    expect(selectPage()?.disabled).toBe(true); // nothing left on this page
  });

  it('says offline why assigning is off', async () => {
    signIn(4);
    localStorage.setItem('mode', 'offline');
    mounted.shown = await show();
    expect(document.querySelector<HTMLButtonElement>('[data-testid="assign-open"]')?.disabled).toBe(true);
    expect(document.querySelector<HTMLButtonElement>('[data-testid="select-page"]')?.disabled).toBe(true);
    expect(document.querySelector('[data-testid="assign-offline"]')?.textContent).toBe(
      'Assigning needs a connection to the server: switch to online mode when you have a network.',
    );
  });
  it('says offline how many of the organisation\'s clients are not on the device, and "more than" past the count\'s bound', async () => {
    signIn(3);
    localStorage.setItem('mode', 'offline');
    const figures = { clients: 2, candidates: 2, overflow: 0, bound: 3000, pinned: 0, assigned: 2, territory: 0, rows: 4, megabytes: 0.01 };
    const at = '2026-12-06T10:00:00.000Z';
    const notice = () => document.querySelector('[data-testid="caseload-outside"]')?.textContent;
    caseload.status = { caseload: true, figures: { ...figures, outside: 12, outsideIsLowerBound: false }, at };
    mounted.shown = await show();
    expect(notice()).toMatch(
      /^12 of your organisation's clients are not on this device \(counted at the last sync, .+\)\. Online, the search finds them\.$/,
    );
    await mounted.shown.unmount();
    caseload.status = { caseload: true, figures: { ...figures, outside: 13000, outsideIsLowerBound: true }, at };
    mounted.shown = await show();
    expect(notice()).toMatch(
      /^More than 13,000 of your organisation's clients are not on this device \(counted at the last sync, .+\)\. Online, the search finds them\.$/,
    );
  });
});
