// The sealed files of an unsaved registration (draftFiles.ts), reached through the vault's index
// without loading them: draftFiles.ts brings Dexie, which the first screen must not wait for
// (ADR-0035), so it loads on the first call, in call order (a clear after a keep still waits
// for it: each call reaches draftFiles.ts in the order it was made).
import type { DraftFileInput } from './draftFiles';

export type { DraftFileInput };

const drafts = (): Promise<typeof import('./draftFiles')> => import('./draftFiles');

export function keepDraftFiles(draft: string, files: readonly DraftFileInput[]): Promise<void> {
  return drafts().then((module) => module.keepDraftFiles(draft, files));
}

export function loadDraftFiles(draft: string): Promise<DraftFileInput[]> {
  return drafts().then((module) => module.loadDraftFiles(draft));
}

export function clearDraftFiles(draft: string): Promise<void> {
  return drafts().then((module) => module.clearDraftFiles(draft));
}
