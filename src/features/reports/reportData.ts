// What the reports screen shows (ADR-0032): the key figures and one section per count, each
// asked from the stats API with the page's filter (territory, date range). Client figures
// (profiles, referrals) come scoped to the user's organisation by the server.
import { KPI_NAMES, type Kpis } from '../../../schemas/kpis';
import { enumLabel, type EnumField } from '../../../schemas/define';
import { getEntity } from '../../../schemas/index';
import { api } from '../../lib/http';
import type { Permission } from '../../lib/session';

export interface ReportFilter {
  territory: number | null;
  dateFrom: string | null;
  dateTo: string | null;
}

export const NO_FILTER: ReportFilter = { territory: null, dateFrom: null, dateTo: null };

export interface KeyCount {
  id: number | string;
  count: number;
}

export interface CrossCount {
  territory: number;
  category: number;
  count: number;
}

/** How a count's keys read: a lookup list's item, or an entity's enumerated field. */
export type KeyLabel = { list: string } | { entity: string; field: string };

export interface CountSection {
  kind: 'count';
  id: string;
  path: string;
  /** The column of the table: what the keys are ('territory', 'category', …). */
  dimension: string;
  label: KeyLabel;
  /** What is counted: 'services', 'jobs', … (series name, column title). */
  counts: string;
  /** Shown only with this permission (client figures: not role 6). */
  needs?: Permission;
}

export interface CrossSection {
  kind: 'cross';
  id: string;
  path: string;
}

export type Section = CountSection | CrossSection;

const territory: KeyLabel = { list: 'territory' };

export const SECTIONS: readonly Section[] = [
  { kind: 'count', id: 'servicesByTerritory', path: '/stats/byter/services', dimension: 'territory', label: territory, counts: 'services' },
  {
    kind: 'count',
    id: 'servicesByCategory',
    path: '/stats/byspdtype',
    dimension: 'category',
    label: { list: 'category' },
    counts: 'services',
  },
  {
    kind: 'count',
    id: 'servicesByServiceType',
    path: '/stats/byServiceType',
    dimension: 'serviceType',
    label: { list: 'serviceType' },
    counts: 'services',
  },
  { kind: 'cross', id: 'servicesByTerritoryCategory', path: '/stats/byterCate/' },
  { kind: 'cross', id: 'servicesByTerritoryMainCategory', path: '/stats/byterCateMain/' },
  {
    kind: 'count',
    id: 'offersOverall',
    path: '/stats/byoffrall',
    dimension: 'providerType',
    label: { entity: 'serviceProvider', field: 'sp_type' },
    counts: 'providers',
  },
  { kind: 'count', id: 'jobsBySector', path: '/stats/getJbSec/', dimension: 'sector', label: { list: 'sector' }, counts: 'jobs' },
  { kind: 'count', id: 'jobsByTerritory', path: '/stats/byter/jobs', dimension: 'territory', label: territory, counts: 'jobs' },
  {
    kind: 'count',
    id: 'clientsByTerritory',
    path: '/stats/byter/profiles',
    dimension: 'territory',
    label: territory,
    counts: 'clients',
    needs: 'tile.clients',
  },
  {
    kind: 'count',
    id: 'clientsBySex',
    path: '/stats/by/profiles/sex',
    dimension: 'sex',
    label: { entity: 'profile', field: 'sex' },
    counts: 'clients',
    needs: 'tile.clients',
  },
  {
    kind: 'count',
    id: 'referralsByTerritory',
    path: '/stats/byter/referrals',
    dimension: 'territory',
    label: territory,
    counts: 'referrals',
    needs: 'tile.referrals',
  },
  {
    kind: 'count',
    id: 'referralsByStatus',
    path: '/stats/by/referrals/status',
    dimension: 'status',
    label: { entity: 'referral', field: 'status' },
    counts: 'referrals',
    needs: 'tile.referrals',
  },
  {
    kind: 'count',
    id: 'jobReferralsByStatus',
    path: '/stats/by/jobReferrals/status',
    dimension: 'status',
    label: { entity: 'jobReferral', field: 'status' },
    counts: 'jobReferrals',
    needs: 'tile.referrals',
  },
];

/** The key figures of /stats/getKPIs/, in the order shown. */
export const KPIS = KPI_NAMES;
export type { Kpis };

/** The translation id of an enumerated value ('enum.profile.sex.female'); null when the field
 * is not an enum of that entity. */
export function enumKey(entityName: string, field: string, value: string | number): string | null {
  const declared = getEntity(entityName)?.fields[field];
  return declared?.kind === 'enum' ? enumLabel(entityName, field, declared as EnumField, value) : null;
}

/** The filter as the API's query string (absent = all). */
export function filterParams(filter: ReportFilter): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (filter.territory !== null) params.territory = filter.territory;
  if (filter.dateFrom) params.dateFrom = filter.dateFrom;
  if (filter.dateTo) params.dateTo = filter.dateTo;
  return params;
}

export type SectionResult = { rows: KeyCount[] } | { cross: CrossCount[] } | { failed: true };

export interface Report {
  kpis: Kpis | null;
  sections: Record<string, SectionResult>;
}

async function fetchSection(section: Section, filter: ReportFilter): Promise<SectionResult> {
  try {
    if (section.kind === 'cross') {
      const { data } = await api.post<CrossCount[]>(section.path, filterParams(filter), { silent: true });
      return { cross: data };
    }
    const { data } = await api.get<KeyCount[]>(section.path, { params: filterParams(filter), silent: true });
    return { rows: data };
  } catch (error) {
    console.warn(`Report ${section.id} failed:`, error);
    return { failed: true };
  }
}

/** Every figure of the page at once, for `sections` (those the role may see). */
export async function fetchReport(filter: ReportFilter, sections: readonly Section[]): Promise<Report> {
  const kpis = api
    .get<Kpis>('/stats/getKPIs/', { params: filterParams(filter), silent: true })
    .then(({ data }) => data)
    .catch((error: unknown) => {
      console.warn('Report key figures failed:', error);
      return null;
    });
  const results = await Promise.all(sections.map((section) => fetchSection(section, filter)));
  return { kpis: await kpis, sections: Object.fromEntries(sections.map((s, i) => [s.id, results[i] as SectionResult])) };
}
