// The browser's "storage full" error (QuotaExceededError from IndexedDB), recognised however
// the store wraps it, and the one toast that says so (ADR-0018). Here rather than in the
// offline feature so that the shared form parts can tell it from a field problem (ADR-0025).
// A full device must never lose a record silently (ADR-0019): whoever catches a failed save
// asks `notifyIfQuota`, and a window-wide watcher catches the saves nobody awaited. Both show
// the same clear toast.
import { t } from '../session';
import { notify } from './notify';

const QUOTA_NAMES = ['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED'];
const QUOTA_TEXT = /quota ?exceeded|QUOTA_REACHED|storage quota|disk (is )?full|not enough (disk )?space/i;

/**
 * True when `error`, or any error it wraps (Dexie `inner`, `cause`, RxDB `parameters`,
 * aggregate `errors`), is the browser's out-of-space error. Bounded walk: errors can be cyclic.
 */
export function isQuotaError(error: unknown, depth = 0): boolean {
  if (depth > 6 || error === null || error === undefined) return false;
  if (typeof error === 'string') return QUOTA_TEXT.test(error);
  if (typeof error !== 'object') return false;
  const e = error as Record<string, unknown>;
  if (typeof e.name === 'string' && QUOTA_NAMES.includes(e.name)) return true;
  // Legacy DOMException code 22 (QUOTA_EXCEEDED_ERR) and Firefox's 1014.
  if (error instanceof DOMException && (error.code === 22 || error.code === 1014)) return true;
  if (typeof e.message === 'string' && QUOTA_TEXT.test(e.message)) return true;
  const nested: unknown[] = [e.inner, e.cause, e.error, e.innerError];
  if (e.parameters && typeof e.parameters === 'object') nested.push(...Object.values(e.parameters as Record<string, unknown>));
  if (Array.isArray(e.errors)) nested.push(...(e.errors as unknown[]));
  return nested.some((inner) => inner !== undefined && inner !== error && isQuotaError(inner, depth + 1));
}

let lastShown = 0;
const REPEAT_MS = 4000;

/** The "storage full" toast; repeated failures within a few seconds show it once. */
export function showQuotaFull(): void {
  const now = Date.now();
  if (now - lastShown < REPEAT_MS) return;
  lastShown = now;
  notify.error(t('offline.quota.title'), t('offline.quota.text'));
}

/** For callers of the data layer: shows the quota toast when that is what failed. */
export function notifyIfQuota(error: unknown): boolean {
  if (!isQuotaError(error)) return false;
  showQuotaFull();
  return true;
}

/** Window-wide net for failed saves nobody awaited; returns its removal. */
export function watchQuotaErrors(): () => void {
  const onRejection = (event: PromiseRejectionEvent) => {
    if (notifyIfQuota(event.reason)) event.preventDefault();
  };
  const onError = (event: ErrorEvent) => {
    if (notifyIfQuota(event.error ?? event.message)) event.preventDefault();
  };
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('error', onError);
  return () => {
    window.removeEventListener('unhandledrejection', onRejection);
    window.removeEventListener('error', onError);
  };
}
