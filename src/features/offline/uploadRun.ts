// One upload at a time for the whole app (and across tabs, through the Web Locks API), with
// its live report kept outside the screens: leaving the offline home for the pending list does
// not lose the progress, and coming back shows it. The engine itself keeps no state that a
// crash could corrupt (design.md §6), so nothing here needs saving.
import { useSyncExternalStore } from 'react';
import { api, errorMessage } from '../../lib/api';
import type { IcrsDatabase } from '../../lib/db/database';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { uploadAll, type RecordRef, type UploadReport } from './engine';
import { notifyIfQuota } from './quota';

export interface UploadRunState {
  running: boolean;
  /** The live report while running, then the last finished one. */
  report: UploadReport | null;
  /** Why the last run stopped early (not the per-record errors, which the report holds). */
  error: string | null;
  /** Another tab was uploading when asked. */
  busyElsewhere: boolean;
}

const IDLE: UploadRunState = { running: false, report: null, error: null, busyElsewhere: false };
const LOCK_NAME = 'icrs-upload';

let state: UploadRunState = IDLE;
let controller: AbortController | null = null;
const listeners = new Set<() => void>();

function setState(next: Partial<UploadRunState>): void {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUploadRun(): UploadRunState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}

export function isUploading(): boolean {
  return state.running;
}

/** Runs `work` under the cross-tab upload lock; null when another tab holds it. */
async function underLock<T>(work: () => Promise<T>): Promise<T | null> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  return locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => (lock ? work() : null));
}

function summarise(report: UploadReport): void {
  if (report.stopped === 'noConnection') return; // the engine said so ('connetivity Error')
  if (report.stopped === 'aborted') {
    notify.info(t('offline.uploadFailedTitle'), t('offline.stopped'));
    return;
  }
  if (report.stopped === 'connectionLost') {
    notify.warning(t('offline.uploadFailedTitle'), t('offline.connectionLost'));
    return;
  }
  const sum = (pick: (k: UploadReport['kinds'][number]) => number) => report.kinds.reduce((n, k) => n + pick(k), 0);
  const failed = sum((k) => k.failed);
  const skipped = sum((k) => k.skipped);
  const success = sum((k) => k.success);
  if (report.total === 0) return; // nothing was waiting
  const text = t('offline.uploadDone', { success, failed, skipped });
  if (failed > 0 || skipped > 0) notify.warning(t('offline.uploadDoneTitle'), text);
  else notify.success(t('offline.uploadDoneTitle'), `${text} ${t('offline.uploadAllDone')}`);
}

/**
 * Uploads every pending record (spec §4 order; the engine's rules), or only `only` (retry of
 * one record). Resolves when done; never rejects: a failure is shown and kept in the state.
 */
export async function startUpload(db: IcrsDatabase, only?: readonly RecordRef[]): Promise<UploadReport | null> {
  if (state.running) return state.report;
  controller = new AbortController();
  const signal = controller.signal;
  setState({ running: true, error: null, busyElsewhere: false });
  try {
    const report = await underLock(() =>
      uploadAll(
        {
          db,
          http: api,
          notify: (title: string, text: string) => notify.error(title, text),
          isConnected: () => navigator.onLine,
        },
        { signal, only, onProgress: (live: UploadReport) => setState({ report: live }) },
      ),
    );
    if (report === null) {
      setState({ running: false, busyElsewhere: true });
      notify.info(t('offline.uploadFailedTitle'), t('offline.busyElsewhere'));
      return null;
    }
    setState({ running: false, report });
    summarise(report);
    return report;
  } catch (error) {
    const message = errorMessage(error);
    setState({ running: false, error: message });
    if (!notifyIfQuota(error) && !signal.aborted) notify.error(t('offline.uploadFailedTitle'), message);
    return null;
  } finally {
    controller = null;
  }
}

/** Stops after the requests in flight; what is not sent stays pending. */
export function stopUpload(): void {
  controller?.abort();
}

/** Forget the last report (after a reset: its figures describe records that no longer exist). */
export function clearUploadReport(): void {
  if (!state.running) setState(IDLE);
}
