import { useCallback, useContext, useMemo } from 'react';
import { api } from '../api';
import { createDataLayer } from '../datalayer/datalayer';
import { getCachedLists } from '../datalayer/lists';
import type { DataLayer } from '../datalayer/types';
import { getUser } from '../session';
import { STORE_OPEN_BOUND_MS, StoreTimeoutError, withinBound } from './bounds';
import type { IcrsDatabase } from './collections';
import { DbOpeningContext, useDb } from './context';
import { appIsOnline } from './online';

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

/** What a form's save needs: the data layer and the device-only one, at once when the store is
 * open, else once it opens (within STORE_OPEN_BOUND_MS). A save pressed before the store opened
 * waits for it under the form's "Saving…", the same in every form, never an error. */
export function useSaveLayers(): () => Promise<SaveLayers> {
  const db = useDb();
  const opening = useContext(DbOpeningContext);
  return useCallback(async () => {
    const store = db ?? (opening ? await withinBound(opening, STORE_OPEN_BOUND_MS, 'open') : null);
    if (!store) throw new StoreTimeoutError('open', 0);
    return {
      data: createDataLayer({ db: store, http: api, isOnline: appIsOnline, user: getUser, lists: getCachedLists }),
      local: localLayer(store),
    };
  }, [db, opening]);
}
