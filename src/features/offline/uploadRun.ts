// One upload at a time for the whole app (and across tabs, through the Web Locks API), with
// its live report kept outside the screens: leaving the offline home for the pending list does
// not lose the progress, and coming back shows it. The engine itself keeps no state that a
// crash could corrupt (product.md §D6), so nothing here needs saving.
import { useSyncExternalStore } from 'react';
import { api, messageOf } from '../../lib/http';
import type { IcrsDatabase } from '../../lib/data';
import { dismiss, notify, notifyIfQuota, prompt, setUploading, UPLOAD_LOCK } from '../../lib/ui';
import { t } from '../../lib/session';
import { CONFLICT, countPending, listPending, NO_CONNECTION, uploadAll, type RecordRef, type UploadReport } from '../../lib/sync';
import { kindLabel, UPLOAD_KINDS } from './counts';
import { heldBackCount } from './storeSettle';
import { noteSuccess } from './syncTimes';

export interface UploadRunState {
  running: boolean;
  /** The live report while running, then the last finished one. */
  report: UploadReport | null;
  /** Why the last run stopped early (not the per-record errors, which the report holds). */
  error: string | null;
  /** Another tab was uploading when asked. */
  busyElsewhere: boolean;
  /** What the last run left, read from the store after it (not from its report). */
  summary: UploadSummary | null;
}

export interface UploadSummary {
  /** Records still pending on this device once the run ended. */
  left: number;
  severity: 'success' | 'info' | 'warning' | 'error';
  /** The toast's title when not the default one of its severity. */
  title?: string;
  text: string;
}

const IDLE: UploadRunState = { running: false, report: null, error: null, busyElsewhere: false, summary: null };

let state: UploadRunState = IDLE;
let controller: AbortController | null = null;
const listeners = new Set<() => void>();

function setState(next: Partial<UploadRunState>): void {
  state = { ...state, ...next };
  if (next.running !== undefined) setUploading(next.running);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUploadRun(): UploadRunState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

export function isUploading(): boolean {
  return state.running;
}

/** Runs `work` under the cross-tab upload lock; null when another tab holds it. */
async function underLock<T>(work: () => Promise<T>): Promise<T | null> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  return locks.request(UPLOAD_LOCK, { ifAvailable: true }, (lock) => (lock ? work() : null));
}

const SERVER_TROUBLE = /^(Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)$/i;
const NO_ANSWER = /^(Network Error|Request aborted|socket hang up)$/i;
const TIMED_OUT = /^timeout of (\d+)ms exceeded$/i;

/** A failure in the user's language: the network's and the server's own errors (axios and
 * HTTP status texts, in English) become a sentence; the API's messages are already translated. */
export function failureText(message: string): string {
  if (message === CONFLICT) return t('offline.failure.conflict');
  // A request past its bound (src/lib/sync/upload/http.ts boundedHttp, or axios's own timeout).
  const timedOut = TIMED_OUT.exec(message);
  if (timedOut) return t('offline.failure.timeout', { seconds: Math.round(Number(timedOut[1]) / 1000) });
  if (NO_ANSWER.test(message)) return t('offline.failure.network');
  if (SERVER_TROUBLE.test(message) || /^Request failed with status code 5\d\d$/.test(message)) return t('offline.failure.server');
  return message;
}

/** Which kinds failed, and how many of each ("Available job: 3, Client: 1"). */
function failedKinds(report: UploadReport): string {
  return report.kinds
    .filter((k) => k.failed > 0)
    .map((k) => t('offline.summary.kindCount', { kind: t(kindLabel(k.table)), count: k.failed }))
    .join(', ');
}

/** The server's messages ("No record with this id") carry no full stop; the summary joins sentences. */
function asSentence(text: string): string {
  return /[.!?…:]$/.test(text.trim()) ? text : `${text.trim()}.`;
}

function firstError(report: UploadReport): string | undefined {
  return report.kinds.flatMap((k) => k.errors).find((e) => e.message)?.message;
}

/**
 * The run's outcome for the offline home and a toast. "Every record is on the server" is said
 * only when the store holds no pending record after the run: the report says what was tried,
 * the store what is left.
 */
export function summaryOf(
  report: UploadReport,
  left: number,
  deleted: readonly string[] = [],
  erased: readonly string[] = [],
): UploadSummary | null {
  const kept = t('offline.summary.kept', { count: left });
  if (report.stopped === 'noConnection')
    return {
      left,
      severity: 'error',
      title: t('offline.noConnectionTitle'),
      text: left ? `${asSentence(t('offline.noConnection'))} ${kept}` : t('offline.noConnection'),
    };
  if (report.stopped === 'aborted') return { left, severity: 'info', text: `${t('offline.stopped')} ${kept}` };
  if (left === 0)
    return report.total === 0 ? null : { left, severity: 'success', text: `${uploadFigures(report)} ${t('offline.uploadAllDone')}` };
  const parts = [uploadFigures(report)];
  const failed = failedKinds(report);
  if (failed) parts.push(t('offline.summary.failed', { kinds: failed }));
  if (deleted.length) parts.push(t('offline.summary.deleted', { names: deleted.join(', ') }));
  if (erased.length) parts.push(t('offline.summary.erased', { names: erased.join(', ') }));
  // Records deleted on the server, or of a client erased there, are named above; their 404 or
  // 410 would only say it again.
  const failedCount = report.kinds.reduce((n, k) => n + k.failed, 0);
  const named = deleted.length + erased.length;
  const onlyDeleted = named > 0 && failedCount <= named;
  // A run stopped by requests past their bound says so; by requests with no answer at all, that the server could not be reached.
  const first = firstError(report);
  const lost = first && TIMED_OUT.test(first) ? first : t('offline.failure.network');
  const reason = report.stopped === 'connectionLost' ? lost : onlyDeleted ? undefined : first;
  if (reason) parts.push(asSentence(failureText(reason)));
  parts.push(kept);
  const severity = report.kinds.some((k) => k.failed > 0) || report.stopped ? 'error' : 'warning';
  return { left, severity, text: parts.join(' ') };
}

