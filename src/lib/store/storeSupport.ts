// Can this browser keep the offline store (product.md §2: the offline switch shows "if supported")?
// IndexedDB must exist and accept a database: some private modes offer the object but refuse
// `open`, or have none at all. Probed once per page load with a throwaway database.
const PROBE = 'icrs_probe';

let probe: Promise<boolean> | null = null;

/** True when an IndexedDB database can be opened here; never rejects. */
export function storeSupported(): Promise<boolean> {
  probe ??= new Promise<boolean>((resolve) => {
    try {
      if (typeof indexedDB === 'undefined' || !indexedDB) return resolve(false);
      const request = indexedDB.open(PROBE);
      request.onsuccess = () => {
        request.result.close();
        try {
          indexedDB.deleteDatabase(PROBE);
        } catch {
          // Leaving the empty probe behind harms nothing.
        }
        resolve(true);
      };
      request.onerror = () => resolve(false);
    } catch {
      resolve(false);
    }
  });
  return probe;
}
