// @vitest-environment jsdom
// The lists page's controllers without their views: the list chosen and searched, a whole-list
// save and its conflict (someone else changed the list: it is read again and the page says so),
// and the item dialog's checks, made as the server makes them, in the user's language.
import { act, createElement, type ReactNode } from 'react';
import { AxiosError, AxiosHeaders } from 'axios';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListRow } from '../../../src/features/lists/listsApi';
import { useItemDialog, type ItemDialogInput } from '../../../src/features/lists/useItemDialog';
import { useListsPage } from '../../../src/features/lists/useListsPage';
import { renderHook, wait, type Lang } from './render';

const api = vi.hoisted(() => ({ fetchLists: vi.fn(), fetchUsage: vi.fn(), saveItems: vi.fn(), addItem: vi.fn() }));
vi.mock('../../../src/features/lists/listsApi', async (actual) => ({ ...(await actual<object>()), ...api }));
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('../../../src/lib/ui/notify', () => ({ notify: toast }));

const territory: ListRow = {
  id: 'l1',
  key: 'territory',
  updatedAt: '2026-01-01T00:00:00.000Z',
  items: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true },
    { id: 2, fr: 'Béni', en: 'Beni', active: true },
    { id: 3, fr: 'Uvira', en: 'Uvira', active: false },
  ],
};
const organisation: ListRow = { id: 'l2', key: 'organisation', updatedAt: '2026-01-01T00:00:00.000Z', items: [] };

const Router = ({ children }: { children: ReactNode }) =>
  createElement(MemoryRouter, { initialEntries: ['/lists?list=territory'] }, children);

const cleanups: (() => Promise<void>)[] = [];

async function openPage(only?: string) {
  const hook = await renderHook(useListsPage, { initialProps: only, wrapper: Router });
  cleanups.push(hook.unmount);
  await wait();
  return hook.result;
}

async function openDialog(input: Partial<ItemDialogInput>, lang: Lang = 'en') {
  const props: ItemDialogInput = { listKey: 'territory', others: territory.items, onSave: vi.fn(async () => undefined), ...input };
  const hook = await renderHook(useItemDialog, { initialProps: props, lang });
  cleanups.push(hook.unmount);
  return { dialog: hook.result, onSave: props.onSave };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify({ userId: 'u1', userName: 'admin', role: 1, location: 1 }));
  api.fetchLists.mockResolvedValue([territory, organisation]);
  api.fetchUsage.mockResolvedValue({ known: true, items: { '1': 4 } });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.clearAllMocks();
});

