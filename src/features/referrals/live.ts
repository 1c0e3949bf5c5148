// Referral screens work online only, and their lists follow colleagues' changes live.
import { useEffect, useEffectEvent } from 'react';
import { changeStream } from '../../lib/db/replication';
import { getToken } from '../../lib/session';

/** True when calls only the server can answer can be made: online mode and a network. */
export { useConnected } from '../../components/useConnected';

/** Every table ('*'): the stream came back after a break, so anything may have changed. */
const ALL_TABLES = '*';

/**
 * Calls `onChange` whenever one of `tables` changes on the server (the change stream,
 * GET /api/sync/stream, which names tables only: the screen reloads what it shows through the
 * scoped API). Referrals have no offline collection, so the pull replication does not carry
 * them: this screen listens itself, while it is shown and connected.
 */
export function useTableChanges(tables: readonly string[], onChange: () => void, connected: boolean): void {
  const notify = useEffectEvent(onChange);
  const key = tables.join(',');
  useEffect(() => {
    const token = getToken();
    if (!connected || !token || typeof EventSource === 'undefined') return;
    const watched = new Set(key.split(','));
    const subscription = changeStream(`/api/sync/stream?token=${encodeURIComponent(token)}`, (url) => new EventSource(url)).subscribe((table) => {
      if (table === ALL_TABLES || watched.has(table)) notify();
    });
    return () => subscription.unsubscribe();
  }, [key, connected]);
}
