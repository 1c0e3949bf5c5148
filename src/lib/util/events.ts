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

const SERVER_CHANGE = 'icrs:server-change';

/** The change stream named a table that changed on the server (ALL_TABLES, schemas/changeStream.ts: any table). */
export function emitServerChange(table: string): void {
  window.dispatchEvent(new CustomEvent<string>(SERVER_CHANGE, { detail: table }));
}

const SERVER_LISTENING = 'icrs:server-listening';

/** The change stream is open: from now on every change is heard. A list drawn before it may
 * have missed one (a full page load draws its list before the stream connects). */
export function emitServerListening(): void {
  window.dispatchEvent(new Event(SERVER_LISTENING));
}

// Each unsubscribe removes the listener from the window it was added to (captured), whatever
// `window` names by then: a test may have replaced or removed the global since.
export function onServerListening(listener: () => void): () => void {
  const target = window;
  target.addEventListener(SERVER_LISTENING, listener);
  return () => target.removeEventListener(SERVER_LISTENING, listener);
}

export function onServerChange(listener: (table: string) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<string>).detail);
  const target = window;
  target.addEventListener(SERVER_CHANGE, handler);
  return () => target.removeEventListener(SERVER_CHANGE, handler);
}
