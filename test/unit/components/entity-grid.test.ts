// @vitest-environment jsdom
// EntityGrid: columns and labels derived from the entity, the query it sends, the "not
// uploaded" chip, and the row click.
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { job, serviceProvider } from '../../../schemas/index';
import { act } from 'react';
import { PAGE_SIZES } from '../../../schemas/derive/json-schema';
import { buildColumns, EntityGrid, PAGE_SIZE_MENUS, type DisplayContext } from '../../../src/components/entity';
import { Subject } from 'rxjs';
import { firstPageQuery, LOCAL_SEARCH_DEBOUNCE_MS } from '../../../src/components/entity/useGridQuery';
import { setMode } from '../../../src/lib/session';
import { CLIENT_LIST } from '../../../src/features/clients/list';
import { JOB_LIST } from '../../../src/features/jobs/list';
import { PROVIDER_LIST } from '../../../src/features/providers/list';
import { SERVICE_LIST } from '../../../src/features/services/list';
import { emitServerChange, emitServerListening } from '../../../src/lib/util/events';
import type { ListQuery, ListResult } from '../../../src/lib/data/types';
import { click, messages, typeInto, wait, type Lang } from './render';
import { openGrid, pagedLoader, viewOverLists, type GridProps } from './lists-view';

const downloads = vi.hoisted(() => [] as { text: string; fileName: string }[]);
vi.mock('../../../src/lib/ui/download', () => ({
  downloadText: (text: string, fileName: string) => downloads.push({ text, fileName }),
}));

const LISTS = {
  territory: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true },
    { id: 2, fr: 'Béni', en: 'Beni', active: true },
  ],
  sector: [{ id: 3, fr: 'Agriculture', en: 'Farming', active: true }],
};

