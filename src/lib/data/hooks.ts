// React hooks over the data layer. Live queries subscribe to RxDB observables (rxjs) and are
// keyed by the query's content, so callers may pass inline objects without re-subscribing on
// every render (RxDB's own React hooks need a memoised query object for the same reason).
import { useContext, useEffect, useMemo, useState } from 'react';
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import type { Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { api } from '../http';
import { createDataLayer } from './datalayer';
import { getCachedLists } from './lists';
import type { DataLayer, Doc } from './types';
import { appIsOnline, getUser } from '../session';
import { DbOpeningContext, useDb, useDbState } from './dbContext';

/** The data layer of the page's store (null until it is open). User and lists are read from
 * storage at each call, so a login or a lists refresh needs no new layer. */
export function useDataLayer(): DataLayer | null {
  const db = useDb();
  return useMemo(() => (db ? createDataLayer({ db, http: api, isOnline: appIsOnline, user: getUser, lists: getCachedLists }) : null), [db]);
}

/** The data layer at once, while the store still opens (a full page load of a list screen):
 * its calls wait for the store, except an online list's request, which leaves at once
 * (`listPages`). Null when the store could not be opened, or outside a DbProvider. */
export function useOpeningDataLayer(): DataLayer | null {
  const opening = useContext(DbOpeningContext);
  const failed = useDbState().status === 'error';
  const layer = useMemo(
    () =>
      opening
        ? createDataLayer({
            db: opening.db,
            collection: opening.collection,
            http: api,
            isOnline: appIsOnline,
            user: getUser,
            lists: getCachedLists,
          })
        : null,
    [opening],
  );
  return failed ? null : layer;
}

export interface LiveQuery<T> {
  docs: T;
  loading: boolean;
  error: Error | null;
}

interface Seen<T> {
  key: string;
  value: T;
  error: Error | null;
}

/** The latest value of `source` (rebuilt when `key` changes); `initial` until it emits. */
function useObservable<T>(key: string, initial: T, source: () => Observable<T> | null): LiveQuery<T> {
  const [seen, setSeen] = useState<Seen<T> | null>(null);
  useEffect(() => {
    const subscription = source()?.subscribe({
      next: (value) => setSeen({ key, value, error: null }),
      error: (error: unknown) => setSeen({ key, value: initial, error: error instanceof Error ? error : new Error(String(error)) }),
    });
    return () => subscription?.unsubscribe();
    // `source` and `initial` are new each render; `key` names what they produce.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!seen || seen.key !== key) return { docs: initial, loading: true, error: null };
  return { docs: seen.value, loading: false, error: seen.error };
}

const EMPTY: never[] = [];

/** Live documents of `entity` matching a mango query (selector, sort, skip, limit). */
export function useLiveQuery<E extends EntityShape>(entity: E, query: MangoQuery<Doc<E>> = {}): LiveQuery<Doc<E>[]> {
  const data = useDataLayer();
  const text = JSON.stringify(query);
  const key = `${data ? 'ready' : 'closed'}|${entity.table}|${text}`;
  // A copy parsed from the key: what the subscription sees is exactly what the key names.
  return useObservable<Doc<E>[]>(key, EMPTY, () => data?.observe(entity, JSON.parse(text) as MangoQuery<Doc<E>>) ?? null);
}

/** Live number of documents of `entity` matching `selector` (tiles, badges). */
export function useLiveCount<E extends EntityShape>(entity: E, selector: MangoQuerySelector<Doc<E>> = {}): LiveQuery<number> {
  const data = useDataLayer();
  const text = JSON.stringify(selector);
  const key = `${data ? 'ready' : 'closed'}|${entity.table}|${text}`;
  return useObservable<number>(key, 0, () => data?.count$(entity, JSON.parse(text) as MangoQuerySelector<Doc<E>>) ?? null);
}
