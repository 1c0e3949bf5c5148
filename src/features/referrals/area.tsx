// The referrals area (product.md §2 route table: referral): the list, making a referral, and
// following a service or job referral, behind route.referral. Reading needs referrals.read,
// making one referrals.write, like the API.
import ShareIcon from '@mui/icons-material/Share';
import { defineArea } from '../../components/area';
import { REFERRALS_PATH } from './paths';

export const referralsArea = defineArea({
  id: 'referrals',
  order: 90,
  base: REFERRALS_PATH,
  guard: 'route.referral',
  load: () => import('./index'),
  screens: [
    { permission: 'referrals.read', render: (s) => <s.ReferralListPage /> },
    { path: 'new', permission: 'referrals.write', render: (s) => <s.NewReferralPage /> },
    { path: 'job/:id', permission: 'referrals.read', render: (s) => <s.JobReferralPage /> },
    { path: ':id', permission: 'referrals.read', render: (s) => <s.ServiceReferralPage /> },
  ],
  menu: [{ id: 'referrals', group: 'more', labelId: 'menu.referrals', to: REFERRALS_PATH, icon: ShareIcon, permission: 'menu.referrals' }],
});
