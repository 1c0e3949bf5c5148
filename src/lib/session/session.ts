// Browser storage of product.md §3: token, user, lang, mode, theme, lists. Every read validates what it
// finds, because localStorage is shared with older builds and can hold anything.
//
// The session token is never in localStorage (docs/security.md "Shared and lost devices"): it
// lives in this page's memory and in this tab's sessionStorage, only while the device is
// unlocked, so an online reload needs no password, and a lock, a sign-out or a browser restart
// leaves none behind (a lock also ends it on the server). The user (who is signed in on this
// device, for the lock screen) stays in localStorage: it opens nothing.

export type Lang = 'fr' | 'en';
export type Mode = 'online' | 'offline';
export type ThemeName = 'light' | 'dark';

export const LANGS: readonly Lang[] = ['fr', 'en'];
export const DEFAULT_LANG: Lang = 'fr';

export interface SessionUser {
  userId: string;
  userName: string;
  role: number;
  location: number;
  fullName: string | null;
  /** A temporary password given by an administrator: the app asks for a new one first. */
  mustChangePassword?: boolean;
}

const KEY = {
  /** In sessionStorage (this tab), not localStorage. */
  token: 'icrs.token',
  /** Where the release before kept the token, in localStorage: removed at start. */
  legacyToken: 'token',
  user: 'user',
  lang: 'lang',
  mode: 'mode',
  theme: 'theme',
  lists: 'lists',
} as const;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode): behave as empty
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Quota or disabled storage: the app still works for this page load.
  }
}

function remove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

export function isLang(value: unknown): value is Lang {
  return value === 'fr' || value === 'en';
}

export function getLang(): Lang {
  const value = read(KEY.lang);
  return isLang(value) ? value : DEFAULT_LANG;
}

export function setLang(lang: Lang): void {
  write(KEY.lang, lang);
}

export function getMode(): Mode {
  return read(KEY.mode) === 'offline' ? 'offline' : 'online';
}

export function setMode(mode: Mode): void {
  write(KEY.mode, mode);
}

export function getThemeName(): ThemeName {
  return read(KEY.theme) === 'dark' ? 'dark' : 'light';
}

export function setThemeName(theme: ThemeName): void {
  write(KEY.theme, theme);
}

let memoryToken: string | null = null;

function readTabToken(): string | null {
  try {
    return sessionStorage.getItem(KEY.token) || null;
  } catch {
    return null;
  }
}

/** The session token of this tab: in memory, or in this tab's sessionStorage (a reload). */
export function getToken(): string | null {
  memoryToken ??= readTabToken();
  return memoryToken;
}

/** Keeps the session token in memory and this tab's sessionStorage (null: drops it from both). */
export function setToken(token: string | null): void {
  memoryToken = token;
  try {
    if (token) sessionStorage.setItem(KEY.token, token);
    else sessionStorage.removeItem(KEY.token);
  } catch {
    // No sessionStorage: the token lives in memory, and a reload asks for the password.
  }
}

/** At start: a token the release before left in localStorage is taken into this tab when the
 * tab was unlocked (`icrs.unlocked` in its sessionStorage: a reload into this release), and
 * removed from localStorage in any case; a copy there would open the device without the
 * password. Answers a token dropped (not taken), for the caller to end on the server. */
export function adoptLegacyToken(unlockedTab: boolean): string | null {
  const legacy = read(KEY.legacyToken);
  if (!legacy) return null;
  remove(KEY.legacyToken);
  if (unlockedTab && !getToken()) {
    setToken(legacy);
    return null;
  }
  return legacy === getToken() ? null : legacy;
}

/** Normalises whatever the server or storage holds into a SessionUser, or null if unusable. */
export function toSessionUser(value: unknown): SessionUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const userId = typeof v.userId === 'string' || typeof v.userId === 'number' ? String(v.userId) : '';
  if (!userId || typeof v.userName !== 'string' || typeof v.role !== 'number') return null;
  return {
    userId,
    userName: v.userName,
    role: v.role,
    location: typeof v.location === 'number' ? v.location : 0,
    fullName: typeof v.fullName === 'string' ? v.fullName : null,
    ...(v.mustChangePassword === true ? { mustChangePassword: true } : {}),
  };
}

export function getUser(): SessionUser | null {
  const raw = read(KEY.user);
  if (!raw) return null;
  try {
    return toSessionUser(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** Signed in on this device means a user is known here: with a token (unlocked online), or
 * without one (locked, or unlocked offline), when the vault's gate asks for the password and
 * an online call without a token signs out (src/lib/http/api.ts), as an expired session does. */
export function isSignedIn(): boolean {
  return getUser() !== null;
}

export function saveSession(user: SessionUser, token: string): void {
  setToken(token);
  write(KEY.user, JSON.stringify(user));
}

/** Removes only the identity (product.md §8 on 401), keeping lists for a later decision by logout. */
export function clearIdentity(): void {
  setToken(null);
  remove(KEY.legacyToken);
  remove(KEY.user);
}

/** Logout clears token, user and cached lists; lang, mode and theme are device preferences. */
export function clearSession(): void {
  clearIdentity();
  remove(KEY.lists);
}

/** Asks the server to end the session of `token` (POST /api/logout for a sign-out, /api/session/lock
 * for a lock): a copy of the token taken before is refused from then on. Best effort: offline, or
 * with a token already refused, the device ends it on its side all the same; `keepalive` lets the
 * request finish across the reload that follows. */
export function endServerSession(path: '/api/logout' | '/api/session/lock', token: string | null): void {
  if (!token || typeof fetch !== 'function') return;
  void fetch(path, {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': getLang() },
  }).catch(() => undefined);
}
