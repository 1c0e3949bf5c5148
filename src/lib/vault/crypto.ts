// The cryptography of the device's vault (docs/security.md "Shared and lost devices"), WebCrypto
// only: AES-GCM 256 for data, PBKDF2-SHA-256 for the key a password gives, HKDF-SHA-256 for the
// key the server's device secret gives. Pure functions over keys and bytes; who holds the keys
// is vault.ts.
import { fromBase64, open, seal, toBase64 } from '../util';

// The vault's modules take base64 and AES-GCM's sealing from here (one of each for the app:
// src/lib/util/base64.ts, src/lib/util/aesGcm.ts).
export { fromBase64, fromBase64Url, open, openText, seal, sealText, toBase64 } from '../util';

/** OWASP's current recommendation for PBKDF2-HMAC-SHA-256 (Password Storage Cheat Sheet). */
export const PBKDF2_ITERATIONS = 600_000;
/** The floor: a keyring stored with fewer is refused as tampered, never opened nor sealed again
 * (docs/security.md "Shared and lost devices"). */
export const MIN_PBKDF2_ITERATIONS = 600_000;
/** And a ceiling, so that a changed count cannot hang the lock screen. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;
const encoder = new TextEncoder();

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export const newSalt = (): Uint8Array<ArrayBuffer> => randomBytes(SALT_BYTES);

/** The data key's use: encrypt and decrypt, never exported. */
function importDataKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** A key that encrypts the data key (a wrapping key), from a password. Slow on purpose. */
export async function passwordKey(password: string, salt: Uint8Array<ArrayBuffer>, iterations = PBKDF2_ITERATIONS): Promise<CryptoKey> {
  if (!(iterations >= MIN_PBKDF2_ITERATIONS && iterations <= MAX_PBKDF2_ITERATIONS))
    throw new Error('PBKDF2 iteration count out of bounds');
  const material = await subtle().importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** A wrapping key from the server's device secret and this device's salt. */
export async function secretKey(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: encoder.encode('icrs device data key') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** A new data key: its bytes sealed under each wrapping key, and the key itself (not extractable). */
export async function newDataKey(wrappers: readonly CryptoKey[]): Promise<{ key: CryptoKey; wrapped: string[] }> {
  const raw = randomBytes(KEY_BYTES);
  try {
    const wrapped = await Promise.all(wrappers.map(async (wrapper) => toBase64(await seal(wrapper, raw))));
    return { key: await importDataKey(raw), wrapped };
  } finally {
    raw.fill(0); // the bytes live no longer than the wrapping
  }
}

/** The data key `wrapped` under `wrapper`, and the same key wrapped under `rewrap` (each optional). */
export async function unwrapDataKey(
  wrapper: CryptoKey,
  wrapped: string,
  rewrap: readonly CryptoKey[] = [],
): Promise<{ key: CryptoKey; rewrapped: string[] }> {
  const raw = await open(wrapper, fromBase64(wrapped));
  try {
    const rewrapped = await Promise.all(rewrap.map(async (other) => toBase64(await seal(other, raw))));
    return { key: await importDataKey(raw), rewrapped };
  } finally {
    raw.fill(0);
  }
}
