// Browser storage of product.md §3: token, user, lang, mode, theme, lists. Every read validates what it
// finds, because localStorage is shared with older builds and can hold anything.

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
  token: 'token',
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

export function getToken(): string | null {
  return read(KEY.token) || null;
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

/** Signed in means both halves of the session are present and readable. */
export function isSignedIn(): boolean {
  return getToken() !== null && getUser() !== null;
}

export function saveSession(user: SessionUser, token: string): void {
  write(KEY.token, token);
  write(KEY.user, JSON.stringify(user));
}

/** Removes only the identity (product.md §8 on 401), keeping lists for a later decision by logout. */
export function clearIdentity(): void {
  remove(KEY.token);
  remove(KEY.user);
}

/** Logout clears token, user and cached lists; lang, mode and theme are device preferences. */
export function clearSession(): void {
  clearIdentity();
  remove(KEY.lists);
}
