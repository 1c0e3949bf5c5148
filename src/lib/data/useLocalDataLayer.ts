import { useCallback, useContext, useMemo } from 'react';
import { api } from '../http';
import { createDataLayer } from './datalayer';
import { getCachedLists } from './lists';
import type { DataLayer } from './types';
import { appIsOnline, getUser } from '../session';
import { type IcrsDatabase, SAVE_BOUND_MS, StoreTimeoutError, withinBound } from '../store';
import { DbOpeningContext, useDb } from './dbContext';

const localLayer = (db: IcrsDatabase) => createDataLayer({ db, http: api, isOnline: () => false, user: getUser, lists: getCachedLists });

/** A data layer that saves on this device only. The other jobs of a job that is itself still
 * waiting on this device must wait with it: sent now, the server would refuse them (no parent),
 * and the upload engine sends them right after their job (parent before child). */
export function useLocalDataLayer(): DataLayer | null {
  const db = useDb();
  return useMemo(() => (db ? localLayer(db) : null), [db]);
}

export interface SaveLayers {
  data: DataLayer;
  local: DataLayer;
}

/** A form's save: `work` with the data layer and the device-only one, at once when the store is
 * open, else once it opens. A save pressed before the store opened waits for it under the form's
 * "Saving…", the same in every form, never an error. Offline, the whole save, from the press to
 * its answer (the wait for the opening and the writes), has one bound, SAVE_BOUND_MS: past it the
 * save fails with StoreTimeoutError('write') and the form keeps its values. Online, only the wait
 * for the store is bounded so: the rest also waits on the network (the server's answer, a file's
 * upload), whose time is not the store's. */
export function useStoreSave(): <T>(work: (layers: SaveLayers) => Promise<T>) => Promise<T> {
  const db = useDb();
  const opening = useContext(DbOpeningContext);
  return useCallback(
    <T>(work: (layers: SaveLayers) => Promise<T>): Promise<T> => {
      const store = db ? Promise.resolve(db) : (opening?.db ?? Promise.reject(new StoreTimeoutError('open', 0)));
      const layersOf = (ready: IcrsDatabase): SaveLayers => ({
        data: createDataLayer({ db: ready, http: api, isOnline: appIsOnline, user: getUser, lists: getCachedLists }),
        local: localLayer(ready),
      });
      if (appIsOnline()) return withinBound(store, SAVE_BOUND_MS, 'open').then((ready) => work(layersOf(ready)));
      return withinBound(
        store.then((ready) => work(layersOf(ready))),
        SAVE_BOUND_MS,
        'write',
      );
    },
    [db, opening],
  );
}
