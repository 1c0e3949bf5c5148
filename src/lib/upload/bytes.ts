// Image bytes: RxDB keeps them as base64 strings (schemas/README.md "Images"); requests need Blobs.

/** The bytes of a base64 string; a `data:…;base64,` URL prefix is allowed. */
export function base64Bytes(data: string): Uint8Array<ArrayBuffer> {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
  const binary = atob(comma >= 0 ? data.slice(comma + 1) : data);
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
