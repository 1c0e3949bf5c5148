// @vitest-environment jsdom
// EntityGrid on a phone (ADR-0024): below 600 px the light PhoneList draws the rows, the data
// grid's module is never imported; the same cells, sorting, row opening and labels.
import { createElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTheme } from '@mui/material';
import { type CustomColumn } from '../../../src/components/entity';
import { NARROW_QUERY, preloadListView } from '../../../src/components/entity/gridViewModule';
import { mediaQueryList, width } from '../../helpers/media';
import { nextSort } from '../../../src/components/entity/PhoneList';
import { click, wait, type Lang } from './render';
import { openGrid, pagedLoader, viewOverLists, type GridProps } from './lists-view';

// The data grid's module, replaced: what matters is whether it is imported at all.
const imported = vi.hoisted(() => ({ grid: 0 }));
vi.mock('../../../src/components/entity/GridView', () => {
  imported.grid += 1;
  return { default: () => null };
});

width.narrow = true;

const LISTS = {
  territory: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true },
    { id: 2, fr: 'Béni', en: 'Beni', active: true },
  ],
};

const ROWS = [
  { sp_Id: '0190a0a0-0000-7000-8000-000000000001', sp_Name: 'Centre Espoir', sp_type: 1, territory: 2, syncState: 'synced' },
  { sp_Id: '0190a0a0-0000-7000-8000-000000000002', sp_Name: 'Avocats sans frontières', sp_type: 3, territory: 1, syncState: 'pending' },
];

const loader = (rows: Record<string, unknown>[] = ROWS) => pagedLoader(rows, 25);

const mounted = viewOverLists(LISTS);

const open = (props: GridProps, lang: Lang = 'en') => openGrid(mounted, props, lang);

const rowsOf = (container: HTMLElement) => Array.from(container.querySelectorAll<HTMLElement>('[role="row"][data-id]'));

beforeEach(() => {
  width.narrow = true;
  imported.grid = 0;
  window.matchMedia = mediaQueryList;
});

describe('EntityGrid on a phone', () => {
  it('reads the narrow width as the theme does', () => {
    expect(createTheme().breakpoints.down('sm')).toBe(`@media ${NARROW_QUERY}`);
  });

  it('draws the compact columns with the phone list, never importing the data grid', async () => {
    const { container } = await open({ load: loader() });
    const grid = container.querySelector('[role="grid"]');
    expect(grid?.getAttribute('aria-label')).toBe('Service provider');
    expect(grid?.getAttribute('aria-rowcount')).toBe('3');
    expect(Array.from(container.querySelectorAll('[role="columnheader"]')).map((cell) => cell.textContent)).toEqual(['Name', 'Type']);
    const rows = rowsOf(container);
    expect(rows.map((row) => Array.from(row.querySelectorAll('[role="gridcell"]')).map((cell) => cell.textContent))).toEqual([
      ['Centre Espoir', 'Social'],
      ['Avocats sans frontièresnot uploaded', 'Legal'],
    ]);
    expect(rows[1]?.querySelector('[data-testid="not-uploaded"]')).not.toBeNull();
    expect(container.querySelector('.MuiDataGrid-root')).toBeNull();
    await preloadListView();
    expect(imported.grid).toBe(0);
  });

  it('keeps the columns the screen chose for a phone', async () => {
    const { container } = await open({ load: loader(), compactColumns: ['sp_Name', 'territory'] });
    expect(Array.from(container.querySelectorAll('[role="columnheader"]')).map((cell) => cell.textContent)).toEqual(['Name', 'Territory']);
  });

  it('sorts by a tap on a header, ascending then descending', async () => {
    const load = loader();
    const { container } = await open({ load });
    const header = () => container.querySelector('[role="columnheader"]') as HTMLElement;
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    await click(header().querySelector('button') as HTMLElement);
    await wait(10);
    expect(load).toHaveBeenLastCalledWith({ sort: 'sp_Name', dir: 'desc', page: 1, pageSize: 25 });
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(nextSort([{ field: 'sp_Name', sort: 'desc' }], 'sp_Name')).toEqual([{ field: 'sp_Name', sort: 'asc' }]);
    expect(nextSort([{ field: 'sp_Name', sort: 'asc' }], 'sp_type')).toEqual([{ field: 'sp_type', sort: 'asc' }]);
  });

  it('opens a row on a click and on Enter, not from its buttons', async () => {
    const onRowClick = vi.fn();
    const onButton = vi.fn();
    const customColumns: Record<string, CustomColumn> = {
      act: {
        header: 'Do',
        actions: true,
        width: 80,
        render: (row) => createElement('button', { type: 'button', onClick: () => onButton(row.sp_Name) }, 'Go'),
      },
    };
    const { container } = await open({
      load: loader(),
      onRowClick,
      columns: ['sp_Name', 'act'],
      customColumns,
      compactColumns: ['sp_Name', 'act'],
    });
    const [first, second] = rowsOf(container);
    expect(first?.tabIndex).toBe(0);
    expect(second?.tabIndex).toBe(-1);
    await click(first?.querySelector('[role="gridcell"]') as HTMLElement);
    expect(onRowClick).toHaveBeenCalledTimes(1);
    expect(onRowClick.mock.calls[0]?.[0]).toMatchObject({ sp_Name: 'Centre Espoir' });
    await click(second?.querySelector('button') as HTMLElement);
    expect(onButton).toHaveBeenCalledWith('Avocats sans frontières');
    expect(onRowClick).toHaveBeenCalledTimes(1);
    second?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(onRowClick).toHaveBeenCalledTimes(2);
    expect(onRowClick.mock.calls[1]?.[0]).toMatchObject({ sp_Name: 'Avocats sans frontières' });
  });

  it('says when there is nothing, and pages in French', async () => {
    const { container } = await open({ load: loader([]), emptyText: 'Nothing here' });
    expect(container.querySelector('[role="gridcell"]')?.textContent).toBe('Nothing here');
    await mounted.view?.unmount();
    const french = await open({ load: loader() }, 'fr');
    expect(french.container.textContent).toContain('1–2 sur 2');
    expect(french.container.querySelector('[aria-label="Aller à la page suivante"]')).not.toBeNull();
    await mounted.view?.unmount();
    const empty = await open({ load: loader([]) }, 'fr');
    expect(empty.container.querySelector('[role="gridcell"]')?.textContent).toBe('Pas de résultats');
  });

  it('says "more than" the count the server stopped at, in both languages, with the next page open', async () => {
    const bounded = pagedLoader(ROWS, 25, { total: () => 10_000, totalIsLowerBound: true });
    const english = await open({ load: bounded });
    expect(english.container.textContent).toContain('1–25 of more than 10,000');
    expect(english.container.querySelector('[aria-label="Go to next page"]')?.hasAttribute('disabled')).toBe(false);
    await mounted.view?.unmount();
    const french = await open({ load: bounded }, 'fr');
    expect(french.container.textContent).toContain('1–25 sur plus de 10\u202f000');
  });

  it('draws the data grid on a wide screen', async () => {
    width.narrow = false;
    await open({ load: loader() });
    for (let waited = 0; imported.grid === 0 && waited < 5_000; waited += 20) await wait(20);
    expect(imported.grid).toBe(1);
  });
});
