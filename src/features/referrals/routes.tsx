import type { FeatureRoute } from '../../lib/featureRoutes';
import { NewReferralPage } from './NewReferralPage';
import { ReferralListPage } from './ReferralListPage';
import { JobReferralPage, ServiceReferralPage } from './ReferralPage';

/** Screens under /referral (the area itself is guarded by route.referral): the list, making a
 * referral, and following a service or job referral. Reading needs referrals.read, making
 * one referrals.write, like the API. */
export const referralRoutes: FeatureRoute[] = [
  { permission: 'referrals.read', element: <ReferralListPage /> },
  { path: 'new', permission: 'referrals.write', element: <NewReferralPage /> },
  { path: 'job/:id', permission: 'referrals.read', element: <JobReferralPage /> },
  { path: ':id', permission: 'referrals.read', element: <ServiceReferralPage /> },
];
