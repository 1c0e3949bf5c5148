// Discarding a provider that was never uploaded: its services, apprenticeships and trainings
// collected on this device go with it, or the upload would try to send children whose parent
// no longer exists, and fail on every attempt.
import { firstValueFrom } from 'rxjs';
import { offlineCollections, entities, type EntityShape } from '../../../schemas/index';
import type { DataLayer } from '../../lib/data';

function childrenOf(entity: EntityShape): EntityShape[] {
  return (entities as readonly EntityShape[]).filter((e) => e.parent?.entity === entity.name && offlineCollections.includes(e.table));
}

export async function discardLocalTree(data: DataLayer, entity: EntityShape, key: string): Promise<void> {
  for (const child of childrenOf(entity)) {
    const field = child.parent?.field as string;
    const docs = await firstValueFrom(data.observe(child, { selector: { [field]: key } }));
    for (const doc of docs) await discardLocalTree(data, child, String((doc as Record<string, unknown>)[child.keyFields[0] as string]));
  }
  await data.remove(entity, key);
}
