// What versions before the sealed store (ADR-0020) left in clear on the device, removed at start: the forms' drafts
// in localStorage (`draft:*`) and their files' database (`icrs_drafts`). The old shared store
// and its owner summary (`icrs.unsent`) go once their pending records are taken by their user
// (src/lib/store/legacyStore.ts).
import { deleteDatabase } from '../store';

const KEYS = /^draft:/;

export function forgetLegacyData(): void {
  try {
    const stale: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && KEYS.test(key)) stale.push(key);
    }
    for (const key of stale) localStorage.removeItem(key);
  } catch {
    // No storage: nothing left behind either.
  }
  // Raw IndexedDB, not Dexie: this runs at every start, and Dexie stays out of the first screen's
  // code (ADR-0035).
  if (typeof indexedDB !== 'undefined') void deleteDatabase('icrs_drafts').catch(() => undefined);
}
