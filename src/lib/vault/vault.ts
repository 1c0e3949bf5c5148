// The one place where client data kept on the device is sealed and opened (ADR-0020,
// docs/security.md "Shared and lost devices"). A random AES-GCM data key per user and device
// lives in this page's memory only, while the vault is open; the device keeps it sealed under
// the user's password (PBKDF2) and under the server's device secret (HKDF), in the user's
// keyring (keyring.ts). Locked, nothing of the user's client data can be read here.
import {
  newDataKey,
  newSalt,
  open,
  openText,
  passwordKey,
  PBKDF2_ITERATIONS,
  seal,
  sealText,
  secretKey,
  toBase64,
  fromBase64,
  unwrapDataKey,
} from './crypto';
import type { Sealer } from '../store';
import { clearFailures, hasStoredKeyring, readKeyring, recordFailure, unlockWaitMs, writeKeyring, type Keyring } from './keyring';

export class VaultLockedError extends Error {
  constructor() {
    super('The device vault is locked: sign in again to read this data');
    this.name = 'VaultLockedError';
  }
}

interface OpenVault {
  userId: string;
  key: CryptoKey;
}

let current: OpenVault | null = null;
const listeners = new Set<() => void>();

function setOpen(next: OpenVault | null): void {
  current = next;
  knownOpenings.clear(); // plain text sealed under a key no longer open
  knownOpeningsChars = 0;
  for (const listener of listeners) listener();
}

/** Called whenever the vault opens or locks. Returns the unsubscribe. */
export function onVaultChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The user whose vault is open in this page, or null. */
export function openVaultUser(): string | null {
  return current?.userId ?? null;
}

export function isVaultOpen(userId?: string): boolean {
  return current !== null && (userId === undefined || current.userId === userId);
}

/** The open user's data key, not extractable: for the pull's worker, which seals as the vault
 * does (docs/adr/0051-pull-in-a-worker.md). Throws VaultLockedError when locked. */
export function dataKey(): CryptoKey {
  if (!current) throw new VaultLockedError();
  return current.key;
}

/** The key leaves memory (sign-out, idle lock). */
export function lockVault(): void {
  if (current) setOpen(null);
}

/** Opens the vault with a data key received from another tab of the same user. */
export function openWithKey(userId: string, key: CryptoKey): void {
  setOpen({ userId, key });
}

/** The open data key, to hand to another tab of the same user (tabs.ts). */
export function sharedKey(userId: string): CryptoKey | null {
  return current?.userId === userId ? current.key : null;
}

export type PasswordUnlock =
  { ok: true } | { ok: false; reason: 'wrong' | 'noKeyring' | 'noPasswordKey' } | { ok: false; reason: 'wait'; waitMs: number };

/** Opens the vault offline with the user's password: refused when wrong, and slower after
 * repeated failures (the pause is kept on the device). */
export async function unlockWithPassword(userId: string, password: string): Promise<PasswordUnlock> {
  const keyring = readKeyring(userId);
  if (!keyring) return { ok: false, reason: 'noKeyring' };
  if (!keyring.byPassword) return { ok: false, reason: 'noPasswordKey' };
  const waitMs = await unlockWaitMs(userId);
  if (waitMs > 0) return { ok: false, reason: 'wait', waitMs };
  try {
    const wrapper = await passwordKey(password, fromBase64(keyring.salt), keyring.iterations);
    const { key } = await unwrapDataKey(wrapper, keyring.byPassword);
    await clearFailures(userId);
    setOpen({ userId, key });
    return { ok: true };
  } catch {
    await recordFailure(userId);
    return { ok: false, reason: 'wrong' };
  }
}

/** A failed check of the password by the server, counted with the device's own (the lock screen). */
export function passwordRefused(userId: string): Promise<void> {
  return recordFailure(userId);
}

/** How long the lock screen waits before the next try (0: now). */
export function waitBeforeUnlock(userId: string): Promise<number> {
  return unlockWaitMs(userId);
}

/** The data key of `keyring` opened by the first of `secrets` that sealed it, with the key wrap
 * under the first (the current one) when it was opened by another. */
