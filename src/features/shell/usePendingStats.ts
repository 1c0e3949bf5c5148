import { useEffect, useState } from 'react';
import { onPendingStatsChanged, PENDING_STATS_DELAY_MS } from '../../lib/util';
import { api } from '../../lib/http';
import type { Mode, SessionUser } from '../../lib/session';

export interface PendingCounts {
  pending: number;
  rejected: number;
}

function toCounts(data: unknown): PendingCounts | null {
  const first: unknown = Array.isArray(data) ? data[0] : null;
  if (typeof first !== 'object' || first === null) return null;
  const row = first as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { pending: num(row.Pending), rejected: num(row.Rejected) };
}

/**
 * Badge counts from GET /api/stats/pendings (answer `[{Pending, Rejected}]`). product.md §7: asked
 * 500 ms after start, only online and signed in, so the first paint is not held up by it.
 * Silent: a badge is a hint, and a toast on every page load for it would bury real errors
 * (the session rules of the interceptor still apply).
 */
export function usePendingStats(user: SessionUser | null, mode: Mode, wanted: boolean): PendingCounts | null {
  const [counts, setCounts] = useState<PendingCounts | null>(null);
  const active = user !== null && mode === 'online' && wanted;
  const [version, setVersion] = useState(0);
  // A verification elsewhere in the app asks for fresh counts at once.
  useEffect(() => onPendingStatsChanged(() => setVersion((v) => v + 1)), []);
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const timer = window.setTimeout(
      () => {
        api
          .get<unknown>('/stats/pendings', { silent: true })
          .then(({ data }) => {
            if (!cancelled) setCounts(toCounts(data));
          })
          .catch((error: unknown) => console.warn('Pending counts unavailable:', error));
      },
      version === 0 ? PENDING_STATS_DELAY_MS : 0,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [active, version]);
  return active ? counts : null;
}
