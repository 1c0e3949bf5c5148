// One provider for its page and its edit form: read through the data layer (the server's copy
// online, the device's offline; a copy not uploaded yet wins), then followed live in RxDB so an
// upload or a change pushed by the server shows without a reload.
import { useEffect, useState } from 'react';
import { serviceProvider } from '../../../schemas/index';
import { type Doc, useDataLayer, useLiveQuery } from '../../lib/data';

export type ProviderDoc = Doc<typeof serviceProvider>;

export type ProviderState =
  | { status: 'loading' }
  | { status: 'ready'; doc: ProviderDoc }
  /** Unknown or deleted on the server, or not on this device while offline. */
  | { status: 'missing' }
  | { status: 'error'; error: unknown };

interface Fetched {
  key: string;
  doc: ProviderDoc | null;
  error: unknown;
}

/** `version` reads the record again (after a conflict, the server's copy). */
export function useProvider(spId: string, version = 0): ProviderState {
  const data = useDataLayer();
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const key = `${spId}|${version}|${data ? 'ready' : 'closed'}`;
  const live = useLiveQuery(serviceProvider, { selector: { sp_Id: spId } });

  useEffect(() => {
    if (!data) return;
    let current = true;
    data.get(serviceProvider, spId).then(
      (doc) => current && setFetched({ key, doc, error: null }),
      (error: unknown) => current && setFetched({ key, doc: null, error }),
    );
    return () => {
      current = false;
    };
  }, [data, spId, key]);

  if (!fetched || fetched.key !== key) return { status: 'loading' };
  if (fetched.error !== null) return { status: 'error', error: fetched.error };
  const doc = live.docs[0] ?? (live.loading ? fetched.doc : null);
  return doc ? { status: 'ready', doc } : { status: 'missing' };
}
