// The one data layer between every screen and RxDB/the API (design.md §1, §6): the same calls
// online and offline; only where a save goes differs.
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import type { Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { findDuplicates, listProfileFiles, saveProfileImages } from './clients';
import type { profileImage } from '../../../schemas/index';
import { makeContext } from './context';
import type { DocData } from './docs';
import * as read from './read';
import type { CreateResult, DataLayer, DataLayerDeps, Doc } from './types';
import * as write from './write';

type Untyped = MangoQuery<Record<string, unknown>>;

/** Documents are built at run time from the entity's declaration; the typed surface states
 * what they are, so this is the one place plain data becomes `Doc<E>`. */
function typed<T>(value: DocData | DocData[] | null | Observable<DocData[]> | CreateResult<DocData>[]): T {
  return value as unknown as T;
}

export function createDataLayer(deps: DataLayerDeps): DataLayer {
  const ctx = makeContext(deps);
  return {
    async list<E extends EntityShape>(entity: E, query = {}) {
      const page = await read.list(ctx, entity, query);
      return { ...page, rows: typed<Doc<E>[]>(page.rows) };
    },
    async get<E extends EntityShape>(entity: E, key: string) {
      return typed<Doc<E> | null>(await read.get(ctx, entity, key));
    },
    async create<E extends EntityShape>(entity: E, values: Record<string, unknown>, images = []) {
      return typed<Doc<E>>(await write.create(ctx, entity, values, images));
    },
    async createMany<E extends EntityShape>(entity: E, records: readonly Record<string, unknown>[]) {
      return typed<CreateResult<Doc<E>>[]>(await write.createMany(ctx, entity, records));
    },
    async update<E extends EntityShape>(entity: E, key: string, values: Record<string, unknown>, images = [], options = {}) {
      return typed<Doc<E>>(await write.update(ctx, entity, key, values, images, options));
    },
    remove: (entity, key, input) => write.remove(ctx, entity, key, input),
    observe<E extends EntityShape>(entity: E, query: MangoQuery<Doc<E>> = {}) {
      return typed<Observable<Doc<E>[]>>(read.observe(ctx, entity, query as unknown as Untyped));
    },
    count$<E extends EntityShape>(entity: E, selector: MangoQuerySelector<Doc<E>> = {}) {
      return read.count$(ctx, entity, selector as unknown as NonNullable<Untyped['selector']>);
    },
    saveProfileImages: (key, images, remove = []) => saveProfileImages(ctx, key, images, remove),
    findDuplicates: (query) => findDuplicates(ctx, query),
    async listProfileFiles(key: string) {
      return typed<Doc<typeof profileImage>[]>(await listProfileFiles(ctx, key));
    },
  };
}
