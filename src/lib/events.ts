// App-wide signals between features that must not import each other.

const PENDING_STATS_CHANGED = 'icrs:pending-stats-changed';

/** A verification or a service edit changed the pending/rejected counts: badges refetch them. */
export function emitPendingStatsChanged(): void {
  window.dispatchEvent(new Event(PENDING_STATS_CHANGED));
}

export function onPendingStatsChanged(listener: () => void): () => void {
  window.addEventListener(PENDING_STATS_CHANGED, listener);
  return () => window.removeEventListener(PENDING_STATS_CHANGED, listener);
}
