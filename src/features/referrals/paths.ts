// Where the referral screens live (product.md §2 route table: referral), and the addresses a
// referral links to, for the referral screens, the area manifest and the features that link here.
import { clientPath } from '../clients/paths';
import { jobPaths } from '../jobs/paths';
import { servicePaths } from '../services/paths';
import type { ReferralKind } from './kinds';

const id = encodeURIComponent;

export const REFERRALS_PATH = '/referral';

export const referralPaths = {
  list: (kind: ReferralKind = 'service') => (kind === 'job' ? `${REFERRALS_PATH}?tab=job` : REFERRALS_PATH),
  page: (kind: ReferralKind, key: string) => (kind === 'job' ? `${REFERRALS_PATH}/job/${id(key)}` : `${REFERRALS_PATH}/${id(key)}`),
  /** Making a referral; with a client already chosen when it starts from their page. */
  add: (kind: ReferralKind, profId?: string) => `${REFERRALS_PATH}/new?kind=${kind}${profId ? `&client=${id(profId)}` : ''}`,
  client: clientPath,
  service: servicePaths.page,
  job: jobPaths.page,
};
