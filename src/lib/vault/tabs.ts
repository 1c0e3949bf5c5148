// The vault across this browser's tabs of one origin: a tab opened while another is unlocked gets
// the data key from it (a CryptoKey travels by structured clone, never as bytes: it stays
// unextractable), an unlock in one tab opens the others, and a lock in one tab locks them all.
// Same origin only (BroadcastChannel), and only between tabs of the same signed-in user. The
// session token travels with the key: a tab keeps it in memory and its own sessionStorage only
// (src/lib/session/session.ts), so a tab opened later gets it from an unlocked one, and a token renewed
// in one tab (a password change) reaches the others.
import { getToken, setToken } from '../session';
import { isVaultOpen, lockVault, onVaultChange, openWithKey, sharedKey } from './vault';

const CHANNEL = 'icrs-vault';

/** While a tab's vault is open it writes the time here now and then (a time, no secret): a tab
 * opened meanwhile waits longer for the key (unlock.ts), since an unlocked tab that is busy or
 * in the background may answer late, and a late answer must not cost the user their password
 * (docs/adr/0047-new-tab-session.md "A new tab of an unlocked session"). */
const ALIVE_KEY = 'icrs.vaultAlive';
const ALIVE_EVERY_MS = 20_000;
/** Background tabs' timers may run once a minute (Chromium's intensive throttling): a mark this
 * recent means a tab may still be open and unlocked. */
const ALIVE_FOR_MS = 90_000;
let aliveTimer: ReturnType<typeof setInterval> | null = null;

function markAlive(): void {
  try {
    if (tabUser && isVaultOpen(tabUser)) localStorage.setItem(ALIVE_KEY, String(Date.now()));
  } catch {
    /* no localStorage: a new tab waits the short time */
  }
}

/** True when an unlocked tab of this browser said so lately. */
export function unlockedTabLately(): boolean {
  try {
    return Date.now() - Number(localStorage.getItem(ALIVE_KEY) ?? 0) < ALIVE_FOR_MS;
  } catch {
    return false;
  }
}

/** Clears the mark: this browser's tabs are locked (a lock, a sign-out). */
export function forgetAlive(): void {
  try {
    localStorage.removeItem(ALIVE_KEY);
  } catch {
    /* nothing kept */
  }
}

type Message =
  | { type: 'ask'; userId: string }
  | { type: 'key'; userId: string; key: CryptoKey; token: string | null }
  | { type: 'token'; userId: string; token: string }
  | { type: 'lock'; userId: string };

let channel: BroadcastChannel | null = null;
let tabUser: string | null = null;
let onLocked: (() => void) | null = null;

function post(message: Message): void {
  channel?.postMessage(message);
}

function hear(message: Message): void {
  if (message.userId !== tabUser) return;
  if (message.type === 'ask') {
    const key = sharedKey(message.userId);
    if (key) post({ type: 'key', userId: message.userId, key, token: getToken() });
  } else if (message.type === 'key') {
    if (isVaultOpen()) return;
    if (message.token) setToken(message.token);
    openWithKey(message.userId, message.key);
  } else if (message.type === 'token') {
    if (isVaultOpen(message.userId)) setToken(message.token);
  } else if (sharedKey(message.userId)) {
    lockVault();
    onLocked?.();
  }
}

/** This tab belongs to `userId` from now on: it answers and hears the user's other tabs.
 * `locked` runs when another tab locks the vault. */
export function joinTabs(userId: string, locked: () => void): void {
  tabUser = userId;
  onLocked = locked;
  if (!aliveTimer) {
    aliveTimer = setInterval(markAlive, ALIVE_EVERY_MS);
    onVaultChange(markAlive);
  }
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(CHANNEL);
  channel.addEventListener('message', (event: MessageEvent<Message>) => hear(event.data));
}

/** Asks the user's other tabs for the data key; true when one gave it within `waitMs`. */
export function keyFromOtherTab(userId: string, waitMs: number): Promise<boolean> {
  if (!channel || tabUser !== userId) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = onVaultChange(() => {
      if (isVaultOpen(userId)) done(true);
    });
    const timer = setTimeout(() => done(false), waitMs);
    function done(found: boolean) {
      clearTimeout(timer);
      stop();
      resolve(found);
    }
    post({ type: 'ask', userId });
  });
}

/** Tells the user's other tabs to lock (sign-out, idle lock). */
export function lockOtherTabs(userId: string): void {
  forgetAlive();
  post({ type: 'lock', userId });
}

/** Gives the key to the user's other tabs still locked (after an unlock here). */
export function shareWithOtherTabs(userId: string): void {
  const key = sharedKey(userId);
  if (key) post({ type: 'key', userId, key, token: getToken() });
}

/** Gives a renewed session token (a password change here) to the user's other open tabs. */
export function shareTokenWithOtherTabs(userId: string): void {
  const token = getToken();
  if (token && sharedKey(userId)) post({ type: 'token', userId, token });
}
