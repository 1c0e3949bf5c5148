// One record for a page: read once through the data layer (online it refreshes the local copy
// from the API; offline it is the local copy), then followed live in RxDB, so an edit, an
// upload or a change pushed by the server shows without a reload. A record the device does not
// keep (a client outside a field worker's caseload, read online: docs/offline-contract.md "The
// caseload") is shown as the server served it, until the store holds it (kept on the device).
import { useEffect, useState } from 'react';
import type { MangoQuery } from 'rxdb';
import type { EntityShape } from '../../../schemas/define';
import type { Doc } from './types';
import { useDataLayer, useLiveQuery } from './hooks';

export type RecordState<E extends EntityShape> =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed'; error: unknown; retry: () => void }
  | { status: 'ready'; doc: Doc<E> };

interface Fetched {
  key: string;
  found: boolean;
  /** The record as read (the server's copy online). */
  doc: unknown;
  error: unknown;
}

export function useRecord<E extends EntityShape>(entity: E, key: string | undefined): RecordState<E> {
  const data = useDataLayer();
  const [attempt, setAttempt] = useState(0);
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const id = `${key ?? ''}|${attempt}`;
  useEffect(() => {
    if (!data || !key) return undefined;
    let current = true;
    data.get(entity, key).then(
      (doc) => current && setFetched({ key: id, found: doc !== null, doc, error: null }),
      (error: unknown) => current && setFetched({ key: id, found: false, doc: null, error }),
    );
    return () => {
      current = false;
    };
  }, [data, entity, key, id]);
  const keyField = entity.keyFields[0] as string;
  // The selector names the key field at run time, which the typed query cannot express.
  const live = useLiveQuery(entity, { selector: { [keyField]: key ?? '' } } as MangoQuery<Doc<E>>);
  // Whether the store has held this record since it was read: then only the store's copy counts.
  const [heldFor, setHeldFor] = useState<string | null>(null);
  const held = live.docs.length > 0;
  if (held && heldFor !== id) setHeldFor(id); // adjusted while rendering, as React advises
  if (!key) return { status: 'missing' };
  if (!fetched || fetched.key !== id || live.loading) return { status: 'loading' };
  if (fetched.error !== null) return { status: 'failed', error: fetched.error, retry: () => setAttempt((n) => n + 1) };
  const doc = live.docs[0] ?? (heldFor === id ? undefined : (fetched.doc as Doc<E> | null));
  // Held, then gone from the store: deleted here or by the server (pushed over the live stream).
  return doc ? { status: 'ready', doc } : { status: 'missing' };
}
