// The time of the user's last touch, key or click in any of their tabs (a time, nothing else),
// shared through localStorage. The idle lock counts from it (src/features/auth/IdleLock.tsx), and
// so does a page load: a tab whose last activity is older than the lock's delay does not resume
// from its session token. A browser that restores its tabs after a restart restores their
// sessionStorage too, token included; such a tab, idle since, asks for the password like an idle
// one (docs/security.md "Shared and lost devices").
const LAST_ACTIVE = 'icrs.lastActive';

export function storedActivity(): number {
  try {
    return Number(localStorage.getItem(LAST_ACTIVE)) || 0;
  } catch {
    return 0;
  }
}

export function storeActivity(at: number): void {
  try {
    localStorage.setItem(LAST_ACTIVE, String(at));
  } catch {
    // This tab still counts its own activity.
  }
}

/** Whether the user's last activity is older than the idle lock's delay (0: never locks). No
 * activity stored yet counts as recent: nothing says the device was left. */
export function idleTooLong(lockAfterMinutes: number, now = Date.now()): boolean {
  if (lockAfterMinutes <= 0) return false;
  const last = storedActivity();
  return last > 0 && now - last >= lockAfterMinutes * 60_000;
}
