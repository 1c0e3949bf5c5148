// The lock screen (issue 25): after a browser restart, a reload without network or an idle lock,
// the signed-in user types their password to open this device's data, offline too. A wrong
// password is refused, and repeated failures make the next try wait. Online, a password changed
// elsewhere (or a device that never had this user's password key) is checked by the server.
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { Alert, Box, Button, CircularProgress, Link, Paper, TextField, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { LanguageSelect } from '../../components';
import { logout } from '../../lib/auth';
import type { SessionUser } from '../../lib/session';
import { unlockWithPassword } from '../../lib/vault';
import { signIn } from './authApi';

type Problem = { id: 'lock.wrong' | 'lock.needsNetwork' } | { id: 'lock.wait'; seconds: number };

/** With the network, the server checks the password and the device's keyring is opened with
 * its device secret (then sealed under this password). False when the server refuses it. */
async function unlockThroughServer(user: SessionUser, password: string): Promise<boolean> {
  try {
    await signIn(user.userName, password, { quiet: true });
    return true;
  } catch {
    return false;
  }
}

export function UnlockPage({ user }: { user: SessionUser }) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setProblem(null);
    const local = await unlockWithPassword(user.userId, password);
    if (local.ok) return; // the gate opens the app (VaultGate hears the vault open)
    if (local.reason === 'wait') {
      setProblem({ id: 'lock.wait', seconds: Math.ceil(local.waitMs / 1000) });
    } else if (navigator.onLine && (await unlockThroughServer(user, password))) {
      return;
    } else {
      setProblem({ id: local.reason === 'wrong' || navigator.onLine ? 'lock.wrong' : 'lock.needsNetwork' });
    }
    setBusy(false);
  }

  return (
    <Box component="main" sx={{ display: 'flex', justifyContent: 'center', py: { xs: 2, sm: 6 }, px: 1 }}>
      <Paper
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ p: { xs: 2, sm: 4 }, width: '100%', maxWidth: 420 }}
        data-testid="unlock-page"
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
          <LockIcon color="primary" aria-hidden />
          <Typography component="h1" variant="h5" sx={{ flexGrow: 1 }}>
            {say('lock.title')}
          </Typography>
          <LanguageSelect />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {say('lock.text', { user: user.fullName ?? user.userName })}
        </Typography>
        <TextField
          label={say('auth.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          fullWidth
          autoFocus
          margin="dense"
        />
        {problem && (
          <Alert severity="error" role="alert" data-testid="unlock-error" sx={{ mt: 1 }}>
            {problem.id === 'lock.wait' ? say(problem.id, { seconds: problem.seconds }) : say(problem.id)}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          disabled={!password || busy}
          sx={{ mt: 2 }}
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-label={say('lock.opening')} /> : null}
        >
          {say('lock.unlock')}
        </Button>
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}>
          <Link component="button" type="button" variant="body2" onClick={logout}>
            {say('lock.otherUser', { user: user.userName })}
          </Link>
        </Box>
      </Paper>
    </Box>
  );
}