async function openBySecrets(keyring: Keyring, secrets: readonly Uint8Array<ArrayBuffer>[], rewrapUnder: CryptoKey[] = []) {
  if (!keyring.bySecret || secrets.length === 0) return null;
  const salt = fromBase64(keyring.salt);
  const current = await secretKey(secrets[0], salt);
  for (const [i, secret] of secrets.entries()) {
    try {
      const wrapper = i === 0 ? current : await secretKey(secret, salt);
      const { key, rewrapped } = await unwrapDataKey(wrapper, keyring.bySecret, [current, ...rewrapUnder]);
      return { key, bySecret: rewrapped[0], others: rewrapped.slice(1), sealedAgain: i > 0 };
    } catch {
      // Not this one: an older secret, or one this device never had.
    }
  }
  return null;
}

/** Opens the vault with the server's device secret (a signed-in reload while online), or one of
 * the secrets before its last rotations, newest first (the keyring is then sealed again under
 * the current one). False when this device has no keyring sealed under any of them. */
export async function unlockWithSecret(
  userId: string,
  secret: Uint8Array<ArrayBuffer>,
  previous: readonly Uint8Array<ArrayBuffer>[] = [],
): Promise<boolean> {
  const keyring = readKeyring(userId);
  if (!keyring) return false;
  const opened = await openBySecrets(keyring, [secret, ...previous]);
  if (!opened) return false;
  if (opened.sealedAgain) writeKeyring({ ...keyring, bySecret: opened.bySecret });
  setOpen({ userId, key: opened.key });
  return true;
}

export interface SignInKeys {
  userId: string;
  password: string;
  /** The server's device secret; null when it could not be had (the password alone then seals). */
  secret: Uint8Array<ArrayBuffer> | null;
  /** The secrets before its last rotations, newest first (a keyring sealed under one opens). */
  previous?: readonly Uint8Array<ArrayBuffer>[];
  location: number;
}

export type SignInOutcome = 'created' | 'opened' | 'replaced' | 'deferred';

/**
 * At a sign-in the server accepted: opens this user's vault with the password, or with the
 * device secret (the current one or one before its rotations) when the password changed since,
 * then seals it under the password and the current secret; or makes a new data key when the
 * device has none for the user. `replaced` means the old keyring could be opened by neither (or
 * was unusable: damaged, below the iteration floor): its data cannot be read any more and must
 * go (the caller removes it). `deferred`: the password does not open it and the secret was not
 * given; the vault stays locked.
 */
export async function openAtSignIn({ userId, password, secret, previous = [], location }: SignInKeys): Promise<SignInOutcome> {
  const existing = readKeyring(userId);
  const stored = existing !== null || hasStoredKeyring(userId);
  if (existing) {
    const salt = fromBase64(existing.salt);
    const byPassword = await passwordKey(password, salt, existing.iterations);
    const opened = await firstOpened(existing, byPassword, secret ? [secret, ...previous] : []);
    if (opened) {
      writeKeyring({ ...existing, byPassword: opened.byPassword, ...(opened.bySecret ? { bySecret: opened.bySecret } : {}) });
      await clearFailures(userId);
      setOpen({ userId, key: opened.key });
      return 'opened';
    }
  }
  // Not opened by this password, and the secret could not be asked (no network, or a
  // temporary password the server keeps it back for): the keyring waits for the secret. It is
  // never replaced without it, which would lose the records it seals.
  if (stored && !secret) return 'deferred';
  const salt = newSalt();
  const wrappers = await Promise.all([passwordKey(password, salt), ...(secret ? [secretKey(secret, salt)] : [])]);
  const { key, wrapped } = await newDataKey(wrappers);
  const keyring: Keyring = {
    v: 1,
    userId,
    salt: toBase64(salt),
    iterations: PBKDF2_ITERATIONS,
    byPassword: wrapped[0],
    ...(wrapped[1] ? { bySecret: wrapped[1] } : {}),
    location,
  };
  writeKeyring(keyring);
  await clearFailures(userId);
  setOpen({ userId, key });
  return stored ? 'replaced' : 'created';
}

/** The data key of `keyring` opened by the password or one of `secrets` (the current first),
 * sealed again under the password and the current secret. */
async function firstOpened(keyring: Keyring, byPassword: CryptoKey, secrets: readonly Uint8Array<ArrayBuffer>[]) {
  const current = secrets[0] ? await secretKey(secrets[0], fromBase64(keyring.salt)) : null;
  if (keyring.byPassword) {
    try {
      const { key, rewrapped } = await unwrapDataKey(byPassword, keyring.byPassword, current ? [byPassword, current] : [byPassword]);
      return { key, byPassword: rewrapped[0], bySecret: rewrapped[1] as string | undefined };
    } catch {
      // A password changed elsewhere: the secret opens it.
    }
  }
  const opened = await openBySecrets(keyring, secrets, [byPassword]);
  return opened ? { key: opened.key, byPassword: opened.others[0], bySecret: opened.bySecret } : null;
}

