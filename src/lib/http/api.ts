// The one HTTP client (product.md §7, §8). Screens and features call the API only through `api`.
import axios, { AxiosHeaders, isAxiosError, type InternalAxiosRequestConfig } from 'axios';
import { forgetAtNextStart, lockNow, logout } from '../vault';
import { notify } from '../ui';
import { clearIdentity, getLang, getToken, getUser, isSignedIn, t } from '../session';
import { CHANGE_PASSWORD_PATH, navigateTo } from '../util';
import { codeOf } from './errors';
import { messageOf } from './messages';
import type { ErrorCode } from '../../../schemas/errorCodes';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not toast a failure: the caller shows it itself (the delete dialog, the upload
     * report) or it is only logged (dashboard calls, product.md §2). Auth rules still apply. */
    silent?: boolean;
  }
}

/** The server's 403 while a temporary password must be changed: every route but change
 * password and sign-out answers it, so the app goes to change password. */
const MUST_CHANGE_PASSWORD: ErrorCode = 'auth.mustChangePassword';

/** The server's 401 to a call without a session token. */
const NO_TOKEN: ErrorCode = 'auth.noToken';

/** A token past its time or signed with another key: the session is over. */
const SESSION_ENDING_CODES: readonly ErrorCode[] = ['auth.expired', 'auth.badSignature'];

export const api = axios.create({
  baseURL: '/api',
  headers: { 'Content-Type': 'application/json' },
});

function addHeaders(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const headers = AxiosHeaders.from(config.headers);
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set('Accept-Language', getLang());
  config.headers = headers;
  return config;
}

/** `sessionLeft`: the answer is about a session this tab no longer holds (aboutAnEndedSession). */
function applyAuthRules(status: number | undefined, code: ErrorCode | undefined, sessionLeft: boolean): void {
  const signedIn = isSignedIn();
  // A deactivated account: its mirror and drafts leave the device at the next start (ADR-0020).
  const user = getUser();
  if (status === 401 && code === 'auth.inactive' && user) forgetAtNextStart(user.userId);
  if (sessionLeft) return;
  if (status === 401 && code === NO_TOKEN && signedIn && !getToken()) {
    // Unlocked offline, the device holds no session token (docs/security.md "Shared and lost
    // devices"): the lock screen asks for the password, which signs in again; nothing is lost.
    lockNow();
  } else if (status === 401) {
    clearIdentity();
    if (signedIn) logout(); // local only: the server already refused the token
  } else if (signedIn && code !== undefined && SESSION_ENDING_CODES.includes(code)) {
    logout();
  }
  if (status === 403) navigateTo(code === MUST_CHANGE_PASSWORD ? CHANGE_PASSWORD_PATH : '/forbidden');
}

/** The answer to an edit based on a stale copy (409 with the server's copy): the data layer turns
 * it into a ConflictError and the screen explains it, so a raw "conflict" toast would only
 * repeat it less clearly. */
function isStaleUpdate(error: unknown): boolean {
  return isAxiosError<{ server?: unknown }>(error) && error.response?.status === 409 && error.response.data?.server !== undefined;
}

/** The session token a failed request carried, or null when it carried none. */
function tokenSent(error: unknown): string | null {
  if (!isAxiosError(error) || !error.config) return null;
  const header = AxiosHeaders.from(error.config.headers).get('Authorization');
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/**
 * An answer about a session this tab no longer holds: the request left with a token that has
 * since gone (the lock button or the idle lock ended it, and the page is reloading into the lock
 * screen) or been replaced (a sign-in again). Its 401 says nothing of the current session, and
 * signing out on it would turn a lock into a sign-out, after which the device cannot be opened
 * without the network (docs/security.md "Shared and lost devices").
 */
function aboutAnEndedSession(error: unknown): boolean {
  const sent = tokenSent(error);
  return sent !== null && sent !== getToken();
}

function onError(error: unknown): Promise<never> {
  const message = messageOf(error);
  const status = isAxiosError(error) ? error.response?.status : undefined;
  const sessionLeft = status === 401 && aboutAnEndedSession(error);
  applyAuthRules(status, codeOf(error), sessionLeft);
  if (sessionLeft) {
    console.warn('API call answered for a session this tab has left:', message);
    return Promise.reject(error);
  }
  const silent = (isAxiosError(error) && error.config?.silent === true) || isStaleUpdate(error);
  if (silent) console.warn('API call failed:', message);
  else notify.error(t('errors.interceptorTitle'), message);
  return Promise.reject(error);
}

api.interceptors.request.use(addHeaders);
api.interceptors.response.use((response) => response, onError);
