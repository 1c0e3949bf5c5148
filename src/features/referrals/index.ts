// Referrals (ADR-0029): the screens, loaded with their area (area.tsx), and a client's referrals
// for the client page (<ClientReferrals profId={prof_Id} />).
export { ReferralListPage } from './ReferralListPage';
export { NewReferralPage } from './NewReferralPage';
export { JobReferralPage, ServiceReferralPage } from './ReferralPage';
export { ClientReferrals } from './ClientReferrals';
