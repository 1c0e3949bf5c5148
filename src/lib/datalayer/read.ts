// Reads. Online a list "pulls a fresh page" (design.md §6): the API's page is written into
// RxDB as `synced` and answered from RxDB, so the screen shows the same documents its live
// queries see, and a local `pending` version wins over the server's. Offline: RxDB alone.
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { hasRowApi, type Ctx } from './context';
import { docsInOrder, isPending, keyOf, plain, writeSynced, type DocData } from './docs';
import { count$Of, countOf, mangoOf, pageOf, selectorOf, sortOf } from './query';
import { getPage, getRow, isNetworkError } from './remote';
import type { ListQuery, ListResult } from './types';

type AnyQuery = MangoQuery<Record<string, unknown>>;

async function listLocal(ctx: Ctx, entity: EntityShape, query: ListQuery): Promise<ListResult<DocData>> {
  const collection = ctx.collection(entity);
  const mango = mangoOf(entity, query);
  const docs = await collection.find(mango).exec();
  const total = await countOf(collection, mango.selector ?? {});
  return { rows: docs.map(plain), total, ...pageOf(query) };
}

/** Records created on this device and not uploaded yet that match the query: the server does
 * not know them, but the worker who saved them must see them in the list (issue 11). */
async function localOnly(ctx: Ctx, entity: EntityShape, query: ListQuery): Promise<DocData[]> {
  const selector = { ...selectorOf(entity, query), syncState: 'pending', syncOp: 'create' };
  const docs = await ctx.collection(entity).find({ selector, sort: sortOf(entity, query) }).exec();
  return docs.map(plain);
}

/** The server's page, with this device's records not uploaded yet on top of the first page
 * (and in the total), marked by their pending state. */
async function listRemote(ctx: Ctx, entity: EntityShape, query: ListQuery): Promise<ListResult<DocData>> {
  const page = await getPage(ctx.http, entity, query);
  const keys = await writeSynced(ctx.db, entity, page.rows);
  const rows = await docsInOrder(ctx.collection(entity), keys);
  const waiting = (await localOnly(ctx, entity, query)).filter((doc) => !keys.includes(keyOf(entity, doc)));
  const shown = page.page === 1 ? [...waiting, ...rows] : rows;
  return { rows: shown, total: page.total + waiting.length, page: page.page, pageSize: page.pageSize };
}

/** Entities without a list endpoint (profile sub-records, images) list what the device holds. */
export async function list(ctx: Ctx, entity: EntityShape, query: ListQuery = {}): Promise<ListResult<DocData>> {
  if (!ctx.isOnline() || !entity.list || !hasRowApi(entity)) return listLocal(ctx, entity, query);
  try {
    return await listRemote(ctx, entity, query);
  } catch (error) {
    if (isNetworkError(error)) return listLocal(ctx, entity, query);
    throw error;
  }
}

async function getRemote(ctx: Ctx, entity: EntityShape, key: string): Promise<DocData | null> {
  const collection = ctx.collection(entity);
  const row = await getRow(ctx.http, entity, key);
  if (!row) {
    // Gone from the server (deleted): the synced copy goes too.
    await (await collection.findOne(key).exec())?.remove();
    return null;
  }
  await writeSynced(ctx.db, entity, [row]);
  const doc = await collection.findOne(key).exec();
  return doc ? plain(doc) : null;
}

/** The record by key. A pending local copy is answered as it is: it is the newest version. */
export async function get(ctx: Ctx, entity: EntityShape, key: string): Promise<DocData | null> {
  const local = await ctx.collection(entity).findOne(key).exec();
  if (!ctx.isOnline() || isPending(local) || !hasRowApi(entity)) return local ? plain(local) : null;
  try {
    return await getRemote(ctx, entity, key);
  } catch (error) {
    if (isNetworkError(error)) return local ? plain(local) : null;
    throw error;
  }
}

export function observe(ctx: Ctx, entity: EntityShape, query: AnyQuery = {}): Observable<DocData[]> {
  return ctx.collection(entity).find(query).$.pipe(map((docs: Parameters<typeof plain>[0][]) => docs.map(plain)));
}

export function count$(ctx: Ctx, entity: EntityShape, selector: MangoQuerySelector<Record<string, unknown>> = {}): Observable<number> {
  return count$Of(ctx.collection(entity), selector);
}
