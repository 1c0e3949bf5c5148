// Referrals (ADR-0029): the list, making a referral, following one, and a client's referrals
// for the client page (<ClientReferrals profId={prof_Id} />).
export { referralRoutes } from './routes';
export { ClientReferrals } from './ClientReferrals';