/** After a password change made here: the data key sealed under the new password. */
export async function rewrapPassword(userId: string, oldPassword: string, newPassword: string): Promise<boolean> {
  const keyring = readKeyring(userId);
  if (!keyring?.byPassword) return false;
  const salt = fromBase64(keyring.salt);
  try {
    const [before, after] = await Promise.all([
      passwordKey(oldPassword, salt, keyring.iterations),
      passwordKey(newPassword, salt, keyring.iterations),
    ]);
    const { rewrapped } = await unwrapDataKey(before, keyring.byPassword, [after]);
    writeKeyring({ ...keyring, byPassword: rewrapped[0] });
    return true;
  } catch {
    return false;
  }
}

/** The organisations of the user's data on this device: `records`, what its pending records
 * were collected for; `mirror`, whose records it mirrors. Null without a keyring. */
export function keyringOrganisations(userId: string): { records: number; mirror: number } | null {
  const keyring = readKeyring(userId);
  return keyring ? { records: keyring.location, mirror: keyring.mirrorOf ?? keyring.location } : null;
}

/** True when the device's mirror holds another organisation's records than `location`'s: the
 * account was moved (ADR-0020), and that mirror must go before anything of it is shown. */
export function mirrorIsOtherThan(userId: string, location: number): boolean {
  const held = keyringOrganisations(userId);
  return held !== null && held.mirror !== location;
}

export function setKeyringOrganisations(userId: string, organisations: { records?: number; mirror?: number }): void {
  const keyring = readKeyring(userId);
  if (!keyring) return;
  writeKeyring({
    ...keyring,
    ...(organisations.records !== undefined ? { location: organisations.records } : {}),
    ...(organisations.mirror !== undefined ? { mirrorOf: organisations.mirror } : {}),
  });
}

// Sealing, for the store and the drafts. A locked vault throws VaultLockedError.

export async function sealJson(value: unknown): Promise<string> {
  return sealText(dataKey(), JSON.stringify(value));
}

export async function openJson<T = unknown>(sealed: string): Promise<T> {
  return JSON.parse(await openText(dataKey(), sealed)) as T;
}

/** Sealed texts the pull's worker has just sealed under the open key, with the JSON it sealed
 * (docs/adr/0051-pull-in-a-worker.md): the page's store hears the worker's writes as sealed
 * documents, and opens each of them once, here, without decrypting what this device sealed a
 * moment ago. Taken at their opening; the oldest dropped past the bound (a write the storage
 * refused is never heard); cleared whenever the vault opens or locks. */
const knownOpenings = new Map<string, string>();
/** The JSON kept at most, in characters: a few pages of the feed (a phone's memory is small). */
const KNOWN_OPENINGS_MAX_CHARS = 4_000_000;
let knownOpeningsChars = 0;

function forgetOpening(sealed: string): void {
  knownOpeningsChars -= knownOpenings.get(sealed)?.length ?? 0;
  knownOpenings.delete(sealed);
}

/** The worker's sealed texts and their JSON, for their opening on this page. */
export function knowOpenings(pairs: readonly (readonly [sealed: string, json: string])[]): void {
  if (!current) return;
  for (const [sealed, json] of pairs) {
    forgetOpening(sealed);
    knownOpenings.set(sealed, json);
    knownOpeningsChars += json.length;
  }
  for (const sealed of knownOpenings.keys()) {
    if (knownOpeningsChars <= KNOWN_OPENINGS_MAX_CHARS) break;
    forgetOpening(sealed);
  }
}

function openDocument(sealed: string): Promise<Record<string, unknown>> {
  const json = knownOpenings.get(sealed);
  if (json === undefined) return openJson<Record<string, unknown>>(sealed);
  forgetOpening(sealed);
  return Promise.resolve(JSON.parse(json) as Record<string, unknown>);
}

/** The store's client documents sealed under the open user's data key (the store is given it
 * when it opens: it imports no vault, ADR-0049). */
export const vaultSealer: Sealer = { seal: sealJson, open: openDocument };

export async function sealBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return seal(dataKey(), bytes);
}

export async function openBytes(sealed: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return open(dataKey(), sealed);
}
