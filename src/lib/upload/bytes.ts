// Image bytes: RxDB keeps them as base64 strings (schemas/README.md "Images"); requests need Blobs.

/** `Uint8Array.fromBase64` (ES2026; Chromium 140+, Firefox 133+, Safari 18.2+): decodes in native
 * code, ~10× faster than atob and a copy loop on a 270 KB photo (docs/performance.md, session 8). */
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;

/** The bytes of a base64 string; a `data:…;base64,` URL prefix is allowed. */
export function base64Bytes(data: string): Uint8Array<ArrayBuffer> {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  const text = comma >= 0 ? data.slice(comma + 1) : data;
  if (fromBase64) {
    try {
      return fromBase64(text);
    } catch {
      // Whitespace or a missing padding atob forgives and fromBase64 may not: the slow path below.
    }
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function blobOf(data: string, type: string): Blob {
  return new Blob([base64Bytes(data)], { type });
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
