// A full device (QuotaExceededError from IndexedDB) must never lose a record silently
// (ADR-0019): whoever catches a failed save asks `notifyIfQuota`, and a window-wide watcher
// catches the saves nobody awaited. Both show the same clear toast.
import { isQuotaError, showQuotaFull } from '../../lib/quota';

export { isQuotaError, showQuotaFull };

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
