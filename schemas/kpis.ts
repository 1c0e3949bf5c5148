// The key figures of GET /stats/getKPIs/: the server counts them, the dashboard and the reports
// show them, in this order.

export const KPI_NAMES = [
  'providers',
  'services',
  'verifiedServices',
  'pendingServices',
  'rejectedServices',
  'jobs',
  'openJobs',
  'positions',
  'profiles',
  'referrals',
  'referralsCompleted',
  'jobReferrals',
  'hired',
] as const;

export type Kpis = Partial<Record<(typeof KPI_NAMES)[number], number>>;
