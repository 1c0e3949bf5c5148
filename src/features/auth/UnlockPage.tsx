// The lock screen (ADR-0020): after a browser restart, a reload without network, the lock
// button or the idle lock, the signed-in user types their password to open this device's data.
// Online it is a sign-in (the server checks the password and gives a fresh session token: the
// device kept none through the lock), and the keyring opens with the password or the device
// secret, then is sealed again under both. Without the network, the keyring's password wrap
// opens it; an online call then asks for a sign-in (docs/security.md "Shared and lost devices").
// A wrong password is refused, and repeated failures make the next try wait (the count is
// kept in IndexedDB, src/lib/vault/keyring.ts).
import { useState, type FormEvent } from 'react';
import { isAxiosError } from 'axios';
import { Alert, Box, Button, CircularProgress, Link, Paper, TextField, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { LanguageSelect } from '../../components';
import { isVaultOpen, logout, passwordRefused, unlockWithPassword, waitBeforeUnlock } from '../../lib/vault';
import { type SessionUser, useSay } from '../../lib/session';
import { signIn, signInPausedMinutes } from './authApi';

type Problem = { id: 'lock.wrong' | 'lock.needsNetwork' } | { id: 'lock.wait'; seconds: number };

type ServerUnlock = { status: 'open' | 'refused' | 'unreachable' } | { status: 'paused'; seconds: number };

/** With the network, a sign-in: the server checks the password and gives a new session token,
 * and the keyring opens with the password or the device secret. `unreachable`: no answer from
 * the server (or not a verdict on the password), the device's own check follows. */
async function unlockThroughServer(user: SessionUser, password: string): Promise<ServerUnlock> {
  try {
    const signedIn = await signIn(user.userName, password, { quiet: true });
    if (isVaultOpen(user.userId)) return { status: 'open' };
    // A temporary password (an administrator's reset): the server keeps the device secret back
    // until it is changed, so the page reloads into Change Password (VaultGate), after which the
    // keyring opens with the new password and the secret.
    if (signedIn.mustChangePassword) {
      window.location.reload();
      return { status: 'open' };
    }
    return { status: 'unreachable' };
  } catch (error) {
    const status = isAxiosError(error) ? error.response?.status : undefined;
    if (status === 401) return { status: 'refused' };
    if (status === 429) return { status: 'paused', seconds: (signInPausedMinutes(error) ?? 1) * 60 };
    return { status: 'unreachable' };
  }
}

export function UnlockPage({ user }: { user: SessionUser }) {
  const say = useSay();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function attempt(): Promise<Problem | null> {
    const waitMs = await waitBeforeUnlock(user.userId);
    if (waitMs > 0) return { id: 'lock.wait', seconds: Math.ceil(waitMs / 1000) };
    if (navigator.onLine) {
      const online = await unlockThroughServer(user, password);
      if (online.status === 'open') return null; // the gate opens the app (VaultGate hears the vault open)
      if (online.status === 'paused') return { id: 'lock.wait', seconds: online.seconds };
      if (online.status === 'refused') {
        await passwordRefused(user.userId);
        return { id: 'lock.wrong' };
      }
    }
    const local = await unlockWithPassword(user.userId, password);
    if (local.ok) return null;
    if (local.reason === 'wait') return { id: 'lock.wait', seconds: Math.ceil(local.waitMs / 1000) };
    return { id: local.reason === 'wrong' ? 'lock.wrong' : 'lock.needsNetwork' };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setProblem(null);
    const found = await attempt();
    if (!found) return;
    setProblem(found);
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
