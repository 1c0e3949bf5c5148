// The signed-in app opens only with the user's vault open (ADR-0020): at a page load the vault
// is resumed without a word when the tab had it open (another tab, or the server's device secret
// while online); otherwise the lock screen asks for the password, offline too. A deactivated
// account is signed out, its mirror and drafts removed, its pending records kept sealed.
import { useEffect, useState, type ReactNode } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { isVaultOpen, logout, onVaultChange, type Resumed, resumeVault, unlockedWithPassword } from '../../lib/vault';
import { setFlash } from '../../lib/ui';
import { getToken, getUser, useSay } from '../../lib/session';
import { IdleLock } from './IdleLock';
import { UnlockPage } from './UnlockPage';

type GateState = 'resuming' | Resumed;

/** Reloads into the lock screen: every decrypted value in this page's memory goes with it. */
export function reloadLocked(): void {
  window.location.reload();
}

export function VaultGate({ children }: { children: ReactNode }) {
  const say = useSay();
  const [user] = useState(getUser);
  const [state, setState] = useState<GateState>(() => (user && isVaultOpen(user.userId) ? 'open' : 'resuming'));

  useEffect(() => {
    if (!user) return undefined;
    let current = true;
    let waiting = false; // at the lock screen: another tab's unlock opens this one too
    void resumeVault(user.userId, getToken(), reloadLocked).then((resumed) => {
      if (!current) return;
      waiting = resumed === 'locked';
      if (resumed === 'inactive') {
        setFlash('accountInactive');
        logout();
      }
      setState(resumed);
    });
    // Another tab unlocked: this one opens too.
    const stop = onVaultChange(() => {
      if (waiting && isVaultOpen(user.userId)) {
        waiting = false;
        void unlockedWithPassword(user.userId).then(() => current && setState('open'));
      }
    });
    return () => {
      current = false;
      stop();
    };
  }, [user]);

  if (!user) return <>{children}</>;
  if (state === 'open') {
    return (
      <>
        {children}
        <IdleLock userId={user.userId} onLock={reloadLocked} />
      </>
    );
  }
  // A temporary password: the server keeps the device secret back until it is changed
  // (ADR-0003), and the app shows nothing but Change Password meanwhile, which needs no local data; the
  // vault opens with the new password (afterPasswordChange).
  if (state === 'mustChangePassword' || (state === 'locked' && user.mustChangePassword)) return <>{children}</>;
  if (state === 'locked') return <UnlockPage user={user} />;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label={say('lock.opening')} />
    </Box>
  );
}
