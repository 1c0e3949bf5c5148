// The store of this page, shared through React context (opened by DbProvider).
import { createContext, useContext } from 'react';
import type { EntityShape } from '../../../schemas/define';
import type { IcrsCollection, IcrsDatabase } from '../store';

export type DbState =
  | { status: 'loading'; db: null; error: null }
  | { status: 'ready'; db: IcrsDatabase; error: null }
  | { status: 'error'; db: null; error: Error };

export const LOADING: DbState = { status: 'loading', db: null, error: null };

export const DbContext = createContext<DbState>(LOADING);

/** The store while it opens: `db` settles when it is open or failed; `collection` gives one
 * collection as soon as the opening has set it up, before the others (a first screen's). */
export interface StoreOpening {
  db: Promise<IcrsDatabase>;
  collection: (entity: EntityShape) => Promise<IcrsCollection>;
}

/** The store's opening from the provider's first render: what a list screen's data layer waits
 * on while its first request is already out. */
export const DbOpeningContext = createContext<StoreOpening | null>(null);

/** Loading, ready with the store, or the error that kept it closed (no IndexedDB, quota…). */
export function useDbState(): DbState {
  return useContext(DbContext);
}

/** The open store, or null while it opens or when it cannot be opened. */
export function useDb(): IcrsDatabase | null {
  return useContext(DbContext).db;
}
