// The export file of pending records (ADR-0018: a broken device's work carried to another one)
// holds clients' records and photos: it leaves the browser as a file, so it is sealed too
// (ADR-0020). Its key, the user's **export key**, is the same on each of the user's devices:
// derived (HKDF-SHA-256) from the server's device secret, kept in each keyring sealed under the
// data key, so that a device can export offline and another device of the same user can import.
import { fromBase64, open, seal, toBase64 } from './crypto';
import { t } from '../session';
import { readKeyring, writeKeyring } from './keyring';
import { openBytes, sealBytes } from './vault';

export const SEALED_EXPORT_FORMAT = 'icrs-pending-sealed';
const VERSION = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function exportKeyBytes(secret: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('icrs export salt'), info: encoder.encode('icrs pending export') },
    material,
    256,
  );
  return new Uint8Array(bits);
}

/** Keeps the user's export key in their keyring (the vault open, the device secret known). */
export async function keepExportKey(userId: string, secret: Uint8Array<ArrayBuffer>): Promise<void> {
  const keyring = readKeyring(userId);
  if (!keyring || keyring.exportKey) return;
  const bytes = await exportKeyBytes(secret);
  try {
    writeKeyring({ ...keyring, exportKey: toBase64(await sealBytes(bytes)) });
  } finally {
    bytes.fill(0);
  }
}

async function exportKey(userId: string): Promise<CryptoKey> {
  const sealed = readKeyring(userId)?.exportKey;
  if (!sealed) throw new Error(t('offline.pending.exportNeedsNetwork'));
  const bytes = await openBytes(fromBase64(sealed));
  try {
    return await crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  } finally {
    bytes.fill(0);
  }
}

/** The export `json`, sealed for the user's devices. */
export async function sealExport(userId: string, json: string): Promise<string> {
  const sealed = await seal(await exportKey(userId), encoder.encode(json));
  return JSON.stringify({ format: SEALED_EXPORT_FORMAT, version: VERSION, exportedAt: new Date().toISOString(), sealed: toBase64(sealed) });
}

/** The export inside a sealed file (or the file itself, an export of an earlier version).
 * Throws when the file was sealed for another user. */
export async function openExport(userId: string, text: string): Promise<string> {
  let parsed: { format?: unknown; sealed?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return text; // not JSON: the import says so
  }
  if (parsed?.format !== SEALED_EXPORT_FORMAT) return text;
  if (typeof parsed.sealed !== 'string') throw new Error(t('offline.pending.foreignExport'));
  try {
    return decoder.decode(await open(await exportKey(userId), fromBase64(parsed.sealed)));
  } catch {
    throw new Error(t('offline.pending.foreignExport'));
  }
}
