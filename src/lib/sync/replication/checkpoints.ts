// The pull checkpoints: where each table's pull goes on from, one per table, user and store
// epoch, kept in local documents of the database.
import type { IcrsDatabase } from '../../store';

export interface Checkpoint {
  updatedAt: string;
  id: string;
}

/** The user of a JWT (its `sub`), read without verifying: it only names the checkpoints, so
 * that another user signing in on this device starts a mirror of their own scope. */
export function tokenSubject(token: string): string {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Local documents of the database: one per table, user and store epoch, holding the checkpoint. */
export function checkpointId(table: string, identity: string, epoch: number): string {
  return `pull-checkpoint|${epoch}|${table}|${identity}`;
}

/** The store's epoch names the checkpoints in use: a new epoch starts every pull from the
 * beginning. Kept in a local document so that every tab and every later start sees it. */
const EPOCH_ID = 'pull-epoch';

export async function storeEpoch(db: IcrsDatabase): Promise<number> {
  const saved = await db.getLocal<{ epoch: number }>(EPOCH_ID);
  return (saved?.get('epoch') as number | undefined) ?? 0;
}

/**
 * Forgets every pull checkpoint (after 'Reset Database' emptied the store): the next pull of
 * each table takes every row the server has again. A round in flight may still save its
 * checkpoint, but under the old epoch, which nothing reads any more.
 */
export async function forgetPullCheckpoints(db: IcrsDatabase): Promise<void> {
  await db.upsertLocal(EPOCH_ID, { epoch: (await storeEpoch(db)) + 1 });
}
