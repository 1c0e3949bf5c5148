// What a referral screen shows offline: referrals are made and followed on the server only.
import type { ReactNode } from 'react';
import { NeedsConnection as SharedNotice, OnlineOnly as SharedOnlineOnly } from '../../components/OnlineOnly';

const REFERRALS = { messageId: 'referrals.offline', testId: 'referrals-offline' };

export function NeedsConnection() {
  return <SharedNotice {...REFERRALS} />;
}

/** The children online; the notice offline (nothing is half-saved: nothing is sent). */
export function OnlineOnly({ children }: { children: ReactNode }) {
  return <SharedOnlineOnly {...REFERRALS}>{children}</SharedOnlineOnly>;
}
