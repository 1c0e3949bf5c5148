// A list page read from the store alone (offline, or without a network), and an offline list's
// first page read ahead: on a page load of a list's address offline, the store opens as soon as
// the vault has (App.tsx startModules) and its first page is read at once, so that the grid draws
// its rows in its first render, as an online list draws the server's page asked ahead
// (prefetch.ts; docs/adr/0035-performance.md "Offline, the store opens as soon as the vault has").
import type { EntityShape } from '../../../schemas/define';
import { warmOpened, type IcrsCollection } from '../store';
import { whenIdle } from '../util';
import { plain, type DocData } from './docs';
import { countOf, mangoOf, pageOf } from './query';
import { PREFETCH_MAX_AGE_MS } from './prefetch';
import type { ListQuery, ListResult } from './types';

/** The longest a list's store waits for an idle moment before it opens its documents ahead. */
const WARM_MAX_WAIT_MS = 2_000;

/** `query`'s page of `entity` from its collection in the store. */
export async function listLocal(
  collection: IcrsCollection,
  entity: EntityShape,
  query: ListQuery,
  { warm = true }: { warm?: boolean } = {},
): Promise<ListResult<DocData>> {
  const mango = mangoOf(entity, query);
  const docs = await collection.find(mango).exec();
  const total = await countOf(collection, mango.selector ?? {});
  // A list with a search asks for its records opened while its first page is looked at: the
  // search, filter or sort that follows then finds them so (warmCache.ts; sealed client data).
  if (warm && entity.list?.search.length)
    whenIdle(
      () => void warmOpened(collection).catch((error: unknown) => console.warn('The list could not open its records ahead:', error)),
      WARM_MAX_WAIT_MS,
    );
  return { rows: docs.map(plain), total, ...pageOf(query) };
}

const ahead = new Map<string, ListResult<DocData>>();

const aheadKey = (entity: EntityShape, query: ListQuery) => `${entity.table}|${JSON.stringify(query)}`;

/** Reads `query`'s page of `entity` from its collection now (as soon as the store's opening has
 * set it up), for the grid's first render to take.
 * Kept PREFETCH_MAX_AGE_MS at most: a screen opened later asks the store afresh. It opens no
 * records ahead: read at the page's start, their opening (every sealed client) would share the
 * main thread with the first render; the grid's own read after it asks for them. */
export async function readFirstPageAhead(collection: IcrsCollection, entity: EntityShape, query: ListQuery): Promise<void> {
  const key = aheadKey(entity, query);
  const page = await listLocal(collection, entity, query, { warm: false });
  ahead.set(key, page);
  setTimeout(() => ahead.get(key) === page && ahead.delete(key), PREFETCH_MAX_AGE_MS);
}

/** The page read ahead for exactly this query, once; else undefined. The grid still asks the
 * store as usual after its first render, which replaces it with the current page. */
export function takeFirstPageAhead(entity: EntityShape, query: ListQuery): ListResult<DocData> | undefined {
  const key = aheadKey(entity, query);
  const page = ahead.get(key);
  ahead.delete(key);
  return page;
}
