// Base64 in the browser, once for the app: RxDB keeps images as base64 (schemas/README.md
// "Images"), the vault keeps sealed values and keys as base64, requests need bytes or Blobs.

/** `Uint8Array.fromBase64` / `toBase64` (ES2026; Chromium 140+, Firefox 133+, Safari 18.2+): native
 * code, ~10× faster than atob and a copy loop on a 270 KB photo, 0.3 ms against 51 ms to encode a
 * sealed photo (docs/performance.md "Device privacy"). */
const nativeFrom = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;

/** String.fromCharCode takes its arguments on the stack: stay well below its limit. */
const CHUNK = 0x8000;

/** The bytes of a base64 string; a `data:…;base64,` URL prefix is allowed. */
export function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  const text = comma >= 0 ? data.slice(comma + 1) : data;
  if (nativeFrom) {
    try {
      return nativeFrom(text);
    } catch {
      // Whitespace or a missing padding atob forgives and fromBase64 may not: the slow path below.
    }
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** base64url (the server's device secret) to bytes. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(plain + '='.repeat((4 - (plain.length % 4)) % 4));
}

/** Base64 of bytes, without a library or a per-byte string concatenation over large arrays. */
export function toBase64(bytes: Uint8Array): string {
  const native = (bytes as unknown as { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let text = '';
  for (let i = 0; i < bytes.length; i += CHUNK) text += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(text);
}

/** The Blob of stored base64 (an image waiting in the store, as requests and previews need it). */
export function base64Blob(data: string, type: string): Blob {
  return new Blob([fromBase64(data)], { type });
}

/** Base64 of a Blob (a picked file, as the store keeps it). */
export async function blobBase64(blob: Blob): Promise<string> {
  return toBase64(new Uint8Array(await blob.arrayBuffer()));
}
