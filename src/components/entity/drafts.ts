// Unsaved form drafts (ADR-0025: "forms keep an unsaved draft across a reload"), under
// `draft:<entity>:<key or new>`, among the signed-in user's sealed values (ADR-0020: another user
// of the device never sees them, and they are unreadable at rest; src/lib/vault). Only the typed
// values are kept here; a client registration's files are kept by the vault's draft files.
import { readSealedValue, writeSealedValue } from '../../lib/vault';
import type { RawValues } from './validation';

export interface Draft {
  values: RawValues;
  /** When it was written (ms since epoch), shown when it is restored. */
  savedAt: number;
  /** The record's `updatedAt` the draft started from: a newer server copy is worth a warning. */
  base?: string;
}

const PREFIX = 'draft:';

/** `draft:serviceProvider:<sp_Id>`; a new record's draft is per parent when it has one (a new
 * apprenticeship of one service is not a new apprenticeship of another). */
export function draftKey(entity: string, recordKey?: string | null, parentKey?: string | null): string {
  if (recordKey) return `${PREFIX}${entity}:${recordKey}`;
  return parentKey ? `${PREFIX}${entity}:new:${parentKey}` : `${PREFIX}${entity}:new`;
}

function isDraft(value: unknown): value is Draft {
  const v = value as Partial<Draft> | null;
  return typeof v === 'object' && v !== null && typeof v.savedAt === 'number' && typeof v.values === 'object' && v.values !== null;
}

export function loadDraft(key: string): Draft | null {
  const value = readSealedValue<unknown>(key);
  return isDraft(value) ? value : null;
}

export function saveDraft(key: string, draft: Draft): void {
  writeSealedValue(key, draft);
}

export function clearDraft(key: string): void {
  writeSealedValue(key, undefined);
}
