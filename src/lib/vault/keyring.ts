// What the device keeps of a user's data key (docs/security.md "Shared and lost devices"): the
// key's bytes sealed under the user's password and under the server's device secret, never the
// key itself. One keyring per user and device, in localStorage under `icrs.keyring.<userId>`.
// The count of failed unlocks that slows guessing down is kept in IndexedDB (`icrs_vault`),
// with the user's store, not in localStorage: clearing localStorage does not reset it, and a
// wipe that removes it removes the store it protects.
import { MIN_PBKDF2_ITERATIONS, MAX_PBKDF2_ITERATIONS } from './crypto';

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
    // A keyring sealed under fewer iterations than the floor is refused as tampered (the
    // device never writes one): a weak password wrap is never used, nor sealed again.
    typeof v.iterations === 'number' &&
    Number.isInteger(v.iterations) &&
    v.iterations >= MIN_PBKDF2_ITERATIONS &&
    v.iterations <= MAX_PBKDF2_ITERATIONS &&
    typeof v.location === 'number' &&
    (v.byPassword === undefined || typeof v.byPassword === 'string') &&
    (v.bySecret === undefined || typeof v.bySecret === 'string') &&
    (v.draftKey === undefined || typeof v.draftKey === 'string') &&
    (v.exportKey === undefined || typeof v.exportKey === 'string') &&
    (v.mirrorOf === undefined || typeof v.mirrorOf === 'number')
  );
}

/** The user's keyring, or null when there is none or it is unusable (damaged, or below the
 * iteration floor: the user then signs in online, and the lock screen refuses offline). */
export function readKeyring(userId: string): Keyring | null {
  const value = read(PREFIX + userId);
  return isKeyring(value, userId) ? value : null;
}

/** Something is stored as the user's keyring, usable or not (a sign-in replaces an unusable one
 * and removes the data only it could open). */
export function hasStoredKeyring(userId: string): boolean {
  return read(PREFIX + userId) !== null;
}

/** Throws when the device refuses to keep it: without its keyring the data would be lost. */
export function writeKeyring(keyring: Keyring): void {
  localStorage.setItem(PREFIX + keyring.userId, JSON.stringify(keyring));
}

export function removeKeyring(userId: string): void {
  try {
    localStorage.removeItem(PREFIX + userId);
  } catch {
    // Nothing kept.
  }
  void clearFailures(userId);
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
// Kept in IndexedDB (database `icrs_vault`, store `failures`, one entry per user), so neither a
// reload nor clearing localStorage resets it.
const FREE_TRIES = 3;
const FIRST_PAUSE_MS = 2_000;
const LONGEST_PAUSE_MS = 5 * 60_000;
const FAILURES_DB = 'icrs_vault';
const FAILURES_STORE = 'failures';

interface Failures {
  count: number;
  at: number;
}

/** Without IndexedDB (a browser that refuses it), the count lives in this page only. */
const inMemory = new Map<string, Failures>();

function failuresDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      const req = indexedDB.open(FAILURES_DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(FAILURES_STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

async function withFailures<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest | null, fallback: T): Promise<T> {
  const db = await failuresDb();
  if (!db) return fallback;
  try {
    return await new Promise<T>((resolve) => {
      const tx = db.transaction(FAILURES_STORE, mode);
      const req = work(tx.objectStore(FAILURES_STORE));
      tx.oncomplete = () => resolve((req?.result as T | undefined) ?? fallback);
      tx.onerror = () => resolve(fallback);
      tx.onabort = () => resolve(fallback);
    });
  } catch {
    return fallback;
  } finally {
    db.close();
  }
}

function isFailures(value: unknown): value is Failures {
  const v = value as Partial<Failures> | null;
  return typeof v?.count === 'number' && typeof v.at === 'number';
}

async function readFailures(userId: string): Promise<Failures> {
  const stored = await withFailures<unknown>('readonly', (store) => store.get(userId), null);
  // The count of the release before, in localStorage: taken in once, the higher one kept.
  const legacy = read(FAILURES + userId);
  const found = [stored, legacy, inMemory.get(userId)].filter(isFailures);
  return found.reduce((a, b) => (b.count > a.count ? b : a), { count: 0, at: 0 });
}

async function writeFailures(userId: string, failures: Failures | null): Promise<void> {
  if (failures) inMemory.set(userId, failures);
  else inMemory.delete(userId);
  await withFailures('readwrite', (store) => (failures ? store.put(failures, userId) : store.delete(userId)), null);
  try {
    localStorage.removeItem(FAILURES + userId);
  } catch {
    // Nothing kept there.
  }
}

/** How long the user must wait before the next try (0: now). */
export async function unlockWaitMs(userId: string, now = Date.now()): Promise<number> {
  const { count, at } = await readFailures(userId);
  if (count < FREE_TRIES) return 0;
  const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (count - FREE_TRIES));
  return Math.max(0, at + pause - now);
}

export async function recordFailure(userId: string, now = Date.now()): Promise<void> {
  const { count } = await readFailures(userId);
  await writeFailures(userId, { count: count + 1, at: now });
}

export async function clearFailures(userId: string): Promise<void> {
  await writeFailures(userId, null);
}
