// Reads and writes of the `lists` table. Item ids are stable (records store them), so an
// edit may add or deactivate items but never drop or renumber one.
import type { FastifyRequest } from 'fastify';
import type { LookupItem } from '../../../schemas/index';
import { list as listEntity } from '../../../schemas/index';
import type { Queryable, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { selectList } from '../../lib/records';
import { fieldError } from '../../lib/errors';

/** An item as stored: territories also carry their centre. */
export type Item = LookupItem;
export type NewItem = Omit<Item, 'id' | 'active'>;
export type ListRow = Row & { id: string; key: string; items: Item[]; updatedAt: Date | string };

export async function allLists(db: Queryable): Promise<ListRow[]> {
  return db.query<ListRow>(`SELECT ${selectList(listEntity)} FROM "lists" ORDER BY "key"`);
}

/** The list, locked until the transaction ends, so two edits cannot both build on it. */
export async function lockList(tx: Queryable, id: string): Promise<ListRow> {
  const [row] = await tx.query<ListRow>(`SELECT ${selectList(listEntity)} FROM "lists" WHERE "id" = $1 FOR UPDATE`, [id]);
  if (!row) throw new HttpError(404, 'http.recordNotFound');
  return row;
}

/** 400 when a replacement repeats an id or leaves out an existing one. */
export function checkReplacement(request: FastifyRequest, current: readonly Item[], next: readonly Item[]): void {
  const seen = new Set<number>();
  for (const { id } of next) {
    if (seen.has(id)) throw fieldError(request, 'items', 'lists.duplicateItemId', { id });
    seen.add(id);
  }
  const missing = current.map((item) => item.id).filter((id) => !seen.has(id));
  if (missing.length) throw fieldError(request, 'items', 'lists.itemRemoved', { ids: missing.join(', ') });
}

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** 409 'duplicate entry' when a new item repeats a label or an abbreviation of the list
 * (deactivated items included: reactivate those instead of adding them again). */
export function checkNewItem(request: FastifyRequest, current: readonly Item[], item: NewItem): void {
  for (const field of ['fr', 'en', 'abbr'] as const) {
    if (current.some((existing) => same(existing[field], item[field]))) {
      throw fieldError(request, field, 'http.duplicate', {}, 409);
    }
  }
}

/** The next item id: one more than the highest, so ids are never reused. */
export function withNewItem(current: readonly Item[], item: NewItem): Item[] {
  const id = current.reduce((max, existing) => Math.max(max, existing.id), 0) + 1;
  return [...current, { id, ...item, active: true }];
}
