// The pending-records screen's view of the store (ADR-0018): what is waiting, why, and the
// user's choices on it. All of it is read from the documents themselves.
import { combineLatest, map, type Observable } from 'rxjs';
import type { EntityShape } from '../../../../schemas/define';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../store';
import { forgetPullCheckpoints } from '../replication';
import { collection, labelOf, pendingDocs, readDoc, dropLocalEdit, uploadKind, UPLOAD_KINDS, type DocData, type LocalDoc } from './store';
import { conflictOf, deletedOf, erasedOf, shownError } from './sync-error';
import type { PendingRecord } from './types';

const PENDING = { selector: { syncState: 'pending' }, sort: [{ sortDesc: 'asc' as const }] };

function toPending(entity: EntityShape, doc: LocalDoc): PendingRecord {
  const data = doc.toJSON() as DocData;
  const conflict = conflictOf(data.syncError);
  const lastError = shownError(data.syncError);
  const deleted = deletedOf(data.syncError);
  return {
    table: entity.table,
    key: doc.primary,
    label: labelOf(entity, data),
    op: data.syncOp ?? 'create',
    state: conflict ? 'conflict' : deleted ? 'deleted' : erasedOf(data.syncError) ? 'erased' : lastError ? 'failed' : 'pending',
    attempts: data.syncAttempts ?? 0,
    ...(lastError ? { lastError } : {}),
    ...(conflict ? { conflict } : {}),
    ...(deleted
      ? { deleted: { at: deleted.at, ...(deleted.by ? { by: deleted.by } : {}), ...(deleted.reason ? { reason: deleted.reason } : {}) } }
      : {}),
  };
}

/** Every pending record, in upload order, newest first within a kind. */
export async function listPending(db: IcrsDatabase): Promise<PendingRecord[]> {
  const lists = await Promise.all(UPLOAD_KINDS.map(async (e) => (await pendingDocs(db, e)).map((d) => toPending(e, d))));
  return lists.flat();
}

/** The same, live. */
export function pending$(db: IcrsDatabase): Observable<PendingRecord[]> {
  const perKind = UPLOAD_KINDS.map((e) =>
    collection(db, e)
      .find(PENDING)
      .$.pipe(map((docs) => docs.map((d) => toPending(e, d)))),
  );
  return combineLatest(perKind).pipe(map((lists) => lists.flat()));
}

/** Pending records on this device (what the offline home and the unsent-work warnings count). */
export async function countPending(db: IcrsDatabase): Promise<number> {
  const counts = await Promise.all(
    UPLOAD_KINDS.map((e) =>
      collection(db, e)
        .count({ selector: { syncState: 'pending' } })
        .exec(),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Marks a failed record to be sent again by the next upload (the pending screen's "retry"): its
 * attempts and last error are cleared. Every pending record is sent by every upload anyway; to
 * send this one at once, call `uploadAll(deps, { only: [{ table, key }] })`. A conflict is not
 * retried (it would be refused again): settle it with `resolveConflict`. Answers false when
 * there was nothing to retry, and for a record whose client was erased on the server.
 */
export async function retry(db: IcrsDatabase, table: string, key: string): Promise<boolean> {
  const doc = await readDoc(db, uploadKind(table), key);
  // A record of an erased client is never sent again (docs/security.md "Erased means gone").
  if (doc?.syncState !== 'pending' || conflictOf(doc.syncError) || erasedOf(doc.syncError)) return false;
  await doc.incrementalModify((d) => {
    const next: DocData = { ...d, syncAttempts: 0 };
    delete next.syncError;
    return next;
  });
  return true;
}

/**
 * Settles a conflict. 'mine': the local copy becomes an update of the server's current version
 * (sent by the next upload, and refused again if the server changes once more); 'server': the
 * local copy and its images are dropped, and the server's copy comes back with the next pull.
 * Answers false when there was no such conflict.
 */
export async function resolveConflict(db: IcrsDatabase, table: string, key: string, keep: 'mine' | 'server'): Promise<boolean> {
  const entity = uploadKind(table);
  const doc = await readDoc(db, entity, key);
  const conflict = doc && conflictOf(doc.syncError);
  if (!doc || !conflict) return false;
  if (keep === 'server') {
    await dropLocalEdit(db, entity, doc);
    return true;
  }
  await doc.incrementalModify((d) => {
    const next: DocData = { ...d, syncOp: 'update', syncBase: conflict.updatedAt, syncAttempts: 0 };
    delete next.syncError;
    return next;
  });
  return true;
}

/** Drops a pending record and its images for good (the user's explicit choice on the pending
 * screen, after a confirmation). Answers false when there was no such pending record. */
export async function discardPending(db: IcrsDatabase, table: string, key: string): Promise<boolean> {
  const entity = uploadKind(table);
  const doc = await readDoc(db, entity, key);
  if (doc?.syncState !== 'pending') return false;
  await dropLocalEdit(db, entity, doc);
  return true;
}

/** Empties every collection of icrs_db (product.md §2 'Reset Database'; the screen confirms first,
 * and warns when records are still pending). The pull checkpoints go too, so the server's
 * records come back at the next pull instead of only when each of them changes. */
export async function resetDatabase(db: IcrsDatabase): Promise<void> {
  await Promise.all(OFFLINE_ENTITIES.map((e) => collectionOf(db, e).find().remove()));
  await forgetPullCheckpoints(db);
}
