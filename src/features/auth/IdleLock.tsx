// The idle lock (ADR-0020): after the installation's `lockAfterMinutes` (GET /api/config, 15 by
// default, 0 never) without a touch, a key or a click in any of the user's tabs, the vault
// locks in every tab and the page reloads into the lock screen, so no decrypted value stays in
// memory. Activity is shared between tabs through localStorage (src/lib/vault/activity.ts).
import { useEffect } from 'react';
import { lockEverywhere, storeActivity, storedActivity } from '../../lib/vault';
import { useLockMinutes } from './lockSettings';

const ACTIVITY = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;
/** Activity is written at most this often (a keystroke each time would be waste). */
const WRITE_EVERY_MS = 5_000;
const CHECK_EVERY_MS = 10_000;

export function IdleLock({ userId, onLock }: { userId: string; onLock: () => void }) {
  const minutes = useLockMinutes();
  useEffect(() => {
    if (minutes <= 0) return undefined;
    const limit = minutes * 60_000;
    let lastActive = Date.now();
    let written = 0;
    storeActivity(lastActive);
    const active = () => {
      lastActive = Date.now();
      if (lastActive - written >= WRITE_EVERY_MS) {
        written = lastActive;
        storeActivity(lastActive);
      }
    };
    const check = () => {
      const idle = Date.now() - Math.max(lastActive, storedActivity());
      if (idle < limit) return;
      lockEverywhere(userId);
      onLock();
    };
    for (const name of ACTIVITY) window.addEventListener(name, active, { passive: true, capture: true });
    document.addEventListener('visibilitychange', check);
    const timer = window.setInterval(check, Math.min(CHECK_EVERY_MS, limit));
    return () => {
      for (const name of ACTIVITY) window.removeEventListener(name, active, { capture: true });
      document.removeEventListener('visibilitychange', check);
      window.clearInterval(timer);
    };
  }, [minutes, userId, onLock]);
  return null;
}
