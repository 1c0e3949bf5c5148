// Live counts of the records waiting on this device (product.md §D6: only `pending` documents),
// per upload kind. RxDB count queries use the [syncState, sortDesc] index and re-emit on every
// write, in this tab or another (multiInstance), so the offline home never needs a reload.
import { useEffect, useState } from 'react';
import { asyncScheduler, combineLatest, map, throttleTime } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { getEntityByTable, uploadOrder } from '../../../schemas/index';
import { collectionOf, type IcrsDatabase, useDb } from '../../lib/data';
import { messageOf } from '../../lib/http';
import { notify } from '../../lib/ui';
import { t } from '../../lib/session';

/** Pending records per table (product.md §3 names), in upload order. */
export type PendingCounts = Readonly<Record<string, number>>;

/** The kinds the offline home reports on (product.md §2): the upload order of product.md §4. */
export const UPLOAD_KINDS: readonly EntityShape[] = uploadOrder;

/** The translation key that names a kind of record (`table`) on the offline screens and in the
 * upload's summary: its entity's label (`entity.<name>`), as everywhere else in the app. */
export function kindLabel(table: string): string {
  return getEntityByTable(table)?.label ?? table;
}

/** At most one new count per this many ms: an upload removes records one by one, and a
 * re-render of the offline home per record removed cost as much CPU as the upload itself on a
 * busy device (docs/archive/performance-log.md, upload from Chromium). The first and last counts are kept. */
const COUNTS_THROTTLE_MS = 250;

export function pendingCounts$(db: IcrsDatabase) {
  const streams = UPLOAD_KINDS.map((entity) =>
    collectionOf(db, entity)
      .count({ selector: { syncState: 'pending' } })
      .$.pipe(map((n: number) => [entity.table, n] as const)),
  );
  return combineLatest(streams).pipe(
    throttleTime(COUNTS_THROTTLE_MS, asyncScheduler, { leading: true, trailing: true }),
    map((pairs) => Object.fromEntries(pairs) as PendingCounts),
  );
}

export function totalOf(counts: PendingCounts | null): number {
  return counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
}

/** Live pending counts of the signed-in store; null until the first answer. `report`: the
 * screen that shows them says when they cannot be read (product.md §8 'error loading offline stats'). */
export function usePendingCounts(report = false): PendingCounts | null {
  const db = useDb();
  const [counts, setCounts] = useState<PendingCounts | null>(null);
  useEffect(() => {
    if (!db) return;
    const subscription = pendingCounts$(db).subscribe({
      next: setCounts,
      error: (error: unknown) => {
        console.error('Pending counts unavailable:', error);
        if (report) notify.error(t('errors.offlineStatsTitle'), t('errors.offlineStatsText', { message: messageOf(error) }));
      },
    });
    return () => subscription.unsubscribe();
  }, [db, report]);
  return counts;
}

/** Live number of records not uploaded yet (all kinds); null until known. */
export function usePendingTotal(): number | null {
  const counts = usePendingCounts();
  return counts ? totalOf(counts) : null;
}
