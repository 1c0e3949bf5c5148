// The plan of a run: the pending keys of every kind, in spec order, and which kinds each one
// waits for in the batched mode.
import type { EntityShape } from '../../../../schemas/define';
import type { IcrsDatabase } from '../../store';
import { pendingKeys, UPLOAD_KINDS } from './store';
import type { RecordRef } from './types';

/** One kind of the plan and its pending keys. */
export interface Step {
  entity: EntityShape;
  keys: string[];
}

/** The pending keys of every upload kind, in spec order (only those of `only`, when given). */
export async function planOf(db: IcrsDatabase, only?: readonly RecordRef[]): Promise<Step[]> {
  return Promise.all(
    UPLOAD_KINDS.map(async (entity) => {
      const keys = await pendingKeys(db, entity);
      if (!only) return { entity, keys };
      const wanted = new Set(only.filter((r) => r.table === entity.table).map((r) => r.key));
      return { entity, keys: keys.filter((k) => wanted.has(k)) };
    }),
  );
}

/**
 * The kinds (their places in the plan) kind `index` must see finished before it starts in the
 * batched mode: those its id fields refer to (its parent among them), derived from the entity
 * declarations; the last kind (profile images, product.md §4 "uploaded last") waits for every kind.
 */
export function dependsOn(plan: readonly Step[], index: number): number[] {
  const earlier = plan.slice(0, index).map((_, i) => i);
  if (index === plan.length - 1) return earlier;
  const refs = new Set(
    Object.values((plan[index] as Step).entity.fields).flatMap((field) => (field.kind === 'id' && field.ref ? [field.ref] : [])),
  );
  return earlier.filter((i) => refs.has((plan[i] as Step).entity.name));
}
