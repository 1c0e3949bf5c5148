// Screens that show server figures (the dashboard) refresh when the change stream says a table
// changed. The stream names tables only, and only those the user's role may read; its own
// EventSource lives as long as the screen, apart from the pull replication's.
import { useEffect, useRef } from 'react';
import { api } from './api';
import { changeStream } from './db/replication';
import { getToken } from './session';

/** The stream's "every table" event (after a reconnect: what changed meanwhile is unknown). */
const ALL_TABLES = '*';

/** Calls `onChange` once per burst of changes to any of `tables` (waits `delayMs` for the burst
 * to end: an upload of 50 records is one refresh, not 50). Nothing happens without EventSource
 * or a session. */
export function useServerChanges(tables: readonly string[], onChange: () => void, enabled = true, delayMs = 1_000): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const key = tables.join(',');
  useEffect(() => {
    const token = getToken();
    if (!enabled || !token || typeof EventSource === 'undefined') return;
    const watched = new Set(key.split(','));
    const base = (api.defaults.baseURL ?? '/api').replace(/\/+$/, '');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = changeStream(`${base}/sync/stream?token=${encodeURIComponent(token)}`, (url) => new EventSource(url)).subscribe((table) => {
      if (table !== ALL_TABLES && !watched.has(table)) return;
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), delayMs);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [key, enabled, delayMs]);
}
