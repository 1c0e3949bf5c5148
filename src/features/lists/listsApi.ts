// The lookup-list routes (product.md §7 "Lists"): every list with its items, a whole-list edit (order,
// labels, active flags) based on the version read, a new item, and how many records use each
// item. After each change the device's cached copy (`lists` key) is refreshed, so this device's
// forms follow at once; other devices hear it from the change stream.
import type { LookupItem } from '../../../schemas/index';
import { api } from '../../lib/http';
import { refreshLists } from '../../lib/data';

export type Item = LookupItem;

export interface ListRow {
  id: string;
  key: string;
  items: Item[];
  updatedAt: string;
}

export interface Usage {
  known: boolean;
  items: Record<string, number>;
}

export type NewItem = Pick<Item, 'fr' | 'en'> & Partial<Pick<Item, 'abbr' | 'parent'>>;

function refreshCache(): void {
  refreshLists(api).catch((error: unknown) => console.warn('Lookup lists not refreshed:', error));
}

export async function fetchLists(): Promise<ListRow[]> {
  const { data } = await api.get<ListRow[]>('/lists');
  return data;
}

export async function fetchUsage(listId: string): Promise<Usage> {
  const { data } = await api.get<Usage>(`/lists/${encodeURIComponent(listId)}/usage`, { silent: true });
  return data;
}

/** PUT /lists/{id} with the version the edit is based on (409 conflict when it changed). */
export async function saveItems(list: ListRow, items: Item[]): Promise<ListRow> {
  const { data } = await api.put<ListRow>(`/lists/${encodeURIComponent(list.id)}`, { items, updatedAt: list.updatedAt }, { silent: true });
  refreshCache();
  return data;
}

export async function addItem(list: ListRow, item: NewItem): Promise<ListRow> {
  const { data } = await api.post<ListRow>(`/lists/${encodeURIComponent(list.id)}`, item, { silent: true });
  refreshCache();
  return data;
}

/** Moves the item at `index` by `step` (-1 up, +1 down); the same list when it cannot move. */
export function moved(items: readonly Item[], index: number, step: -1 | 1): Item[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target] as Item, next[index] as Item];
  return next;
}
