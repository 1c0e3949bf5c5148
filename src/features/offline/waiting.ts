// "Waiting for parent" on the pending-records screen: the engine sends a child only once its
// parent is on the server (product.md §D6), so a record whose parent is itself still pending on
// this device will not go before it. Derived here from the list and the parent links of
// schemas/, for display only; the engine decides what is sent.
import { useEffect, useState } from 'react';
import { getEntity, getEntityByTable } from '../../../schemas/index';
import { collectionOf, type IcrsDatabase } from '../../lib/data';
import type { PendingRecord } from '../../lib/sync';

export const refOf = (table: string, key: string) => `${table}/${key}`;

/** Refs (`table/key`) of the records whose parent is pending on this device too. */
export async function waitingForParent(db: IcrsDatabase, records: readonly PendingRecord[]): Promise<Set<string>> {
  // A parent of an erased client never goes: its children are not waiting for it.
  const pending = new Set(records.filter((r) => r.state !== 'erased').map((r) => refOf(r.table, r.key)));
  const waiting = new Set<string>();
  const byTable = new Map<string, string[]>();
  for (const record of records) {
    if (record.state === 'conflict') continue;
    byTable.set(record.table, [...(byTable.get(record.table) ?? []), record.key]);
  }
  await Promise.all(
    [...byTable].map(async ([table, keys]) => {
      const entity = getEntityByTable(table);
      const parent = entity?.parent;
      const parentEntity = parent && getEntity(parent.entity);
      if (!entity || !parent || !parentEntity) return;
      const docs = await collectionOf(db, entity).findByIds(keys).exec();
      for (const [key, doc] of docs) {
        const parentKey: unknown = doc.get(parent.field);
        if (typeof parentKey === 'string' && pending.has(refOf(parentEntity.table, parentKey))) waiting.add(refOf(table, key));
      }
    }),
  );
  return waiting;
}

/** The same, kept up to date with the list. */
export function useWaitingForParent(db: IcrsDatabase | null, records: readonly PendingRecord[] | null): ReadonlySet<string> {
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!db || !records) return;
    let cancelled = false;
    waitingForParent(db, records).then(
      (set) => !cancelled && setWaiting(set),
      (error: unknown) => console.warn('Parent links unavailable:', error),
    );
    return () => {
      cancelled = true;
    };
  }, [db, records]);
  return waiting;
}
