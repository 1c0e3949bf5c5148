import { startTransition, useCallback, useEffect, useState } from 'react';
import { job, profile, referral, service, serviceProvider } from '../../../schemas/index';
import { useServerChanges } from '../../lib/ui';
import { fetchDashboard, withUnchangedParts, type Dashboard } from './dashboardData';

/** Tables whose changes alter the dashboard's figures: a new service or job (product.md §2 charts and
 * map), provider (map), client or referral (tiles). */
const WATCHED = [serviceProvider.table, service.table, job.table, profile.table, referral.table];

export interface DashboardState {
  data: Dashboard | null;
  refreshing: boolean;
  refresh: () => void;
}

/** The dashboard's figures, fetched on opening, again when the change stream reports a change
 * of a watched table, when the device comes back online, and on demand. */
export function useDashboard(enabled: boolean): DashboardState {
  // The figures and the request generation they answer: a newer generation is being fetched.
  const [answer, setAnswer] = useState<{ data: Dashboard | null; generation: number }>({ data: null, generation: -1 });
  const [generation, setGeneration] = useState(0);
  const refresh = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    void fetchDashboard().then((data) => {
      // A transition: the figures are drawn in slices, so a tap meanwhile is answered (ADR-0035).
      if (!cancelled) startTransition(() => setAnswer((was) => ({ data: withUnchangedParts(was.data, data), generation })));
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, generation]);

  useEffect(() => {
    if (!enabled) return;
    window.addEventListener('online', refresh);
    return () => window.removeEventListener('online', refresh);
  }, [enabled, refresh]);

  useServerChanges(WATCHED, refresh, enabled);
  return { data: answer.data, refreshing: enabled && answer.generation !== generation, refresh };
}
