// Reads. Online a list "pulls a fresh page" (product.md §D6): the API's page is shown with this
// device's `pending` versions in place of the server's and its records not uploaded yet on top,
// and written into RxDB as `synced` (never over a pending document), so that the device holds
// what it showed. Offline: RxDB alone.
//
// The page is asked at once, while the store may still be opening (a full page load of a list
// screen): the server's page does not need the store. When it arrives first it is shown as it
// is, then again with the device's pending records once the store is open (docs/performance.md
// "Lists in the browser", session 6).
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import { map, Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { getEntity } from '../../../schemas';
import { mirrorsByMembers } from '../../../schemas/scope';
import { OFFLINE_ENTITIES } from '../store';
import { hasRowApi, type Ctx, type Opening } from './context';
import { isPending, keyOf, plain, syncedDoc, writeSynced, type DocData, type WriteSyncedOptions } from './docs';
import { count$Of, selectorOf, sortOf } from './query';
import { peekPrefetched, takePrefetched } from './prefetch';
import { listLocal, takeFirstPageAhead } from './localList';
import { getPage, getRecord, isNetworkError, type Page } from '../http';
import type { ListQuery, ListResult, Values } from './types';

type AnyQuery = MangoQuery<Record<string, unknown>>;

/** What this device holds that a server page does not show: its records not uploaded yet
 * that match the query (the server does not know them, but the worker who saved them must see
 * them in the list, ADR-0028; one uploaded and not settled yet may be on the page too), and its
 * pending versions of every record edited here; by key, each shown in place of the server's. */
interface Pending {
  creates: DocData[];
  byKey: Map<string, DocData>;
}

async function pendingOf(ctx: Ctx, entity: EntityShape, query: ListQuery): Promise<Pending> {
  const collection = ctx.collection(entity);
  const selector = { ...selectorOf(entity, query), syncState: 'pending', syncOp: 'create' };
  // Edits are few (records changed offline); creates are read only as far as the query matches.
  const [creates, updates] = await Promise.all([
    collection.find({ selector, sort: sortOf(entity, query) }).exec(),
    collection.find({ selector: { syncState: 'pending', syncOp: 'update' } }).exec(),
  ]);
  const docs = [...creates, ...updates].map(plain);
  return { creates: docs.slice(0, creates.length), byKey: new Map(docs.map((doc) => [keyOf(entity, doc), doc])) };
}

/** Each answer's page as documents, made once: the page drawn from `firstPage` and the one
 * `listPages` shows next are the same object, so the grid has nothing new to draw. */
const serverPages = new WeakMap<Page, ListResult<DocData>>();

/** The server's page as documents, before the store was asked. */
function serverPage(entity: EntityShape, page: Page): ListResult<DocData> {
  let made = serverPages.get(page);
  if (!made) {
    made = { rows: page.rows.map((row) => syncedDoc(entity, row)), total: page.total, page: page.page, pageSize: page.pageSize };
    serverPages.set(page, made);
  }
  return made;
}

/** The server's page as this device shows it: a row it holds `pending` in its local version,
 * and its records not uploaded yet on top of the first page (and in the total), each key once. */
function withPending(entity: EntityShape, page: Page, pending: Pending): ListResult<DocData> {
  const server = serverPage(entity, page);
  const keys = new Set(server.rows.map((doc) => keyOf(entity, doc)));
  const rows = server.rows.map((doc) => pending.byKey.get(keyOf(entity, doc)) ?? doc);
  const waiting = pending.creates.filter((doc) => !keys.has(keyOf(entity, doc)));
  return { ...server, rows: page.page === 1 ? [...waiting, ...rows] : rows, total: page.total + waiting.length };
}

/** Entities without a list endpoint (profile sub-records, images) list what the device holds. */
function listsOnServer(opening: Opening, entity: EntityShape): boolean {
  return opening.isOnline() && entity.list !== undefined && hasRowApi(entity);
}

/** Online: the request leaves at once, and this device's pending records are read beside it
 * (as soon as the store is open), so an open store costs the page no round trip after the
 * answer. A store still opening when the answer comes: the server's page is shown first. */
async function listInto(opening: Opening, entity: EntityShape, query: ListQuery, show: (page: ListResult<DocData>) => void): Promise<void> {
  // Offline, the list's own collection is read as soon as it is set up (ADR-0035).
  if (!listsOnServer(opening, entity)) return show(await listLocal(await opening.collection(entity), entity, query));
  const pending = opening.ctx.then((ctx) => pendingOf(ctx, entity, query));
  pending.catch(() => undefined); // a failed store fails the page below, once
  let page: Page;
  try {
    // A page asked when the address became this list's (prefetch.ts) is this request, sent earlier.
    page = await (takePrefetched(opening.http, entity, query) ?? getPage(opening.http, entity, query));
  } catch (error) {
    if (isNetworkError(error)) return show(await listLocal(await opening.collection(entity), entity, query));
    throw error;
  }
  if (!opening.now()) show(serverPage(entity, page));
  show(withPending(entity, page, await pending));
  await writeSynced((await opening.ctx).db, entity, page.rows, readWrite(opening, entity));
}

/**
 * The page `listPages` would show first, when it is known already: the answer to the page asked
 * ahead (prefetch.ts) has arrived and the store is still opening (a full page load of a list's
 * address). A grid draws it in its first render, without a loading frame and a second render
 * (ADR-0035: first rows within 500 ms); `listPages` then shows the same page object, and the
 * page with this device's pending records once the store is open. Else undefined.
 */
export function firstPage(opening: Opening, entity: EntityShape, query: ListQuery): ListResult<DocData> | undefined {
  if (!listsOnServer(opening, entity)) return takeFirstPageAhead(entity, query);
  if (opening.now()) return undefined;
  const answer = peekPrefetched(opening.http, entity, query);
  return answer && serverPage(entity, answer);
}

/**
 * One list page as it becomes known: online, the server's page as soon as it arrives when the
 * store is still opening, then (or at once, when the store is open) the page with this device's
 * pending records; the page is written into the store after it was shown, and the observable
 * completes once it is. Offline, or without a network: the store's page.
 */
export function listPages(opening: Opening, entity: EntityShape, query: ListQuery = {}): Observable<ListResult<DocData>> {
  return new Observable<ListResult<DocData>>((subscriber) => {
    // An unsubscribed caller stops hearing, but the page is still written into the store.
    listInto(opening, entity, query, (page) => subscriber.next(page)).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
  });
}

async function getRemote(ctx: Ctx, entity: EntityShape, key: string): Promise<DocData | null> {
  const collection = ctx.collection(entity);
  const row = (await getRecord(ctx.http, entity, key)) ?? null;
  if (!row) {
    // Gone from the server (deleted): the synced copy goes too.
    await (await collection.findOne(key).exec())?.remove();
    return null;
  }
  await writeSynced(ctx.db, entity, [row], readWrite(ctx, entity));
  const doc = await collection.findOne(key).exec();
  // Not kept on this device (outside its caseload): the server's copy, as read.
  return doc ? plain(doc) : syncedDoc(entity, row);
}

/**
 * How a row read online is written on the device: a device mirroring `entity` by members (a
 * field worker's caseload and directory) only refreshes the rows it holds, since the server
 * tells it of its members' departures only: a client read online outside the caseload would
 * otherwise stay on the device for good (docs/offline-contract.md "The caseload").
 */
export function readWrite(remote: Pick<Ctx, 'user'>, entity: EntityShape): WriteSyncedOptions {
  const user = remote.user();
  return { heldOnly: user !== null && mirrorsByMembers(user, entity) };
}

/**
 * How the server's answer to a save made online is written on the device: as a row read online
 * (`readWrite`), except that a device mirroring by members also keeps what the save makes one of
 * its members: a new record at the top of its own (a client is assigned to whoever registers
 * them, an entry of the directory is kept by whoever registered it), and a record of a member it
 * holds (a new social record of a client on the device). A colleague's client edited online, or
 * given a record, stays on the server (docs/offline-contract.md "The caseload").
 */
export async function answerWrite(ctx: Ctx, entity: EntityShape, row: Values, created: boolean): Promise<WriteSyncedOptions> {
  if (!readWrite(ctx, entity).heldOnly) return { replacePending: true };
  const parent = entity.parent ? getEntity(entity.parent.entity) : undefined;
  const parentKey = entity.parent ? row[entity.parent.field] : undefined;
  const ofMember =
    parent && OFFLINE_ENTITIES.includes(parent)
      ? parentKey !== undefined && parentKey !== null && (await ctx.collection(parent).findOne(String(parentKey)).exec()) !== null
      : created;
  return { replacePending: true, heldOnly: !ofMember };
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
  return ctx
    .collection(entity)
    .find(query)
    .$.pipe(map((docs: Parameters<typeof plain>[0][]) => docs.map(plain)));
}

export function count$(ctx: Ctx, entity: EntityShape, selector: MangoQuerySelector<Record<string, unknown>> = {}): Observable<number> {
  return count$Of(ctx.collection(entity), selector);
}
