// The last upload error of a record lives in its `syncError` (2,000 characters, schemas/derive/rxdb.ts).
// A conflict is kept there too, as JSON, so the state survives reloads without a field of its own:
// the RxDB schemas are derived from schemas/ and a new field would need a migration.
import type { ConflictInfo, DeletedInfo } from './types';

export const SYNC_ERROR_MAX = 2000;
export const CONFLICT = 'conflict';

interface StoredConflict extends ConflictInfo {
  conflict: true;
  message: string;
}

/** An error text that fits the field. */
export function errorText(message: string): string {
  return message.length > SYNC_ERROR_MAX ? `${message.slice(0, SYNC_ERROR_MAX - 1)}…` : message;
}

/** The `syncError` of a conflict. The server's values are left out when they do not fit:
 * the pending screen can still read the server copy by its key. */
export function conflictText(info: ConflictInfo): string {
  const full: StoredConflict = { conflict: true, message: CONFLICT, ...info };
  const text = JSON.stringify(full);
  if (text.length <= SYNC_ERROR_MAX) return text;
  return JSON.stringify({ conflict: true, message: CONFLICT, updatedAt: info.updatedAt });
}

/** The conflict kept in `syncError`, if that is what it holds. */
export function conflictOf(syncError: unknown): ConflictInfo | undefined {
  if (typeof syncError !== 'string' || !syncError.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(syncError) as Partial<StoredConflict>;
    if (parsed.conflict !== true || typeof parsed.updatedAt !== 'string') return undefined;
    return parsed.server ? { updatedAt: parsed.updatedAt, server: parsed.server } : { updatedAt: parsed.updatedAt };
  } catch {
    return undefined;
  }
}

/** The text to show for `syncError`. */
export function shownError(syncError: unknown): string | undefined {
  if (typeof syncError !== 'string' || !syncError) return undefined;
  return conflictOf(syncError) ? CONFLICT : (deletedOf(syncError)?.message ?? erasedOf(syncError)?.message ?? syncError);
}

/** The record's client was erased on the server (410 'http.clientErased', docs/security.md
 * "Erased means gone"): its `syncError`, kept as JSON like a deletion's, with the server's
 * message; undefined for any other failure. Such a record is never sent again (prepareRecords)
 * nor retried: the user can only discard it, so the client's data never reaches the server. */
export function erasedText(
  status: number | undefined,
  body: Readonly<Record<string, unknown>> | undefined,
  message: string,
): string | undefined {
  if (status !== 410 || body?.code !== 'http.clientErased') return undefined;
  return JSON.stringify({ erased: true, message: message.slice(0, 500) || 'erased' });
}

/** The erasure kept in `syncError`, if that is what it holds. */
export function erasedOf(syncError: unknown): { message: string } | undefined {
  if (typeof syncError !== 'string' || !syncError.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(syncError) as { erased?: unknown; message?: unknown };
    return parsed.erased === true ? { message: typeof parsed.message === 'string' ? parsed.message : '' } : undefined;
  } catch {
    return undefined;
  }
}

/** The record was deleted on the server (404 'http.recordDeleted' with `deleted`, ADR-0023):
 * its `syncError`, kept as JSON like a conflict's; undefined for any other failure. */
export function deletedText(
  status: number | undefined,
  body: Readonly<Record<string, unknown>> | undefined,
  message: string,
): string | undefined {
  const deleted = body?.deleted as Partial<Record<keyof DeletedInfo, unknown>> | undefined;
  if (status !== 404 || body?.code !== 'http.recordDeleted' || !deleted || typeof deleted.at !== 'string') return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 500) : undefined);
  return JSON.stringify({
    deleted: true,
    message: text(message) ?? 'deleted',
    at: deleted.at,
    by: text(deleted.by),
    reason: text(deleted.reason),
  });
}

/** The deletion kept in `syncError`, if that is what it holds. */
export function deletedOf(syncError: unknown): (DeletedInfo & { message: string }) | undefined {
  if (typeof syncError !== 'string' || !syncError.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(syncError) as Partial<DeletedInfo & { deleted: boolean; message: string }>;
    if (parsed.deleted !== true || typeof parsed.at !== 'string') return undefined;
    return {
      message: parsed.message ?? '',
      at: parsed.at,
      ...(parsed.by ? { by: parsed.by } : {}),
      ...(parsed.reason ? { reason: parsed.reason } : {}),
    };
  } catch {
    return undefined;
  }
}
