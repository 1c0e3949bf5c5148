// The two kinds of referral (ADR-0029): to a service and to a job. Everything a screen needs to
// treat them alike: the entity, its list view, its statuses and its key (addresses: paths.ts).
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

/** Today as 'YYYY-MM-DD' in the user's time zone (the day people mean). */
export function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
