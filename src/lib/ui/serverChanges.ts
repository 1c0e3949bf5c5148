// Screens that show server figures (the dashboard) refresh when the change stream says a table
// changed. They listen to the stream the pull replication keeps open (one per tab: a second
// long-lived connection per tab would eat into the browser's six per server). The stream names
// only the tables the user's role may read; a role that reads none (reports, role 2) hears
// nothing and refreshes on demand.
import { useEffect, useRef } from 'react';
import { ALL_TABLES } from '../../../schemas/changeStream';
import { onServerChange, onServerListening } from '../util';

/** Calls `onChange` once per burst of changes to any of `tables` (and once the stream opens).
 * Trailing (the default): when
 * the burst ended, `delayMs` after its last change (an upload of 50 records is one refresh, not
 * 50). Leading: at once on the first change, then at most once per `delayMs` while changes go
 * on, the last one included (a live list shows a colleague's save without a pause). */
export function useServerChanges(tables: readonly string[], onChange: () => void, enabled = true, delayMs = 1_000, leading = false): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const key = tables.join(',');
  useEffect(() => {
    if (!enabled) return;
    const watched = new Set(key.split(','));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let quietUntil = 0;
    const fire = () => {
      timer = undefined;
      quietUntil = Date.now() + delayMs;
      latest.current();
    };
    const heard = (table: string) => {
      if (table !== ALL_TABLES && !watched.has(table)) return;
      if (!leading) {
        clearTimeout(timer);
        timer = setTimeout(() => latest.current(), delayMs);
      } else if (timer === undefined) {
        const wait = quietUntil - Date.now();
        if (wait <= 0) fire();
        else timer = setTimeout(fire, wait);
      }
    };
    const stopChanges = onServerChange(heard);
    // A screen drawn before the stream was open (a full page load) may have missed a change
    // made in between: the stream's opening counts as a change of every table.
    const stopListening = onServerListening(() => heard(ALL_TABLES));
    return () => {
      clearTimeout(timer);
      stopChanges();
      stopListening();
    };
  }, [key, enabled, delayMs, leading]);
}