function ctx(lang: Lang): DisplayContext {
  const t = (id: string, values?: Record<string, string | number>) =>
    (messages[lang][id] ?? id).replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`));
  return { lang, lists: LISTS, t };
}

const ROWS = [
  {
    sp_Id: '0190a0a0-0000-7000-8000-000000000001',
    sp_Name: 'Centre Espoir',
    sp_type: 1,
    territory: 2,
    createdAt: '2026-11-21T10:00:00.000Z',
    syncState: 'synced',
  },
  {
    sp_Id: '0190a0a0-0000-7000-8000-000000000002',
    sp_Name: 'Avocats sans frontières',
    sp_type: 3,
    territory: 1,
    createdAt: '2026-11-20T10:00:00.000Z',
    syncState: 'pending',
  },
];

describe('grid columns from the entity', () => {
  it('take their headers from the field labels, in the order asked', () => {
    const columns = buildColumns(serviceProvider, ['sp_Name', 'sp_type', 'territory', 'createdAt'], ctx('en'));
    expect(columns.map((c) => c.headerName)).toEqual(['Name', 'Type', 'Territory', 'Created']);
    expect(buildColumns(serviceProvider, ['sp_Name', 'sp_type'], ctx('fr')).map((c) => c.headerName)).toEqual(['Nom', 'Type']);
  });

  it('show enum names, lookup labels, short dates and yes/no in the user language', () => {
    const show = (lang: Lang, names: string[], row: Record<string, unknown>) =>
      buildColumns(job, names, ctx(lang)).map((c) =>
        (c.valueGetter as (v: never, r: Record<string, unknown>) => string)(undefined as never, row),
      );
    const row = { contract: 'fixedTerm', sector: 3, territory: 2, deadline: '2026-11-21', open: true, positions: 1200 };
    expect(show('en', ['contract', 'sector', 'territory', 'deadline', 'open', 'positions'], row)).toEqual([
      'Fixed term',
      'Farming',
      'Beni',
      'Nov 21, 2026',
      'Yes',
      '1,200',
    ]);
    expect(show('fr', ['contract', 'sector', 'territory', 'deadline', 'open', 'positions'], row)).toEqual([
      'CDD',
      'Agriculture',
      'Béni',
      '21 nov. 2026',
      'Oui',
      '1\u202f200',
    ]);
  });

  it('show a date-time as its day, short month and year, in the user language (product.md §9)', () => {
    const created = (lang: Lang) =>
      (buildColumns(serviceProvider, ['createdAt'], ctx(lang))[0]?.valueGetter as (v: never, r: Record<string, unknown>) => string)(
        undefined as never,
        { createdAt: '2026-11-24T10:30:00.000Z' },
      );
    expect(created('en')).toBe('Nov 24, 2026');
    expect(created('fr')).toBe('24 nov. 2026');
  });

  it('show the id of a lookup item the device does not know rather than nothing', () => {
    const [territory] = buildColumns(serviceProvider, ['territory'], ctx('en'));
    expect((territory?.valueGetter as (v: never, r: Record<string, unknown>) => string)(undefined as never, { territory: 99 })).toBe('#99');
  });

  it('refuse a field the entity does not have', () => {
    expect(() => buildColumns(serviceProvider, ['nope'], ctx('en'))).toThrow(/serviceProvider has no field nope/);
  });

  it('sort on the server only where the server can', () => {
    const columns = buildColumns(job, ['title', 'deadline'], ctx('en'));
    expect(columns.every((c) => c.sortable)).toBe(true);
  });
});

const mounted = viewOverLists(LISTS);

const loader = (rows: Record<string, unknown>[] = ROWS) => pagedLoader(rows, 10);

/** The data grid's code loads on demand (ADR-0035): the grid itself is waited for. */
const open = (props: GridProps, lang: Lang = 'en') => openGrid(mounted, props, lang, '[role="grid"]');

describe('EntityGrid', () => {
  it('asks for the first page, sorted as the entity declares', async () => {
    const load = loader();
    await open({ load });
    expect(load).toHaveBeenCalledWith({ sort: 'sp_Name', dir: 'asc', page: 1, pageSize: 25 });
  });

  it('asks first the query the app asks before the screen is drawn (firstPageQuery), for each list screen', async () => {
    for (const list of [PROVIDER_LIST, SERVICE_LIST, JOB_LIST, CLIENT_LIST]) {
      const load = loader([]);
      await open({ load, entity: list.entity, columns: list.columns });
      // The same object, key for key in the same order: the prefetched answer is found by its text.
      expect(JSON.stringify(load.mock.calls[0]?.[0])).toBe(JSON.stringify(firstPageQuery(list.entity, list.columns)));
      await mounted.view?.unmount();
      mounted.view = null;
    }
  });

  it("offers as sorts only orders each list screen's entity declares, so that an index reads every one", () => {
    for (const list of [PROVIDER_LIST, SERVICE_LIST, JOB_LIST, CLIENT_LIST]) {
      expect(list.entity.list?.sorts, list.entity.name).toEqual(expect.arrayContaining([...list.columns]));
    }
  });

  it('shows the rows with their labels and marks the ones not uploaded', async () => {
    const { container } = await open({ load: loader() });
    const rows = Array.from(container.querySelectorAll('[role="row"][data-id]'));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('Centre Espoir');
    expect(rows[0]?.textContent).toContain('Social');
    expect(rows[0]?.textContent).toContain('Beni');
    expect(rows[0]?.querySelector('[data-testid="not-uploaded"]')).toBeNull();
    expect(rows[1]?.querySelector('[data-testid="not-uploaded"]')?.textContent).toBe('not uploaded');
  });

  it('draws the page in hand (firstPage) at once, while its request is still to answer', async () => {
    const never = vi.fn((_query: ListQuery) => new Subject<ListResult<Record<string, unknown>>>());
    const firstPage = vi.fn((query: ListQuery) => ({
      rows: ROWS,
      total: ROWS.length,
      page: query.page ?? 1,
      pageSize: query.pageSize ?? 25,
    }));
    const { container } = await open({ load: never, firstPage });
    expect(firstPage).toHaveBeenCalledWith({ sort: 'sp_Name', dir: 'asc', page: 1, pageSize: 25 });
    expect(never).toHaveBeenCalledWith({ sort: 'sp_Name', dir: 'asc', page: 1, pageSize: 25 }); // still asked
    expect(Array.from(container.querySelectorAll('[role="row"][data-id]')).map((row) => row.textContent)).toEqual([
      expect.stringContaining('Centre Espoir'),
      expect.stringContaining('Avocats sans frontières'),
    ]);
    await mounted.view?.unmount();
    mounted.view = null;

    const nothingInHand = await open({ load: never, firstPage: () => undefined });
    expect(nothingInHand.container.querySelectorAll('[role="row"][data-id]')).toHaveLength(0); // loading
  });

  it('marks them in French too', async () => {
    const { container } = await open({ load: loader() }, 'fr');
    expect(container.querySelector('[data-testid="not-uploaded"]')?.textContent).toBe('non envoyé');
    expect(container.textContent).toContain('Juridique');
  });

  it('opens a row on click', async () => {
    const onRowClick = vi.fn();
    const { container } = await open({ load: loader(), onRowClick });
    const cell = container.querySelector('[role="row"][data-id] [role="gridcell"]') as HTMLElement;
    await click(cell);
    expect(onRowClick).toHaveBeenCalledWith(expect.objectContaining({ sp_Name: 'Centre Espoir' }));
  });

  it('sends the search after a pause, from the first page', async () => {
    const load = loader();
    const { container } = await open({ load });
    const search = container.querySelector('[data-testid="grid-search"]') as HTMLInputElement;
    await typeInto(search, 'esp');
    await typeInto(search, 'espoir');
    await wait(500);
    const searches = load.mock.calls.map(([q]) => q.q).filter(Boolean);
    expect(searches).toEqual(['espoir']);
    expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'espoir', page: 1 }));
  });

  it('offline, where the store answers, sends the search after a shorter pause', async () => {
    const waitedOnline = async (mode: 'online' | 'offline') => {
      setMode(mode);
      const load = loader();
      const { container } = await open({ load });
      await typeInto(container.querySelector('[data-testid="grid-search"]') as HTMLInputElement, 'espoir');
      await wait(LOCAL_SEARCH_DEBOUNCE_MS + 50);
      return load.mock.calls.some(([q]) => q.q === 'espoir');
    };
    try {
      expect(await waitedOnline('offline')).toBe(true);
      expect(await waitedOnline('online')).toBe(false);
    } finally {
      setMode('online');
    }
  });

  it('applies the fixed filter of the screen and offers the others', async () => {
    const load = loader([{ jb_Id: '0190a0a0-0000-7000-8000-000000000003', title: 'Mason', syncState: 'synced' }]);
    const { container } = await open({ load, entity: job, columns: ['title'], fixedFilter: { territory: 2 } });
    expect(load).toHaveBeenCalledWith(expect.objectContaining({ filter: { territory: 2 } }));
    const filters = Array.from(container.querySelectorAll('[data-testid^="filter-"]')).map((el) => el.getAttribute('data-testid'));
    expect(filters).toEqual(['filter-sector', 'filter-contract', 'filter-open', 'filter-location']);
  });

  describe('page sizes (product.md §9)', () => {
    /** The sizes the pager's menu offers, read from its open list. */
    async function menuSizes(container: HTMLElement): Promise<string[]> {
      const select = container.querySelector('.MuiTablePagination-root [role="combobox"]') as HTMLElement;
      expect(select, 'the pager has a page-size menu').not.toBeNull();
      await mouseDown(select);
      return Array.from(document.querySelectorAll('[role="listbox"] [role="option"]')).map((option) => option.textContent ?? '');
    }

    async function mouseDown(element: Element): Promise<void> {
      await act(async () => {
        element.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
      });
    }

    it('offer 25, 50, 100 and 200 rows on a main list, 25 first, and ask the server for 200', async () => {
      const load = loader();
      const { container } = await open({ load });
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, pageSize: 25 }));
      expect(await menuSizes(container)).toEqual(['25', '50', '100', '200']);
      await click(Array.from(document.querySelectorAll('[role="option"]')).find((option) => option.textContent === '200') as HTMLElement);
      await wait(10);
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, pageSize: 200 }));
      expect(container.querySelector('.MuiTablePagination-root')?.textContent).toContain('1–2 of 2');
    });

    it('offer 5 to 20 on a short table and 10 to 50 on a medium one', async () => {
      const short = await open({ load: loader(), pageSizes: 'short' });
      expect(await menuSizes(short.container)).toEqual(['5', '10', '15', '20']);
      await short.unmount();
      mounted.view = null;
      document.body.innerHTML = '';
      const load = loader();
      const medium = await open({ load, pageSizes: 'medium' });
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ pageSize: 10 }));
      expect(await menuSizes(medium.container)).toEqual(['10', '15', '20', '50']);
    });

    it('are all sizes the list API accepts', () => {
      for (const sizes of Object.values(PAGE_SIZE_MENUS)) for (const size of sizes) expect(PAGE_SIZES).toContain(size);
    });

    it('go back to the last page with rows when the list shrinks', async () => {
      let total = 60;
      const load = pagedLoader(ROWS, 25, { total: () => total });
      const props = { entity: serviceProvider, columns: ['sp_Name'], load };
      const shown = await open(props);
      const next = () => shown.container.querySelector('.MuiTablePagination-root button[aria-label="Go to next page"]') as HTMLElement;
      await click(next());
      await wait(10);
      await click(next());
      await wait(10);
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ page: 3 }));
      total = 30;
      await shown.rerender(createElement(EntityGrid<Record<string, unknown>>, { ...props, refreshKey: 1 }));
      await wait(20);
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2, pageSize: 25 }));
    });

    it('says "more than" the count when the server counted up to its bound, and pages on past it', async () => {
      for (const [lang, text] of [
        ['en', '1–25 of more than 10,000'],
        ['fr', '1–25 sur plus de 10\u202f000'],
      ] as const) {
        const load = pagedLoader(ROWS, 25, { total: () => 10_000, totalIsLowerBound: true });
        const { container } = await open({ load }, lang);
        expect(container.querySelector('.MuiTablePagination-root')?.textContent).toContain(text);
        await mounted.view?.unmount();
        mounted.view = null;
      }
    });

    it('page on: the next page asks for rows 26 to 50', async () => {
      const load = pagedLoader(ROWS, 25, { total: () => 60 });
      const { container } = await open({ load });
      expect(container.querySelector('.MuiTablePagination-root')?.textContent).toContain('1–25 of 60');
      await click(container.querySelector('.MuiTablePagination-root button[aria-label="Go to next page"]') as HTMLElement);
      await wait(10);
      expect(load).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2, pageSize: 25 }));
      expect(container.querySelector('.MuiTablePagination-root')?.textContent).toContain('26–50 of 60');
    });
  });

  it("draws a page given step by step: the server's rows, then with this device's unsent one, each once", async () => {
    const steps = new Subject<ListResult<Record<string, unknown>>>();
    const { container } = await open({ load: () => steps });
    const ids = () => Array.from(container.querySelectorAll('[role="row"][data-id]')).map((row) => row.getAttribute('data-id'));
    await act(async () => steps.next({ rows: [ROWS[0] as Record<string, unknown>], total: 1, page: 1, pageSize: 25 }));
    await wait(10);
    expect(ids()).toEqual([ROWS[0]?.sp_Id]);
    await act(async () =>
      steps.next({ rows: [ROWS[1] as Record<string, unknown>, ROWS[0] as Record<string, unknown>], total: 2, page: 1, pageSize: 25 }),
    );
    await wait(10);
    expect(ids()).toEqual([ROWS[1]?.sp_Id, ROWS[0]?.sp_Id]);
    expect(container.querySelectorAll('[data-testid="not-uploaded"]')).toHaveLength(1);
  });

  describe('live', () => {
    it('loads its page again when the change stream names its table, and not for another table', async () => {
      const load = loader();
      await open({ load });
      const before = load.mock.calls.length;
      await act(async () => emitServerChange('referral'));
      await wait(20);
      expect(load.mock.calls.length).toBe(before);
      await act(async () => emitServerChange(serviceProvider.table));
      await wait(20); // less than any pause: the first change reloads at once
      expect(load.mock.calls.length).toBe(before + 1);
      expect(load.mock.lastCall?.[0]).toEqual({ sort: 'sp_Name', dir: 'asc', page: 1, pageSize: 25 });
    });

    it('asks again once the change stream listens: a change made before it did was not heard', async () => {
      const load = loader();
      await open({ load });
      const before = load.mock.calls.length;
      await act(async () => emitServerListening());
      await wait(20);
      expect(load.mock.calls.length).toBe(before + 1);
    });

    it('makes a burst of changes a few reloads, the last change included', async () => {
      const load = loader();
      await open({ load });
      const before = load.mock.calls.length;
      await act(async () => {
        for (let i = 0; i < 30; i += 1) emitServerChange(i % 2 ? '*' : serviceProvider.table);
      });
      await wait(700);
      expect(load.mock.calls.length - before).toBe(2); // at once, and once after the burst
    });
  });

  it('shows why a page could not be loaded, and tries again', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('Network Error'))
      .mockResolvedValue({ rows: ROWS, total: 2, page: 1, pageSize: 10 });
    const { container } = await open({ load });
    expect(container.textContent).toContain('The list could not be loaded: Network Error');
    const retry = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Retry') as HTMLButtonElement;
    await click(retry);
    await wait(10);
    expect(load).toHaveBeenCalledTimes(2);
    expect(container.textContent).not.toContain('could not be loaded');
  });

  describe('columns the screen draws', () => {
    const custom = {
      note: {
        header: 'Note',
        render: (row: Record<string, unknown>) => createElement('em', { 'data-testid': 'note' }, `note on ${String(row.sp_Name)}`),
        text: (row: Record<string, unknown>) => `note on ${String(row.sp_Name)}`,
      },
      act: { header: 'Act', actions: true, render: () => createElement('button', { type: 'button', 'data-testid': 'act' }, 'Do it') },
    };
    const cells = {
      sp_type: (row: Record<string, unknown>) => createElement('strong', { 'data-testid': 'type-chip' }, `type ${String(row.sp_type)}`),
    };

    it("places custom columns by name and draws chosen fields with the screen's renderer", async () => {
      const { container } = await open({
        load: loader(),
        columns: ['sp_Name', 'note', 'sp_type', 'act'],
        customColumns: custom,
        renderCells: cells,
      });
      const headers = Array.from(container.querySelectorAll('[role="columnheader"]')).map((h) => h.textContent);
      expect(headers).toEqual(['Name', 'Note', 'Type', 'Act']);
      const first = container.querySelector('[role="row"][data-id]') as HTMLElement;
      expect(first.querySelector('[data-testid="note"]')?.textContent).toBe('note on Centre Espoir');
      expect(first.querySelector('[data-testid="type-chip"]')?.textContent).toBe('type 1');
      // The first field still carries the "not uploaded" mark.
      const rows = container.querySelectorAll('[role="row"][data-id]');
      expect(rows[1]?.querySelector('[data-testid="not-uploaded"]')).not.toBeNull();
    });

    it('leaves a click on a button in a row to the button', async () => {
      const onRowClick = vi.fn();
      const { container } = await open({ load: loader(), columns: ['sp_Name', 'act'], customColumns: custom, onRowClick });
      await click(container.querySelector('[data-testid="act"]') as HTMLElement);
      expect(onRowClick).not.toHaveBeenCalled();
      await click(container.querySelector('[role="row"][data-id] [role="gridcell"]') as HTMLElement);
      expect(onRowClick).toHaveBeenCalledTimes(1);
    });

    it('exports custom columns as their text and leaves the buttons out', async () => {
      downloads.length = 0;
      const { container } = await open({ load: loader(), columns: ['sp_Name', 'note', 'act'], customColumns: custom, exportName: 'Notes' });
      const exportButton = container.querySelector('[data-testid="grid-export"]') as HTMLElement;
      await click(exportButton);
      await wait(20);
      expect(downloads).toHaveLength(1);
      const lines = (downloads[0]?.text ?? '')
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toBe('Name,Note');
      expect(lines[1]).toBe('Centre Espoir,note on Centre Espoir');
      expect(downloads[0]?.fileName).toMatch(/^notes-\d{4}-\d{2}-\d{2}\.csv$/);
    });

    it('says what the screen wants when there are no rows, and names its loading bar', async () => {
      const empty = await open({ load: loader([]), emptyText: 'Nothing to verify' });
      expect(empty.container.textContent).toContain('Nothing to verify');
      await empty.unmount();
      mounted.view = null;

      // A reload over rows already shown (after a save, say) shows the bar, named.
      let answer = true;
      const load = vi.fn(async (query: ListQuery) => {
        if (answer) return { rows: ROWS, total: ROWS.length, page: query.page ?? 1, pageSize: query.pageSize ?? 10 };
        return new Promise<ListResult<Record<string, unknown>>>(() => undefined);
      });
      const props = { entity: serviceProvider, columns: ['sp_Name'], load };
      const shown = await open(props);
      expect(shown.container.querySelectorAll('[role="row"][data-id]')).toHaveLength(2);
      answer = false;
      await shown.rerender(createElement(EntityGrid<Record<string, unknown>>, { ...props, refreshKey: 1 }));
      await wait(10);
      expect(shown.container.querySelector('[role="progressbar"]')?.getAttribute('aria-label')).toBe('Loading…');
    });
  });
});
