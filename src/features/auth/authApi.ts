import axios, { isAxiosError } from 'axios';
import { api } from '../../lib/http';
import { getLang, getUser, saveSession, toSessionUser, type SessionUser } from '../../lib/session';
import { LOGOUT_RELOAD_DELAY_MS } from '../../lib/util';
import { setFlash } from '../../lib/ui';
import { afterPasswordChange, isVaultOpen, openVaultAtSignIn, shareTokenWithOtherTabs } from '../../lib/vault';

interface LoginAnswer {
  result?: { user?: Record<string, unknown> };
}

/**
 * POST /api/login; on success stores token and user (product.md §3, §4) and opens the user's vault on
 * this device with the password (ADR-0020). The request is `silent` because the login screen
 * reports the failure itself ('Login Error' toast and page line). `quiet`: outside the app's
 * HTTP client, whose 401 rule would sign out the lock screen's user at a wrong password.
 */
export async function signIn(userName: string, password: string, options: { quiet?: boolean } = {}): Promise<SessionUser> {
  const body = { userName, password };
  const { data } = options.quiet
    ? await axios.post<LoginAnswer>('/api/login', body, { headers: { 'Accept-Language': getLang() } })
    : await api.post<LoginAnswer>('/login', body, { silent: true });
  const raw = data.result?.user;
  const user = toSessionUser(raw);
  const token = raw?.token;
  if (!user || typeof token !== 'string' || !token) throw new Error('Unexpected login answer');
  saveSession(user, token);
  await openVaultAtSignIn(user, password, token);
  return user;
}

/** After too many failed sign-ins the server answers 429 with Retry-After (docs/security.md):
 * the minutes to wait, or undefined for any other failure. */
export function signInPausedMinutes(error: unknown): number | undefined {
  if (!isAxiosError(error) || error.response?.status !== 429) return undefined;
  const seconds = Number(error.response.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 1;
}

interface PasswordChangeAnswer {
  message: string;
  token?: string;
}

/**
 * POST /api/users/changepass. A password change ends every session of the user but this one,
 * which goes on with the token of the answer: it replaces the stored one, and a temporary
 * password is no longer (docs/security.md). This device's data key is sealed under the new
 * password (ADR-0020). Answers the server's confirmation, in the user's language. `silent`: the
 * screen shows a refusal beside the fields.
 */
export async function changePassword(oldPassword: string, newPassword: string): Promise<string> {
  const { data } = await api.post<PasswordChangeAnswer>('/users/changepass', { oldPassword, newPassword }, { silent: true });
  const user = getUser();
  if (user && typeof data.token === 'string' && data.token) {
    const wasOpen = isVaultOpen(user.userId);
    saveSession({ ...user, mustChangePassword: false }, data.token);
    await afterPasswordChange(user, oldPassword, newPassword, data.token);
    shareTokenWithOtherTabs(user.userId); // the user's other tabs go on with it (their token ended)
    if (!wasOpen && isVaultOpen(user.userId)) {
      // The device's data opened only now (a temporary password, for which the server kept the
      // device secret back): the page loads again, so that the store opens with it.
      setFlash('loggedIn');
      window.setTimeout(() => window.location.assign('/'), LOGOUT_RELOAD_DELAY_MS);
    }
  }
  return data.message;
}
