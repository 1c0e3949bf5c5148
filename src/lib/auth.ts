import { LOGOUT_RELOAD_DELAY_MS } from './constants';
import { navigateTo } from './navigation';
import { clearSession } from './session';

let loggingOut = false;

/**
 * Spec §4: clear the session, go to '/', then reload about 200 ms later so every in-memory
 * state (caches, timers, open requests) of the signed-in user is gone. There is no server call:
 * a JWT session has nothing to revoke, and after a 401 the server would refuse it anyway.
 */
export function logout(): void {
  if (loggingOut) return; // several failing requests can ask at once
  loggingOut = true;
  clearSession();
  navigateTo('/', { replace: true });
  window.setTimeout(() => window.location.reload(), LOGOUT_RELOAD_DELAY_MS);
}
