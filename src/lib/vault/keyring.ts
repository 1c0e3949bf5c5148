// What the device keeps of a user's data key (docs/security.md "Shared and lost devices"): the
// key's bytes sealed under the user's password and under the server's device secret, never the
// key itself. One keyring per user and device, in localStorage under `icrs.keyring.<userId>`,
// beside the count of failed unlocks that slows guessing down.

export interface Keyring {
  v: 1;
  userId: string;
  /** base64 salt of the password's PBKDF2 and the secret's HKDF. */
  salt: string;
  iterations: number;
  /** The data key sealed under the key the password gives (absent until a password is typed here). */
  byPassword?: string;
  /** The data key sealed under the key the server's device secret gives. */
  bySecret?: string;
  /** The key of the user's drafts (sealedKv.ts), sealed under the data key. */
  draftKey?: string;
  /** The key of the user's export files (exportSeal.ts), sealed under the data key. */
  exportKey?: string;
  /** The organisation the records collected here were collected for (the account may move:
   * they then wait, sealed, until it belongs to it again). */
  location: number;
  /** The organisation whose records the mirror holds (absent: `location`). */
  mirrorOf?: number;
}

const PREFIX = 'icrs.keyring.';
const FAILURES = 'icrs.unlockFailures.';

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

function isKeyring(value: unknown, userId: string): value is Keyring {
  const v = value as Partial<Keyring> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.v === 1 &&
    v.userId === userId &&
    typeof v.salt === 'string' &&
    typeof v.iterations === 'number' &&
    typeof v.location === 'number' &&
    (v.byPassword === undefined || typeof v.byPassword === 'string') &&
    (v.bySecret === undefined || typeof v.bySecret === 'string') &&
    (v.draftKey === undefined || typeof v.draftKey === 'string') &&
    (v.exportKey === undefined || typeof v.exportKey === 'string') &&
    (v.mirrorOf === undefined || typeof v.mirrorOf === 'number')
  );
}

export function readKeyring(userId: string): Keyring | null {
  const value = read(PREFIX + userId);
  return isKeyring(value, userId) ? value : null;
}

/** Throws when the device refuses to keep it: without its keyring the data would be lost. */
export function writeKeyring(keyring: Keyring): void {
  localStorage.setItem(PREFIX + keyring.userId, JSON.stringify(keyring));
}

export function removeKeyring(userId: string): void {
  try {
    localStorage.removeItem(PREFIX + userId);
    localStorage.removeItem(FAILURES + userId);
  } catch {
    // Nothing kept.
  }
}

/** The users with a keyring on this device. */
export function keyringUsers(): string[] {
  const users: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(PREFIX)) users.push(key.slice(PREFIX.length));
    }
  } catch {
    // Storage unavailable: none.
  }
  return users;
}

// Failed unlocks: 3 free tries, then a pause that doubles with each failure, up to 5 minutes.
// Kept on the device, so a reload does not reset it.
const FREE_TRIES = 3;
const FIRST_PAUSE_MS = 2_000;
const LONGEST_PAUSE_MS = 5 * 60_000;

interface Failures {
  count: number;
  at: number;
}

function readFailures(userId: string): Failures {
  const v = read(FAILURES + userId) as Partial<Failures> | null;
  return typeof v?.count === 'number' && typeof v.at === 'number' ? { count: v.count, at: v.at } : { count: 0, at: 0 };
}

/** How long the user must wait before the next try (0: now). */
export function unlockWaitMs(userId: string, now = Date.now()): number {
  const { count, at } = readFailures(userId);
  if (count < FREE_TRIES) return 0;
  const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (count - FREE_TRIES));
  return Math.max(0, at + pause - now);
}

export function recordFailure(userId: string, now = Date.now()): void {
  const { count } = readFailures(userId);
  try {
    localStorage.setItem(FAILURES + userId, JSON.stringify({ count: count + 1, at: now } satisfies Failures));
  } catch {
    // Storage refused: the PBKDF2 cost still slows guessing.
  }
}

export function clearFailures(userId: string): void {
  try {
    localStorage.removeItem(FAILURES + userId);
  } catch {
    // Nothing kept.
  }
}
