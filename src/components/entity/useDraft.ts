// Keeps an EntityForm's unsaved values in localStorage while the user types, and forgets them
// once saved or cancelled.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { clearDraft, loadDraft, saveDraft, type Draft } from './drafts';
import { sameValues } from './formState';
import type { RawValues } from './validation';

/** Pause after the last change before the draft is written. */
export const DRAFT_DELAY_MS = 300;

export interface DraftControl {
  /** Stop keeping a draft (saved or cancelled) and delete the stored one. */
  close: () => void;
  /** Delete the stored draft and keep watching (the user discarded it). */
  discard: () => void;
}

/** The draft stored under `key` when the form opens (null if none or disabled). */
export function useRestoredDraft(key: string, enabled: boolean): Draft | null {
  const [restored] = useState(() => (enabled ? loadDraft(key) : null));
  return restored;
}

/** Runs the write waiting in `pending` at once when the page goes or the form closes: a reload
 * right after a keystroke, or leaving the screen, must not lose it. */
export function useFlushOnLeave(pending: RefObject<(() => void) | null>): void {
  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [pending]);
}

export function useDraft(key: string, enabled: boolean, raw: RawValues, baseline: RawValues, base?: string): DraftControl {
  const closed = useRef(false);
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    const write = () => {
      pending.current = null;
      if (closed.current) return;
      if (sameValues(raw, baseline)) clearDraft(key);
      else saveDraft(key, { values: raw, savedAt: Date.now(), ...(base ? { base } : {}) });
    };
    pending.current = write;
    const timer = setTimeout(write, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, key, raw, baseline, base]);
  useFlushOnLeave(pending);
  return {
    close: () => {
      closed.current = true;
      clearDraft(key);
    },
    discard: () => clearDraft(key),
  };
}
