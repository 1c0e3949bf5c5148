// The requests of a pull: the feed after a checkpoint (GET /api/sync/{table}) and the current
// rows of some keys (POST /api/sync/{table}/keys), answered as documents to decide on.
import type { EntityShape } from '../../../../schemas/define';
import { syncedDoc, type DocData } from '../../data';
import type { Checkpoint } from './checkpoints';
import type { ReplicationOptions } from './types';

interface PullAnswer {
  documents: (Record<string, unknown> & { _deleted?: boolean })[];
  checkpoint: Checkpoint | null;
}

export type PulledDoc = DocData & { _deleted: boolean };

function pulledDoc(entity: EntityShape, row: PullAnswer['documents'][number]): PulledDoc {
  return { ...syncedDoc(entity, row), _deleted: row._deleted === true };
}

/** The server's current rows of some keys; a key it does not answer is gone from the device's
 * scope (deleted, or never stored), so it comes back as a deletion. */
export async function fetchKeys(
  http: ReplicationOptions['http'],
  entity: EntityShape,
  primary: string,
  keys: readonly string[],
): Promise<PulledDoc[]> {
  const { data } = await http.post<{ documents: PullAnswer['documents'] }>(
    `/sync/${encodeURIComponent(entity.table)}/keys`,
    { keys },
    { silent: true },
  );
  const rows = data.documents.map((row) => pulledDoc(entity, row));
  const found = new Set(rows.map((row) => String(row[primary])));
  const gone = keys.filter((key) => !found.has(key)).map((key): PulledDoc => ({ [primary]: key, _deleted: true }));
  return [...rows, ...gone];
}

export async function fetchBatch(
  http: ReplicationOptions['http'],
  entity: EntityShape,
  checkpoint: Checkpoint | undefined,
  batchSize: number,
) {
  const params = { limit: batchSize, ...(checkpoint ? { updatedAt: checkpoint.updatedAt, id: checkpoint.id } : {}) };
  // Silent: a background pull failing (no network) is retried, not toasted every 5 s.
  const { data } = await http.get<PullAnswer>(`/sync/${encodeURIComponent(entity.table)}`, { params, silent: true });
  return { documents: data.documents.map((row) => pulledDoc(entity, row)), checkpoint: data.checkpoint ?? checkpoint };
}
