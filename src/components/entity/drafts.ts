// Unsaved form drafts in localStorage (issue 5: "forms keep an unsaved draft across a reload"),
// under `draft:<entity>:<key or new>`. Only the typed values are kept: images are blobs, too big
// for localStorage, and are picked again.
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
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isDraft(parsed) ? parsed : null;
  } catch {
    return null; // storage disabled or a corrupt entry: start from the record
  }
}

export function saveDraft(key: string, draft: Draft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Quota or disabled storage: the form still works, only the reload safety net is lost.
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored.
  }
}
