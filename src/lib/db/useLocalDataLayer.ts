import { useMemo } from 'react';
import { api } from '../api';
import { createDataLayer } from '../datalayer/datalayer';
import { getCachedLists } from '../datalayer/lists';
import type { DataLayer } from '../datalayer/types';
import { getUser } from '../session';
import { useDb } from './context';

/** A data layer that saves on this device only. The other jobs of a job that is itself still
 * waiting on this device must wait with it: sent now, the server would refuse them (no parent),
 * and the upload engine sends them right after their job (parent before child). */
export function useLocalDataLayer(): DataLayer | null {
  const db = useDb();
  return useMemo(() => (db ? createDataLayer({ db, http: api, isOnline: () => false, user: getUser, lists: getCachedLists }) : null), [db]);
}
