// The login screen's notice of records another user left unsent (issue 4 §3). Its own module,
// imported by the login screen through src/features/offline/login.ts: it reads the summary in
// localStorage and needs neither the store nor the upload engine (issue 16: the login screen's
// JavaScript stays small).
import { useState } from 'react';
import { Alert, Box } from '@mui/material';
import { useIntl } from 'react-intl';
import { isSignedIn } from '../../lib/session';
import { readUnsent } from './owner';

/** On the login screen (no store opened): whose records are waiting on this device. */
export function LoginUnsentNotice() {
  const intl = useIntl();
  const [summary] = useState(readUnsent);
  if (isSignedIn() || !summary || summary.count === 0) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 1, sm: 3 } }}>
      <Alert severity="warning" data-testid="login-unsent" sx={{ width: '100%', maxWidth: 420 }}>
        {intl.formatMessage({ id: 'offline.unsent.loginNotice' }, { count: summary.count, owner: summary.userName })}
      </Alert>
    </Box>
  );
}
