// Reading a client for its page and its edit form: the profile and each one-per-client record
// through the data layer (online from the API, offline from the store), followed live in the
// store; the photo and documents from the server's list online and the store's copies.
import { useEffect, useMemo, useState } from 'react';
import { profileImage } from '../../../schemas/index';
import type { ExistingImage } from '../../components/images';
import { isRemovalPending, type RecordState, useDataLayer, useLiveQuery, useRecord } from '../../lib/data';
import { profile, SUB_RECORDS, type SubPart } from './steps';

export type SubRecordStates = { [P in SubPart]: RecordState<(typeof SUB_RECORDS)[P]> };

/** The profile and its four records (each may be missing: they are optional). */
export function useClient(profId: string) {
  const client = useRecord(profile, profId);
  const records: SubRecordStates = {
    skills: useRecord(SUB_RECORDS.skills, profId),
    social: useRecord(SUB_RECORDS.social, profId),
    security: useRecord(SUB_RECORDS.security, profId),
    business: useRecord(SUB_RECORDS.business, profId),
  };
  return { client, records };
}

export function recordsSettled(records: SubRecordStates): boolean {
  return Object.values(records).every((state) => state.status !== 'loading');
}

/** The stored copy of a record, or null when the client has none (or it could not be read). */
export function storedRecord(state: RecordState<never> | SubRecordStates[SubPart]): Record<string, unknown> | null {
  return state.status === 'ready' ? (state.doc as Record<string, unknown>) : null;
}

/** The client's photo and documents as the file slots show them: a copy waiting here (not
 * uploaded) or the server's, fetched when opened. `loading` until the server's list is read. */
export function useClientFiles(profId: string): { files: ExistingImage[]; loading: boolean } {
  const data = useDataLayer();
  const [read, setRead] = useState<string | null>(null);
  useEffect(() => {
    if (!data) return undefined;
    let current = true;
    const done = () => current && setRead(profId);
    data.listProfileFiles(profId).then(done, done);
    return () => {
      current = false;
    };
  }, [data, profId]);
  const live = useLiveQuery(profileImage, { selector: { prof_Id: profId } });
  const files = useMemo(
    () =>
      live.docs
        .filter((doc) => !isRemovalPending(doc))
        .map((doc): ExistingImage => {
          const pending = doc.syncState === 'pending' && doc.data !== '';
          const source: ExistingImage['source'] = pending
            ? { kind: 'local', data: doc.data, type: doc.type }
            : { kind: 'server', id: profId, name: doc.img_for, file: true };
          return { slot: doc.img_for, source, pending, type: doc.type, name: doc.name };
        }),
    [live.docs, profId],
  );
  return { files, loading: read !== profId || live.loading };
}
