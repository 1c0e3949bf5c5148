// What every data-layer operation needs, with the user and lists read when used (storage can
// change after the layer was made: a login, a refresh of the lists).
import type { EntityShape } from '../../../schemas/define';
import { collectionOf, type IcrsCollection, type IcrsDatabase } from '../store';
import type { SessionUser } from '../session';
import type { DataLayerDeps, Getter, HttpClient, LookupLists } from './types';

/** What needs no store: the server and the session. */
export interface Remote {
  http: HttpClient;
  isOnline: () => boolean;
  user: () => SessionUser | null;
  lists: () => LookupLists | null;
}

export interface Ctx extends Remote {
  db: IcrsDatabase;
  collection: (entity: EntityShape) => IcrsCollection;
}

/** The layer's store while it may still be opening: `ctx` waits for it, `now` answers it
 * only once it is open (an online list asks the server without waiting, see read.ts). */
export interface Opening extends Remote {
  ctx: Promise<Ctx>;
  now: () => Ctx | null;
  /** One collection, as soon as the opening has set it up (DataLayerDeps.collection). */
  collection: (entity: EntityShape) => Promise<IcrsCollection>;
}

function reader<T>(value: Getter<T>): () => T {
  return typeof value === 'function' ? (value as () => T) : () => value;
}

function isDatabase(db: DataLayerDeps['db']): db is IcrsDatabase {
  return typeof (db as PromiseLike<IcrsDatabase>).then !== 'function';
}

export function makeContext(deps: DataLayerDeps): Opening {
  const remote: Remote = { http: deps.http, isOnline: deps.isOnline, user: reader(deps.user), lists: reader(deps.lists) };
  const withDb = (db: IcrsDatabase): Ctx => ({ ...remote, db, collection: (entity) => collectionOf(db, entity) });
  let open: Ctx | null = isDatabase(deps.db) ? withDb(deps.db) : null;
  const ctx = open
    ? Promise.resolve(open)
    : Promise.resolve(deps.db).then((db) => {
        open = withDb(db);
        return open;
      });
  // A store that cannot open fails each call that needs it; this keeps the failure from being
  // reported as unhandled when no call needed it yet.
  ctx.catch(() => undefined);
  const collection = deps.collection ?? ((entity: EntityShape) => ctx.then((opened) => opened.collection(entity)));
  return { ...remote, ctx, now: () => open, collection };
}

/** Entities the API serves one row at a time by key (composite keys and `files` have none). */
export function hasRowApi(entity: EntityShape): boolean {
  return entity.server && entity.rest !== undefined && entity.keyFields.length === 1;
}
