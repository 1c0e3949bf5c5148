// The store of this page, shared through React context (opened by DbProvider).
import { createContext, useContext } from 'react';
import type { IcrsDatabase } from '../store';

export type DbState =
  | { status: 'loading'; db: null; error: null }
  | { status: 'ready'; db: IcrsDatabase; error: null }
  | { status: 'error'; db: null; error: Error };

export const LOADING: DbState = { status: 'loading', db: null, error: null };

export const DbContext = createContext<DbState>(LOADING);

/** The store as a promise from the provider's first render (settled when it opens or fails):
 * what a list screen's data layer waits on while its first request is already out. */
export const DbOpeningContext = createContext<Promise<IcrsDatabase> | null>(null);

/** Loading, ready with the store, or the error that kept it closed (no IndexedDB, quota…). */
export function useDbState(): DbState {
  return useContext(DbContext);
}

/** The open store, or null while it opens or when it cannot be opened. */
export function useDb(): IcrsDatabase | null {
  return useContext(DbContext).db;
}
