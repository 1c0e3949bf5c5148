// The pending screen's live list of the records waiting on this device.
import { useEffect, useState } from 'react';
import { useDb } from '../../lib/data';
import { pending$, type PendingRecord } from '../../lib/sync';

/** Live list of the pending records; null until the first answer. */
export function usePendingRecords(): PendingRecord[] | null {
  const db = useDb();
  const [records, setRecords] = useState<PendingRecord[] | null>(null);
  useEffect(() => {
    if (!db) return;
    const subscription = pending$(db).subscribe({
      next: (list: PendingRecord[]) => setRecords(list),
      error: (error: unknown) => {
        console.error('Pending records unavailable:', error);
        setRecords([]);
      },
    });
    return () => subscription.unsubscribe();
  }, [db]);
  return records;
}
