// AES-GCM sealing of bytes and text under a key (docs/security.md "Shared and lost devices"):
// the format every sealed value of the device has, whichever thread seals it (the vault's, and
// the store's worker, src/lib/store/storeWorker.ts). Pure functions over keys and bytes.
import { fromBase64, toBase64 } from './base64';

const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** AES-GCM of `plain` under `key`: a fresh 96-bit IV, then the ciphertext with its tag. */
export async function seal(key: CryptoKey, plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return out;
}

/** The plain bytes of `sealed`; rejects when the key is not the one that sealed it, or the bytes were changed. */
export async function open(key: CryptoKey, sealed: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = sealed.subarray(0, IV_BYTES);
  return new Uint8Array(await globalThis.crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed.subarray(IV_BYTES)));
}

export async function sealText(key: CryptoKey, text: string): Promise<string> {
  return toBase64(await seal(key, encoder.encode(text)));
}

export async function openText(key: CryptoKey, sealed: string): Promise<string> {
  return decoder.decode(await open(key, fromBase64(sealed)));
}
