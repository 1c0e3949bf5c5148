// The one data layer between every screen and RxDB/the API (product.md §D1, §6): the same calls
// online and offline; only where a save goes differs.
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import { from, lastValueFrom, map, switchMap, type Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import { findDuplicates, listProfileFiles, saveProfileImages } from './clients';
import type { profileImage } from '../../../schemas';
import { makeContext } from './context';
import type { DocData } from './docs';
import * as read from './read';
import type { CreateResult, DataLayer, DataLayerDeps, Doc, ListQuery, ListResult } from './types';
import * as write from './write';

type Untyped = MangoQuery<Record<string, unknown>>;

/** Documents are built at run time from the entity's declaration; the typed surface states
 * what they are, so this is the one place plain data becomes `Doc<E>`. */
function typed<T>(value: DocData | DocData[] | null | Observable<DocData[]> | CreateResult<DocData>[]): T {
  return value as unknown as T;
}

function typedPage<E extends EntityShape>(page: ListResult<DocData>): ListResult<Doc<E>> {
  return { ...page, rows: typed<Doc<E>[]>(page.rows) };
}

/** Every call but an online list's request waits for the store (`deps.db` may be the promise
 * of one still opening). */
export function createDataLayer(deps: DataLayerDeps): DataLayer {
  const opening = makeContext(deps);
  const store = () => opening.ctx;
  const listPages = <E extends EntityShape>(entity: E, query: ListQuery = {}) =>
    read.listPages(opening, entity, query).pipe(map((page) => typedPage<E>(page)));
  return {
    listPages,
    firstPage<E extends EntityShape>(entity: E, query: ListQuery = {}) {
      const page = read.firstPage(opening, entity, query);
      return page && typedPage<E>(page);
    },
    list: (entity, query = {}) => lastValueFrom(listPages(entity, query)),
    async get<E extends EntityShape>(entity: E, key: string) {
      return typed<Doc<E> | null>(await read.get(await store(), entity, key));
    },
    async create<E extends EntityShape>(entity: E, values: Record<string, unknown>, images = []) {
      return typed<Doc<E>>(await write.create(await store(), entity, values, images));
    },
    async createMany<E extends EntityShape>(entity: E, records: readonly Record<string, unknown>[]) {
      return typed<CreateResult<Doc<E>>[]>(await write.createMany(await store(), entity, records));
    },
    async update<E extends EntityShape>(entity: E, key: string, values: Record<string, unknown>, images = [], options = {}) {
      return typed<Doc<E>>(await write.update(await store(), entity, key, values, images, options));
    },
    remove: async (entity, key, input) => write.remove(await store(), entity, key, input),
    observe<E extends EntityShape>(entity: E, query: MangoQuery<Doc<E>> = {}) {
      return from(store()).pipe(switchMap((ctx) => typed<Observable<Doc<E>[]>>(read.observe(ctx, entity, query as unknown as Untyped))));
    },
    count$<E extends EntityShape>(entity: E, selector: MangoQuerySelector<Doc<E>> = {}) {
      return from(store()).pipe(switchMap((ctx) => read.count$(ctx, entity, selector as unknown as NonNullable<Untyped['selector']>)));
    },
    saveProfileImages: async (key, images, remove = [], onProgress) => saveProfileImages(await store(), key, images, remove, onProgress),
    findDuplicates: async (query) => findDuplicates(await store(), query),
    async listProfileFiles(key: string) {
      return typed<Doc<typeof profileImage>[]>(await listProfileFiles(await store(), key));
    },
  };
}
