// Referral screens work online only, and their lists follow colleagues' changes live.
import { useServerChanges } from '../../lib/ui';

/** True when calls only the server can answer can be made: online mode and a network. */
export { useConnected } from '../../components/useConnected';

/** A status change is one event: a short wait still folds a burst into one reload. */
const REFERRAL_REFRESH_DELAY_MS = 250;

/**
 * Calls `onChange` whenever one of `tables` changes on the server. Referrals have no offline
 * collection, but the change stream the pull replication keeps open names every table the
 * role may read, referrals too: the screen reloads what it shows through the scoped API.
 */
export function useTableChanges(tables: readonly string[], onChange: () => void, connected: boolean): void {
  useServerChanges(tables, onChange, connected, REFERRAL_REFRESH_DELAY_MS);
}
