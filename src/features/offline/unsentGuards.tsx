// Logout warns and asks for confirmation when unsent records exist (ADR-0018); they stay on
// the device, sealed, for this user's next sign-in (ADR-0020). Reset has its own two-step flow (useReset.tsx).
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Alert, Button } from '@mui/material';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { usePreferences } from '../../components';
import { logout } from '../../lib/vault';
import { useDb } from '../../lib/data';
import { usePendingTotal } from './counts';
import { countPending } from '../../lib/sync';
import { stopReplication } from './replicationControl';
import { UnsentDialog } from './UnsentDialog';
import { useSay } from '../../lib/session';

/** Stops the live pull first, so no request goes out with a token being cleared. */
export function logoutNow(): void {
  void stopReplication();
  logout();
}

/**
 * The top bar's logout: straight out when nothing is waiting; otherwise a warning with the
 * count, "Go to upload" (the safe default) or "Log out anyway".
 */
export function useGuardedLogout() {
  const db = useDb();
  const navigate = useNavigate();
  const [unsent, setUnsent] = useState(0);
  const say = useSay();

  async function request() {
    let count = 0;
    try {
      count = db ? await countPending(db) : 0;
    } catch (error) {
      console.warn('Pending records could not be counted before logout:', error);
    }
    if (count > 0) setUnsent(count);
    else logoutNow();
  }

  const dialog = (
    <UnsentDialog
      open={unsent > 0}
      title={say('offline.unsent.logoutTitle')}
      text={say('offline.unsent.logoutText', { count: unsent })}
      onCancel={() => setUnsent(0)}
      actions={[
        {
          label: say('offline.unsent.goUpload'),
          tone: 'primary',
          autoFocus: true,
          onClick: () => {
            setUnsent(0);
            navigate('/offlinehp');
          },
        },
        {
          label: say('offline.unsent.logoutAnyway'),
          tone: 'danger',
          onClick: () => {
            setUnsent(0);
            logoutNow();
          },
        },
      ]}
    />
  );
  return { request: () => void request(), dialog };
}

/** Online reminder on every screen but the offline ones: records are waiting to be uploaded. */
export function UnsentBanner() {
  const say = useSay();
  const { mode } = usePreferences();
  const { pathname } = useLocation();
  const total = usePendingTotal();
  if (mode !== 'online' || !total || pathname.startsWith('/offlinehp')) return null;
  return (
    <Alert
      severity="info"
      icon={<CloudUploadIcon />}
      data-testid="unsent-banner"
      sx={{ borderRadius: 0, alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" component={RouterLink} to="/offlinehp" sx={{ whiteSpace: 'nowrap' }}>
          {say('offline.unsent.bannerAction')}
        </Button>
      }
    >
      {say('offline.unsent.banner', { count: total })}
    </Alert>
  );
}
