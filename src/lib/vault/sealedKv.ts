// Small private values of the signed-in user (the forms' unsaved drafts), sealed at rest: one
// AES-GCM blob per user in localStorage (`icrs.sealed.<userId>`), opened into memory when the
// vault opens, so that the forms read and write synchronously as before.
//
// Why not WebCrypto here: a draft is written when the page goes away (`pagehide`, a reload right
// after a keystroke), and nothing asynchronous finishes then; WebCrypto only answers
// asynchronously. So these values are sealed with AES-GCM by @noble/ciphers (audited, no
// dependency) under a draft key of their own: 32 random bytes kept in the keyring sealed under
// the data key by WebCrypto, and held in memory only while the vault is open.
import { gcm } from '@noble/ciphers/aes.js';
import { fromBase64, randomBytes, toBase64 } from './crypto';
import { readKeyring, writeKeyring } from './keyring';
import { isVaultOpen, openBytes, sealBytes } from './vault';

const PREFIX = 'icrs.sealed.';
const NONCE_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

let owner: string | null = null;
let draftKey: Uint8Array | null = null;
let values = new Map<string, unknown>();

/** The user's draft key, made on first use (the vault must be open). */
async function openDraftKey(userId: string): Promise<Uint8Array> {
  const keyring = readKeyring(userId);
  if (keyring?.draftKey) return openBytes(fromBase64(keyring.draftKey));
  const key = randomBytes(32);
  if (keyring) writeKeyring({ ...keyring, draftKey: toBase64(await sealBytes(key)) });
  return key;
}

function sealNow(key: Uint8Array, value: unknown): string {
  const nonce = randomBytes(NONCE_BYTES);
  const sealed = gcm(key, nonce).encrypt(encoder.encode(JSON.stringify(value)));
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce);
  out.set(sealed, NONCE_BYTES);
  return toBase64(out);
}

function openNow(key: Uint8Array, sealed: string): unknown {
  const bytes = fromBase64(sealed);
  return JSON.parse(decoder.decode(gcm(key, bytes.subarray(0, NONCE_BYTES)).decrypt(bytes.subarray(NONCE_BYTES))));
}

/** Opens the user's values (the vault must be open). A blob that cannot be opened (another
 * key, damaged) is dropped: drafts are a convenience, never a record. */
export async function openSealedValues(userId: string): Promise<void> {
  closeSealedValues();
  const key = await openDraftKey(userId);
  owner = userId;
  draftKey = key;
  let raw: string | null;
  try {
    raw = localStorage.getItem(PREFIX + userId);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    values = new Map(Object.entries(openNow(key, raw) as Record<string, unknown>));
  } catch (error) {
    console.warn('Saved drafts could not be opened, and are dropped:', error);
    removeSealedValues(userId);
  }
}

/** Forgets the values and their key (lock, sign-out). */
export function closeSealedValues(): void {
  draftKey?.fill(0);
  owner = null;
  draftKey = null;
  values = new Map();
}

export function removeSealedValues(userId: string): void {
  try {
    localStorage.removeItem(PREFIX + userId);
  } catch {
    // Nothing kept.
  }
}

function usable(): boolean {
  return owner !== null && draftKey !== null && isVaultOpen(owner);
}

export function readSealedValue<T>(key: string): T | null {
  return usable() ? ((values.get(key) as T | undefined) ?? null) : null;
}

/** Sets (or with undefined removes) a value, stored sealed at once. */
export function writeSealedValue(key: string, value: unknown): void {
  if (!usable()) return;
  if (value === undefined) values.delete(key);
  else values.set(key, value);
  try {
    if (values.size === 0) removeSealedValues(owner!);
    else localStorage.setItem(PREFIX + owner!, sealNow(draftKey!, Object.fromEntries(values)));
  } catch (error) {
    console.warn('A draft could not be kept on this device:', error);
  }
}

/** Empties the user's values (the account moved to another organisation). */
export function clearSealedValues(): void {
  if (!usable()) return;
  values.clear();
  removeSealedValues(owner!);
}