describe('the lists page controller', () => {
  it('shows the list in the address, without the organisations, with its item counts', async () => {
    const page = await openPage();
    expect(page.current.list?.key).toBe('territory');
    expect(page.current.sortedLists.map((l) => l.key)).toEqual(['territory']);
    expect(page.current.editable).toBe(true);
    expect(page.current.usage?.items['1']).toBe(4);
  });

  it('keeps the organisations for their own screen', async () => {
    const page = await openPage('organisation');
    expect(page.current.list?.key).toBe('organisation');
  });

  it('is read-only for a role that may not change the lists', async () => {
    localStorage.setItem('user', JSON.stringify({ userId: 'u2', userName: 'worker', role: 3, location: 1 }));
    const page = await openPage();
    expect(page.current.editable).toBe(false);
    expect(api.fetchUsage).not.toHaveBeenCalled();
  });

  it('finds items by either label and keeps their place in the whole list', async () => {
    const page = await openPage();
    await act(async () => page.current.setSearch('beni'));
    expect(page.current.searching).toBe(true);
    expect(page.current.shown).toEqual([{ item: territory.items[1], index: 1 }]);
  });

  it('saves a move as the whole list in its new order', async () => {
    api.saveItems.mockImplementation(async (list: ListRow, items: ListRow['items']) => ({ ...list, items }));
    const page = await openPage();
    await act(async () => page.current.move(1, -1));
    expect(api.saveItems.mock.calls[0][1].map((i: { id: number }) => i.id)).toEqual([2, 1, 3]);
    expect(page.current.list?.items.map((i) => i.id)).toEqual([2, 1, 3]);
    expect(page.current.busy).toBe(false);
    expect(toast.success).toHaveBeenCalledWith('List saved', 'Beni');
  });

  it('reads the list again and says so when someone else changed it', async () => {
    const refused = new AxiosError('conflict', 'ERR_BAD_REQUEST', undefined, undefined, {
      status: 409,
      statusText: 'Conflict',
      data: { code: 'http.conflict' },
      headers: {},
      config: { headers: new AxiosHeaders() },
    });
    api.saveItems.mockRejectedValue(refused);
    const page = await openPage();
    await act(async () => page.current.toggle(territory.items[0]));
    expect(page.current.conflict).toBe(true);
    expect(api.fetchLists).toHaveBeenCalledTimes(2);
    await act(async () => page.current.dismissConflict());
    expect(page.current.conflict).toBe(false);
  });

  it('adds an item from the dialog and closes it', async () => {
    api.addItem.mockResolvedValue({ ...territory, items: [...territory.items, { id: 4, fr: 'Bunia', en: 'Bunia', active: true }] });
    const page = await openPage();
    await act(async () => page.current.openAdd());
    expect(page.current.editing).toEqual({});
    await act(async () => page.current.saveDialog({ fr: 'Bunia', en: 'Bunia', active: true }));
    expect(api.addItem).toHaveBeenCalledWith(territory, { fr: 'Bunia', en: 'Bunia' });
    expect(page.current.editing).toBeNull();
    expect(page.current.list?.items).toHaveLength(4);
  });
});

describe('the item dialog controller', () => {
  it('says nothing before a save is tried, then what is missing, and saves nothing', async () => {
    const { dialog, onSave } = await openDialog({});
    expect(dialog.current.shown('fr')).toBeUndefined();
    await act(async () => dialog.current.submit());
    expect(dialog.current.shown('fr')).toBe('French label is required');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('refuses a label another item has, whatever its case, in French too', async () => {
    const { dialog } = await openDialog({}, 'fr');
    await act(async () => dialog.current.set('en', 'GOMA'));
    await act(async () => dialog.current.submit());
    expect(dialog.current.shown('en')).toMatch(/déjà/);
  });

  it('writes an abbreviation in capitals and keeps one already given', async () => {
    const { dialog } = await openDialog({
      listKey: 'organisation',
      others: [],
      item: { id: 9, fr: 'Org', en: 'Org', abbr: 'ORG', active: true },
    });
    expect(dialog.current.withAbbr).toBe(true);
    expect(dialog.current.abbrLocked).toBe(true);
    await act(async () => dialog.current.set('abbr', 'abc1'));
    expect(dialog.current.values.abbr).toBe('ABC1');
  });

  it('saves trimmed labels with the category of a service type', async () => {
    const { dialog, onSave } = await openDialog({
      listKey: 'serviceType',
      others: [],
      parents: [{ id: 5, fr: 'Santé', en: 'Health', active: true }],
    });
    await act(async () => dialog.current.set('fr', '  Vaccins '));
    await act(async () => dialog.current.set('en', 'Vaccines'));
    await act(async () => dialog.current.submit());
    expect(dialog.current.shown('parent')).toBe('Category is required');
    await act(async () => dialog.current.set('parent', '5'));
    await act(async () => dialog.current.submit());
    expect(onSave).toHaveBeenCalledWith({ fr: 'Vaccins', en: 'Vaccines', parent: 5, active: true });
  });

  it('shows the server’s word when the save is refused, and lets the user try again', async () => {
    const { dialog } = await openDialog({ onSave: vi.fn(async () => Promise.reject(new Error('Label taken on the server'))) });
    await act(async () => dialog.current.set('fr', 'Bunia'));
    await act(async () => dialog.current.set('en', 'Bunia'));
    await act(async () => dialog.current.submit());
    expect(dialog.current.failure).toBe('Label taken on the server');
    expect(dialog.current.saving).toBe(false);
  });
});
