// The dashboard's figures (product.md §2 Home): the tiles (/stats/gen), the four charts and the map
// (/stats/geo: the whole map, bounded), asked together. Each call may fail alone: its part stays empty and the failure
// is only logged (product.md §2, §8).
import { api, type GeoMarkers } from '../../lib/http';
import { getCachedLists, type LookupLists, refreshLists } from '../../lib/data';

/** GET /api/stats/gen: totals for the tiles (client figures absent for role 6). */
export interface GeneralStats {
  profiles: number;
  referrals: number;
  sProviders: number;
  services: number;
  jobs: number;
}

export interface IdCount {
  id: number;
  count: number;
}

export type { GeoMarkers } from '../../lib/http';

/** The four charts: call path and the lookup list naming its ids (product.md §2). */
export const CHARTS = [
  { id: 'byCategory', path: '/stats/byspdtype', list: 'category', counts: 'services' },
  { id: 'byTerritory', path: '/stats/bySpdTerr', list: 'territory', counts: 'services' },
  { id: 'byServiceType', path: '/stats/byServiceType', list: 'serviceType', counts: 'services' },
  { id: 'jobsBySector', path: '/stats/getJbSec/', list: 'sector', counts: 'jobs' },
] as const;

export type ChartId = (typeof CHARTS)[number]['id'];

export interface Dashboard {
  general: GeneralStats | null;
  geo: GeoMarkers | null;
  charts: Record<ChartId, IdCount[] | null>;
  /** The lookup lists naming the charts' ids, fresh (cached for the other screens too). */
  lists: LookupLists | null;
  /** When these figures were answered. */
  fetchedAt: Date;
}

const FIELDS: (keyof GeneralStats)[] = ['profiles', 'referrals', 'sProviders', 'services', 'jobs'];

/** Accepts the bare object and the legacy `{result: {...}}` wrapper. */
export function toGeneralStats(data: unknown): GeneralStats | null {
  const body = typeof data === 'object' && data !== null && 'result' in data ? (data as { result: unknown }).result : data;
  if (typeof body !== 'object' || body === null) return null;
  const row = body as Record<string, unknown>;
  const stats = {} as GeneralStats;
  for (const field of FIELDS) stats[field] = typeof row[field] === 'number' ? row[field] : Number(row[field] ?? 0) || 0;
  return stats;
}

/** One call; a failure is logged and answers null (product.md §2: only logged). */
async function quietly<T>(path: string, read: (data: unknown) => T): Promise<T | null> {
  try {
    const { data } = await api.get<unknown>(path, { silent: true });
    return read(data);
  } catch (error) {
    console.warn(`Dashboard call ${path} failed:`, error);
    return null;
  }
}

const asCounts = (data: unknown) => (Array.isArray(data) ? (data as IdCount[]) : []);
const asGeo = (data: unknown): GeoMarkers => (typeof data === 'object' && data !== null ? (data as GeoMarkers) : {});

/** Every dashboard call at once. */
export async function fetchDashboard(): Promise<Dashboard> {
  const [lists, general, geo, ...charts] = await Promise.all([
    refreshLists(api).catch((error: unknown) => {
      console.warn('Dashboard lists not refreshed:', error);
      return getCachedLists();
    }),
    quietly('/stats/gen', toGeneralStats),
    quietly('/stats/geo', asGeo),
    ...CHARTS.map((chart) => quietly(chart.path, asCounts)),
  ]);
  return {
    lists: lists ?? getCachedLists(),
    general,
    geo,
    charts: Object.fromEntries(CHARTS.map((chart, i) => [chart.id, charts[i] ?? null])) as Dashboard['charts'],
    fetchedAt: new Date(),
  };
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * `next`, with each part that holds the same figures as in `previous` taken from `previous`: the
 * parts drawn apart (the charts, the map) keep their identity and are not drawn again when a
 * refresh brings the same figures, as the change stream's opening asks on every page load
 * (ADR-0035: drawing the charts is long on a phone). `fetchedAt` is always the new one.
 */
export function withUnchangedParts(previous: Dashboard | null, next: Dashboard): Dashboard {
  if (!previous) return next;
  const keep = <K extends 'general' | 'geo' | 'charts' | 'lists'>(part: K): Dashboard[K] =>
    sameJson(previous[part], next[part]) ? previous[part] : next[part];
  return { ...next, general: keep('general'), geo: keep('geo'), charts: keep('charts'), lists: keep('lists') };
}
