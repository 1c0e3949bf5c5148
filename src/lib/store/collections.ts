// The collections of the browser store `icrs_db` (product.md §3), without RxDB itself: the screens,
// the data layer and the upload engine name collections through here, so that RxDB's code
// (database.ts) loads only when the store opens, after the first screen is drawn (ADR-0035).
import type { RxCollection, RxDatabase } from 'rxdb';
import type { EntityShape } from '../../../schemas/define';
import { entities } from '../../../schemas';

export const DB_NAME = 'icrs_db';

/** Each user's own store on a device (ADR-0020): `icrs_db-<userId>`. Another user of the same
 * browser opens another store, and never this one's records, pending or mirrored. */
export function storeNameFor(userId: string): string {
  const safe = userId.toLowerCase().replace(/[^a-z0-9-]/g, '');
  if (!safe) throw new Error('A store needs a user');
  return `${DB_NAME}-${safe}`;
}

/** The 13 offline entities (product.md §3 "Local offline store"), in declaration order. */
export const OFFLINE_ENTITIES: readonly EntityShape[] = (entities as readonly EntityShape[]).filter((e) => e.offline);

/** RxDB collection names allow no '-', so `available-jobs` is stored as `available_jobs`. */
export function collectionName(entity: EntityShape): string {
  return entity.table.replace(/-/g, '_');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents are typed per entity by callers (DocOf<E>)
export type IcrsCollection = RxCollection<any>;
export type IcrsDatabase = RxDatabase<Record<string, IcrsCollection>>;

/** The collection of `entity` in `db`. */
export function collectionOf(db: IcrsDatabase, entity: EntityShape): IcrsCollection {
  const collection = db.collections[collectionName(entity)];
  if (!collection) throw new Error(`no collection for ${entity.table}`);
  return collection;
}
