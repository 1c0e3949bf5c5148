import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

/** GET /api/stats/gen (contract): totals for the dashboard tiles. */
export interface GeneralStats {
  profiles: number;
  referrals: number;
  sProviders: number;
  services: number;
  jobs: number;
}

const FIELDS: (keyof GeneralStats)[] = ['profiles', 'referrals', 'sProviders', 'services', 'jobs'];

function toStats(data: unknown): GeneralStats | null {
  // Accept the bare object and the legacy `{result: {...}}` wrapper.
  const body = typeof data === 'object' && data !== null && 'result' in data ? (data as { result: unknown }).result : data;
  if (typeof body !== 'object' || body === null) return null;
  const row = body as Record<string, unknown>;
  const stats = {} as GeneralStats;
  for (const field of FIELDS) stats[field] = typeof row[field] === 'number' ? row[field] : Number(row[field] ?? 0) || 0;
  return stats;
}

/** Spec §2: failures of the dashboard calls are only logged, hence `silent`. */
export function useGeneralStats(enabled: boolean): GeneralStats | null {
  const [stats, setStats] = useState<GeneralStats | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    api
      .get<unknown>('/stats/gen', { silent: true })
      .then(({ data }) => {
        if (!cancelled) setStats(toStats(data));
      })
      .catch((error: unknown) => console.warn('Dashboard stats unavailable:', error));
    return () => {
      cancelled = true;
    };
  }, [enabled]);
  return stats;
}
