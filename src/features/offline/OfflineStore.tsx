import { useEffect, type ReactNode } from 'react';
import { usePreferences } from '../../components';
import { api } from '../../lib/http';
import { DbProvider, refreshLists, useDataLayer, useDb } from '../../lib/data';
import { installDebugHandle } from './debugHandle';
import { watchQuotaErrors } from '../../lib/ui';
import { dropFormerMirror, useStoreSettled } from './storeSettle';
import { useReplication } from './replicationControl';

/** What runs beside the screens while the store is open: live pull, safety nets, checks. */
function StoreServices() {
  const db = useDb();
  const data = useDataLayer();
  const { mode } = usePreferences();
  const settled = useStoreSettled(db);
  useReplication(settled ? db : null, mode);
  useEffect(() => {
    // Forms work offline from the cached lookup lists (`lists` key): refresh them after sign-in
    // and whenever the app turns online again.
    if (mode === 'online') refreshLists(api).catch((error: unknown) => console.warn('Lookup lists not refreshed:', error));
  }, [mode]);
  useEffect(() => watchQuotaErrors(), []);
  useEffect(() => (db ? installDebugHandle(db, data) : undefined), [db, data]);
  return null;
}

/**
 * The signed-in app's local store (product.md §D6): `icrs_db` opened once per page load (login and
 * logout both reload), pull replication and the lookup lists refreshed while online, the quota
 * watcher, the support handle and the switch-user check.
 */
export function SignedInStore({ children }: { children: ReactNode }) {
  return (
    <DbProvider beforeReads={dropFormerMirror}>
      <StoreServices />
      {children}
    </DbProvider>
  );
}
