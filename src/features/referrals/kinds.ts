// The two kinds of referral (issue 12): to a service and to a job. Everything a screen needs to
// treat them alike: the entity, its list view, its statuses, its key and its addresses.
import type { EntityShape } from '../../../schemas/define';
import {
  JOB_REFERRAL_FLOW,
  REFERRAL_FLOW,
  jobReferral,
  jobReferralView,
  referral,
  referralView,
  type StatusFlow,
} from '../../../schemas/index';

export type ReferralKind = 'service' | 'job';
export const REFERRAL_KINDS: readonly ReferralKind[] = ['service', 'job'];

export interface KindInfo {
  kind: ReferralKind;
  entity: EntityShape;
  view: EntityShape;
  flow: StatusFlow;
  /** The referral's key field. */
  key: string;
  /** The field holding the service or job it refers to. */
  target: string;
  /** The change-stream table. */
  table: string;
}

export const KIND_INFO: Readonly<Record<ReferralKind, KindInfo>> = {
  service: {
    kind: 'service',
    entity: referral,
    view: referralView,
    flow: REFERRAL_FLOW,
    key: 'ref_Id',
    target: 'sp_Detail_Id',
    table: referral.table,
  },
  job: {
    kind: 'job',
    entity: jobReferral,
    view: jobReferralView,
    flow: JOB_REFERRAL_FLOW,
    key: 'jref_Id',
    target: 'jb_Id',
    table: jobReferral.table,
  },
};

const id = encodeURIComponent;

export const REFERRALS_PATH = '/referral';

export const referralPaths = {
  list: (kind: ReferralKind = 'service') => (kind === 'job' ? `${REFERRALS_PATH}?tab=job` : REFERRALS_PATH),
  page: (kind: ReferralKind, key: string) => (kind === 'job' ? `${REFERRALS_PATH}/job/${id(key)}` : `${REFERRALS_PATH}/${id(key)}`),
  /** Making a referral; with a client already chosen when it starts from their page. */
  add: (kind: ReferralKind, profId?: string) => `${REFERRALS_PATH}/new?kind=${kind}${profId ? `&client=${id(profId)}` : ''}`,
  client: (profId: string) => `/profiles/${id(profId)}`,
  service: (spDetailId: string) => `/serviceproviders/services/${id(spDetailId)}`,
  job: (jbId: string) => `/availablejobs/${id(jbId)}`,
};

/** Today as 'YYYY-MM-DD' in the user's time zone (the day people mean). */
export function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
