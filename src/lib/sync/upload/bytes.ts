// Image bytes: RxDB keeps them as base64 strings (schemas/README.md "Images"); requests need Blobs.

// The one decoder is src/lib/util/base64.ts; the upload engine's names for it.
export { fromBase64 as base64Bytes, base64Blob as blobOf } from '../../util';

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
