// What a referral screen shows offline: referrals are made and followed on the server only.
import type { ReactNode } from 'react';
import { Alert } from '@mui/material';
import { useIntl } from 'react-intl';
import { useConnected } from './live';

export function NeedsConnection() {
  const intl = useIntl();
  return (
    <Alert severity="info" data-testid="referrals-offline">
      {intl.formatMessage({ id: 'referrals.offline' })}
    </Alert>
  );
}

/** The children online; the notice offline (nothing is half-saved: nothing is sent). */
export function OnlineOnly({ children }: { children: ReactNode }) {
  return useConnected() ? children : <NeedsConnection />;
}
