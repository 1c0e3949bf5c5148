// A list's first page asked before its screen is drawn (ADR-0035: first rows within 500 ms).
// The app asks it when the address becomes a list screen (a page load or a click in the menu),
// through the same remote call and the same query the grid will make; the grid's first
// `listPages` call then takes that answer instead of asking again (read.ts), and treats it
// exactly as its own: this device's pending records merged, the page written into the store.
// The organisation scope stays the server's: it is the same request with the same session.
import type { EntityShape } from '../../../schemas/define';
import { ALL_TABLES } from '../../../schemas/changeStream';
import { onServerChange } from '../util';
import { getPage, type Page } from '../http';
import type { HttpClient, ListQuery } from './types';

/** An answer not taken within this time is dropped: the grid asks afresh (a screen left and
 * opened again later must not show an old page). */
export const PREFETCH_MAX_AGE_MS = 10_000;

interface Prefetched {
  http: HttpClient;
  page: Promise<Page>;
  /** The answer, once it arrived. */
  answer?: Page;
  forget: () => void;
}

const waiting = new Map<string, Prefetched>();

function keyOf(entity: EntityShape, query: ListQuery): string {
  return `${entity.table}|${JSON.stringify(query)}`;
}

/**
 * Asks the server for `query`'s page of `entity` now, for the grid to take. Dropped, so that the
 * grid asks itself, when the change stream names the table (or every table) before the grid took
 * it (the answer may predate the change), or after PREFETCH_MAX_AGE_MS. Returns the answer.
 */
export function prefetchPage(http: HttpClient, entity: EntityShape, query: ListQuery): Promise<Page> {
  const key = keyOf(entity, query);
  waiting.get(key)?.forget();
  const page = getPage(http, entity, query);
  page.catch(() => undefined); // the grid that takes it reports a failure; no taker, no report
  const timer = setTimeout(() => forget(), PREFETCH_MAX_AGE_MS);
  const stopListening = onServerChange((table) => {
    if (table === ALL_TABLES || table === entity.table) forget();
  });
  const entry: Prefetched = { http, page, forget: () => forget() };
  void page.then(
    (answer) => (entry.answer = answer),
    () => undefined,
  );
  function forget(): void {
    clearTimeout(timer);
    stopListening();
    if (waiting.get(key) === entry) waiting.delete(key);
  }
  waiting.set(key, entry);
  return page;
}

function entryFor(http: HttpClient, entity: EntityShape, query: ListQuery): Prefetched | undefined {
  const entry = waiting.get(keyOf(entity, query));
  return entry?.http === http ? entry : undefined;
}

/** The answer to the page asked by `prefetchPage` for exactly this query through the same
 * client, when it has already arrived and was not taken yet (left for `takePrefetched`). */
export function peekPrefetched(http: HttpClient, entity: EntityShape, query: ListQuery): Page | undefined {
  return entryFor(http, entity, query)?.answer;
}

/** The page asked by `prefetchPage` for exactly this query through the same client, once; else
 * undefined (the caller asks the server itself). */
export function takePrefetched(http: HttpClient, entity: EntityShape, query: ListQuery): Promise<Page> | undefined {
  const entry = entryFor(http, entity, query);
  if (!entry) return undefined;
  entry.forget();
  return entry.page;
}