function uploadFigures(report: UploadReport): string {
  const sum = (pick: (k: UploadReport['kinds'][number]) => number) => report.kinds.reduce((n, k) => n + pick(k), 0);
  return t('offline.uploadDone', { success: sum((k) => k.success), failed: sum((k) => k.failed), skipped: sum((k) => k.skipped) });
}

/** The records the server answered were deleted there meanwhile ("Service provider: Centre X"),
 * and those whose client was erased there. */
async function goneOnServer(db: IcrsDatabase): Promise<{ deleted: string[]; erased: string[] }> {
  const records = await listPending(db);
  const named = (state: string) =>
    records.filter((r) => r.state === state).map((r) => t('offline.summary.namedRecord', { kind: t(kindLabel(r.table)), name: r.label }));
  return { deleted: named('deleted'), erased: named('erased') };
}

/** The key of the "no connection" prompt: it stays while the device is offline and goes when
 * the network is back or an upload has gone through (UploadOnReconnect, announce). */
export const NO_CONNECTION_PROMPT = 'icrs-no-connection';

function announce(summary: UploadSummary | null, noConnection = false): void {
  if (!summary) return;
  const title = summary.title ?? (summary.severity === 'success' ? t('offline.uploadDoneTitle') : t('offline.uploadFailedTitle'));
  if (noConnection) return prompt(NO_CONNECTION_PROMPT, summary.severity, title, summary.text);
  // Any other outcome means the network answered: the old "no connection" has had its day.
  dismiss(NO_CONNECTION_PROMPT);
  notify[summary.severity](title, summary.text);
}

/**
 * The engine's toasts in the interface's language. The engine names them by the spec's titles
 * ('JAALL Error', 'connetivity Error'; product.md §8), which stay keys, not text: a record's
 * failure is titled by its kind, and the missing network is said once, by the run's summary.
 */
function engineToast(title: string, text: string): void {
  if (title === NO_CONNECTION.title) return;
  const entity = UPLOAD_KINDS.find((e) => e.upload?.errorTitle === title);
  // English keeps the spec's title of the kind ('JAALL Error'); French says it in words.
  const shownTitle = entity
    ? t('offline.kindFailedTitle', { kind: t(kindLabel(entity.table)), specTitle: title })
    : t('offline.uploadFailedTitle');
  notify.error(shownTitle, failureText(text));
}

/** How often the live report is drawn. The bar still counts records one by one, but drawing it
 * for each record cost the page as much CPU as the upload itself (profile of 2,000 records). */
const PROGRESS_DRAW_MS = 100;

/** Shows the engine's live report at once, then at most every PROGRESS_DRAW_MS (the latest one). */
function progressDrawer(): { show: (report: UploadReport) => void; stop: () => void } {
  let waiting: UploadReport | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    timer = undefined;
    if (!waiting) return;
    setState({ report: waiting });
    waiting = null;
    timer = setTimeout(tick, PROGRESS_DRAW_MS);
  };
  return {
    show(report) {
      waiting = report;
      if (!timer) tick();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      waiting = null;
    },
  };
}

/**
 * Uploads every pending record (product.md §4 order; the engine's rules), or only `only` (retry of
 * one record). Resolves when done; never rejects: a failure is shown and kept in the state.
 */
export async function startUpload(db: IcrsDatabase, only?: readonly RecordRef[]): Promise<UploadReport | null> {
  if (state.running) return state.report;
  const held = await heldBackCount(db);
  if (held > 0) {
    const summary: UploadSummary = { left: held, severity: 'warning', text: t('lock.heldBack', { count: held }) };
    setState({ summary });
    announce(summary);
    return null;
  }
  controller = new AbortController();
  const signal = controller.signal;
  setState({ running: true, error: null, busyElsewhere: false, summary: null });
  const progress = progressDrawer();
  try {
    const report = await underLock(() =>
      uploadAll(
        {
          db,
          http: api,
          notify: engineToast,
          isConnected: () => navigator.onLine,
        },
        { signal, only, onProgress: progress.show },
      ),
    );
    progress.stop();
    if (report === null) {
      setState({ running: false, busyElsewhere: true });
      notify.info(t('offline.uploadFailedTitle'), t('offline.busyElsewhere'));
      return null;
    }
    if (report.uploaded > 0) noteSuccess('upload');
    const gone = await goneOnServer(db);
    const summary = summaryOf(report, await countPending(db), gone.deleted, gone.erased);
    setState({ running: false, report, summary });
    announce(summary, report.stopped === 'noConnection');
    return report;
  } catch (error) {
    const message = messageOf(error);
    setState({ running: false, error: message });
    if (!notifyIfQuota(error) && !signal.aborted) notify.error(t('offline.uploadFailedTitle'), message);
    return null;
  } finally {
    progress.stop();
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
