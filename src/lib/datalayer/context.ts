// What every data-layer operation needs, with the user and lists read when used (storage can
// change after the layer was made: a login, a refresh of the lists).
import type { EntityShape } from '../../../schemas/define';
import { collectionOf, type IcrsCollection, type IcrsDatabase } from '../db/database';
import type { SessionUser } from '../session';
import type { DataLayerDeps, Getter, HttpClient, LookupLists } from './types';

export interface Ctx {
  db: IcrsDatabase;
  http: HttpClient;
  isOnline: () => boolean;
  user: () => SessionUser | null;
  lists: () => LookupLists | null;
  collection: (entity: EntityShape) => IcrsCollection;
}

function reader<T>(value: Getter<T>): () => T {
  return typeof value === 'function' ? (value as () => T) : () => value;
}

export function makeContext(deps: DataLayerDeps): Ctx {
  return {
    db: deps.db,
    http: deps.http,
    isOnline: deps.isOnline,
    user: reader(deps.user),
    lists: reader(deps.lists),
    collection: (entity) => collectionOf(deps.db, entity),
  };
}

/** Entities the API serves one row at a time by key (composite keys and `files` have none). */
export function hasRowApi(entity: EntityShape): boolean {
  return entity.server && entity.rest !== undefined && entity.keyFields.length === 1;
}
