// The last upload error of a record lives in its `syncError` (2,000 characters, schemas/derive/rxdb.ts).
// A conflict is kept there too, as JSON, so the state survives reloads without a field of its own:
// the RxDB schemas are derived from schemas/ and a new field would need a migration.
import type { ConflictInfo } from './types';

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
  return conflictOf(syncError) ? CONFLICT : syncError;
}
