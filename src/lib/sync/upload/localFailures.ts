// Local failures while a record is read or stored: they fail that record, not the run.
import type { EntityShape } from '../../../../schemas/define';
import { uploadRecord, type Outcome, type RecordContext } from './record';

export function errorTitle(entity: EntityShape): string {
  return entity.upload?.errorTitle ?? entity.table;
}

export function localFailure(ctx: RecordContext, entity: EntityShape, error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  ctx.notify(errorTitle(entity), message);
  return { status: 'failed', message, images: 0, transient: false };
}

/** A local failure (storage full, a second tab's write) fails the record, not the run. */
export async function uploadSafely(ctx: RecordContext, entity: EntityShape, key: string): Promise<Outcome> {
  try {
    return await uploadRecord(ctx, entity, key);
  } catch (error) {
    return localFailure(ctx, entity, error);
  }
}
