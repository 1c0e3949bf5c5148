// Reading a job and its other jobs for the job page and the edit form. Each is asked of the
// data layer once (online: the API, written into RxDB; offline: RxDB), then rendered from a
// live RxDB query, so a close/reopen, an edit in a dialog or a pull from another device shows
// at once without a reload.
import { useEffect, useMemo, useState } from 'react';
export { useLocalDataLayer } from '../../lib/data';
import { job, otherJob } from '../../../schemas/index';
import { type Doc, useDataLayer, useLiveQuery } from '../../lib/data';

export type JobDoc = Doc<typeof job>;
export type OtherJobDoc = Doc<typeof otherJob>;

/** Other jobs per job: far below the API's largest page (200). */
export const OTHER_JOBS_PAGE = 200;

export type LoadStatus = 'loading' | 'ready' | 'missing' | 'error';

interface Fetched<T> {
  key: string;
  status: Exclude<LoadStatus, 'loading'>;
  value: T;
  error: unknown;
}

/** Runs `read` whenever `key` changes (or `retry` is called); answers of older keys are dropped. */
function useFetched<T>(key: string | null, read: () => Promise<T>, empty: T) {
  const [attempt, setAttempt] = useState(0);
  const full = key === null ? null : `${key}|${attempt}`;
  const [fetched, setFetched] = useState<Fetched<T> | null>(null);
  useEffect(() => {
    if (full === null) return undefined;
    let current = true;
    read().then(
      (value) => current && setFetched({ key: full, status: value === null ? 'missing' : 'ready', value, error: null }),
      (error: unknown) => current && setFetched({ key: full, status: 'error', value: empty, error }),
    );
    return () => {
      current = false;
    };
    // `full` names everything `read` depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [full]);
  const settled = fetched !== null && fetched.key === full;
  return {
    status: settled ? fetched.status : ('loading' as LoadStatus),
    value: settled ? fetched.value : empty,
    error: settled ? fetched.error : null,
    retry: () => setAttempt((n) => n + 1),
  };
}

export interface JobState {
  status: LoadStatus;
  job: JobDoc | null;
  error: unknown;
  retry: () => void;
}

/** The job `jbId`: fetched once, then kept live from RxDB. After an upload the engine removes
 * the local copy; the fetched one is shown until the next visit reads the server's. */
export function useJob(jbId: string): JobState {
  const data = useDataLayer();
  const fetched = useFetched<JobDoc | null>(data ? `job|${jbId}` : null, () => (data ? data.get(job, jbId) : Promise.resolve(null)), null);
  const live = useLiveQuery(job, { selector: { jb_Id: jbId } });
  const doc = live.docs[0] ?? fetched.value;
  return { status: fetched.status, job: fetched.status === 'ready' ? doc : null, error: fetched.error, retry: fetched.retry };
}

/** Oldest first, as they were entered: `sortDesc` ascending is newest first. */
export function byEntryOrder(a: OtherJobDoc, b: OtherJobDoc): number {
  const x = String(a.sortDesc ?? '');
  const y = String(b.sortDesc ?? '');
  return x < y ? 1 : x > y ? -1 : 0;
}

export interface OtherJobsState {
  status: LoadStatus;
  rows: OtherJobDoc[];
  error: unknown;
  retry: () => void;
}

/** The other jobs of `jbId` (tbl_jobs_other): the API's list (GET /jobsother?jb_Id=…) or,
 * offline, what the device holds, merged with the live local documents (pending ones included). */
export function useOtherJobs(jbId: string, refreshKey: unknown = 0): OtherJobsState {
  const data = useDataLayer();
  const key = data ? `other|${jbId}|${String(refreshKey)}` : null;
  const fetched = useFetched<OtherJobDoc[]>(
    key,
    async () => (data ? (await data.list(otherJob, { filter: { jb_Id: jbId }, pageSize: OTHER_JOBS_PAGE })).rows : []),
    [],
  );
  const live = useLiveQuery(otherJob, { selector: { jb_Id: jbId } });
  const rows = useMemo(() => {
    const byKey = new Map<string, OtherJobDoc>();
    for (const row of fetched.value) byKey.set(row.jb_oth_Id, row);
    for (const row of live.docs) byKey.set(row.jb_oth_Id, row); // the local copy is the newest
    return [...byKey.values()].sort(byEntryOrder);
  }, [fetched.value, live.docs]);
  return { status: fetched.status === 'missing' ? 'ready' : fetched.status, rows, error: fetched.error, retry: fetched.retry };
}

/** True while a job exists only on this device (created offline, not uploaded yet). */
export function isLocalOnly(doc: { syncState?: unknown; syncOp?: unknown } | null | undefined): boolean {
  return doc?.syncState === 'pending' && doc.syncOp === 'create';
}

export function isNotUploaded(doc: { syncState?: unknown } | null | undefined): boolean {
  return doc?.syncState === 'pending';
}
