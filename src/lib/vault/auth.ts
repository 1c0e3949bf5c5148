import { LOGOUT_RELOAD_DELAY_MS, navigateTo } from '../util';
import { clearSession, endServerSession, getToken, getUser } from '../session';
import { lockEverywhere } from './unlock';

let loggingOut = false;

/**
 * product.md §4: clear the session, go to '/', then reload about 200 ms later so every in-memory
 * state (caches, timers, open requests) of the signed-in user is gone. The device's vault locks
 * first, in every tab (ADR-0020): the user's data stays on the device, sealed, for their next
 * sign-in, and nobody else can read it.
 */
export function logout(): void {
  if (loggingOut) return; // several failing requests can ask at once
  loggingOut = true;
  const token = getToken();
  lockEverywhere(getUser()?.userId ?? null, { endSession: false });
  endServerSession('/api/logout', token);
  clearSession();
  navigateTo('/', { replace: true });
  window.setTimeout(() => window.location.reload(), LOGOUT_RELOAD_DELAY_MS);
}

/** Locks the device's data now (the top bar's lock): the page reloads into the lock screen, so
 * no decrypted value stays in memory, and the session token is gone from the device and ended
 * on the server; the user unlocks with their password, offline too. */
export function lockNow(): void {
  lockEverywhere(getUser()?.userId ?? null);
  window.location.reload();
}
