// Public types of the data layer (docs/offline-contract.md "Data layer"): what screens call,
// the same online and offline.
import type { AxiosInstance } from 'axios';
import type { MangoQuery, MangoQuerySelector } from 'rxdb';
import type { Observable } from 'rxjs';
import type { EntityShape } from '../../../schemas/define';
import type { DocOf } from '../../../schemas/derive/types';
import type { LookupItem } from '../../../schemas/entities/users';
import type { IcrsCollection, IcrsDatabase } from '../store';
import type { SessionUser } from '../session';
import type { Duplicate, DuplicateQuery } from '../../../schemas/duplicates';
import type { profileImage } from '../../../schemas';
import type { FilterValue, ListQuery } from '../../../schemas/listQuery';

/** The HTTP calls the data layer makes: the app's axios instance (`api`) or a test one. */
export type HttpClient = Pick<AxiosInstance, 'get' | 'post' | 'put' | 'defaults'>;

/** What GET /api/lists/profilelist answers and the `lists` storage key holds. */
export type LookupLists = Readonly<Record<string, readonly LookupItem[]>>;

/** Hears a file being sent online (product.md §7: PUT /profile/images/{id} with progress events):
 * its kind (`slot`) and the share of its bytes sent, 0 to 1. */
export type UploadProgress = (slot: string, sent: number) => void;

/** A value or a function reading the current one (storage can change after creation). */
export type Getter<T> = T | (() => T);

export interface DataLayerDeps {
  /** The store, or the promise of it while it opens: every call waits for it, except an
   * online list's request to the server, which leaves at once (`listPages`). */
  db: IcrsDatabase | PromiseLike<IcrsDatabase>;
  /** One collection as soon as the opening has set it up, before the whole store is open: an
   * offline list reads its page there (ADR-0035). Default: once the store is open. */
  collection?: (entity: EntityShape) => Promise<IcrsCollection>;
  http: HttpClient;
  /** True when saves go to the API (online mode and a network); false: they stay in RxDB. */
  isOnline: () => boolean;
  /** The signed-in user (for the organisation of new profiles). */
  user: Getter<SessionUser | null>;
  /** The cached lookup lists (organisation abbreviations). */
  lists: Getter<LookupLists | null>;
}

/** An RxDB document of an entity as plain data (sync fields included). */
export type Doc<E extends EntityShape = EntityShape> = DocOf<E>;

/** Form values: the entity's fields by name. Unknown names are ignored, null clears a field. */
export type Values = Readonly<Record<string, unknown>>;

/** One page request (one definition, shared with the server: schemas/listQuery.ts). */
export type { FilterValue, ListQuery };

export interface ListResult<D> {
  rows: D[];
  total: number;
  /** True when there are more rows than `total` (a server list's bounded count); the device's
   * own lists count exactly. */
  totalIsLowerBound?: boolean;
  page: number;
  pageSize: number;
}

/** An image to save with a record (`slot`: jb_img1..3 / sp_img1..3 for jobs and services,
 * photo / idDocument / consentForm for profiles) and the body of a soft delete: the entity
 * client's own types. */
import type { ImageInput, RemoveInput } from '../http';
export type { ImageInput, RemoveInput };

export interface UpdateOptions {
  /** The `updatedAt` of the copy the edit was made on (the form's opening copy). A newer copy
   * found here or on the server (a colleague's change, pulled meanwhile) refuses the edit with
   * a ConflictError rather than overwrite it. Default: the copy stored here at save time. */
  basedOn?: string;
}

/** What `createMany` answers per record, in the order given: the stored document, or why that
 * record alone was not saved. */
export type CreateResult<D> = { ok: true; doc: D } | { ok: false; error: Error };

export interface DataLayer {
  /** One page: online the server's, with this device's pending versions of its rows and, on
   * the first page, this device's records not uploaded yet (each key once); written into the
   * store as `synced` before it resolves. Offline, or without a network: the store's page. */
  list<E extends EntityShape>(entity: E, query?: ListQuery): Promise<ListResult<Doc<E>>>;
  /** The same page as it becomes known, for a screen that draws it: online, when the store is
   * still opening, the server's page alone as soon as it arrives, then the page as `list`
   * answers it; completes once the page is written into the store. */
  listPages<E extends EntityShape>(entity: E, query?: ListQuery): Observable<ListResult<Doc<E>>>;
  /** The page `listPages` would show first, when it is in hand already (the answer to the page
   * asked ahead while the store opens): a screen draws it at once. Else undefined. */
  firstPage<E extends EntityShape>(entity: E, query?: ListQuery): ListResult<Doc<E>> | undefined;
  /** The record, or null when it exists neither on the server nor locally. */
  get<E extends EntityShape>(entity: E, key: string): Promise<Doc<E> | null>;
  create<E extends EntityShape>(entity: E, values: Values, images?: readonly ImageInput[]): Promise<Doc<E>>;
  /** Many new records of one kind (an import, say), each prepared and checked as `create` does,
   * without images. Offline they are stored with one bulk insert; online sent one by one, the
   * rest stored offline if the network goes. One result per record: a bad record (a required
   * key missing, a key already stored) fails alone, and nothing is stored twice. */
  createMany<E extends EntityShape>(entity: E, records: readonly Values[]): Promise<CreateResult<Doc<E>>[]>;
  update<E extends EntityShape>(
    entity: E,
    key: string,
    values: Values,
    images?: readonly ImageInput[],
    options?: UpdateOptions,
  ): Promise<Doc<E>>;
  remove(entity: EntityShape, key: string, input?: RemoveInput): Promise<void>;
  /** A live RxDB query: emits the current result, then again on every change. */
  observe<E extends EntityShape>(entity: E, query?: MangoQuery<Doc<E>>): Observable<Doc<E>[]>;
  count$<E extends EntityShape>(entity: E, selector?: MangoQuerySelector<Doc<E>>): Observable<number>;
  /** A client's photo, identity document and consent form (ADR-0028): `images` fill or replace
   * their kind (`slot` photo / idDocument / consentForm), `remove` deletes kinds, on the server
   * too (at once online, with the upload offline). */
  saveProfileImages(key: string, images: readonly ImageInput[], remove?: readonly string[], onProgress?: UploadProgress): Promise<void>;
  /** A client's photo and documents (tbl_profiles_images documents, removals waiting for the
   * upload included): the server's list online, written into the store; the store's offline. */
  listProfileFiles(key: string): Promise<Doc<typeof profileImage>[]>;
  /** Clients that may be the one being registered: same names and birth date (case and accents
   * ignored) or same phone; the server's (organisation scope) online, and this device's. */
  findDuplicates(query: DuplicateQuery): Promise<DuplicateClient[]>;
}

/** A possible duplicate as the client shows it. */
export interface DuplicateClient extends Duplicate {
  /** Found in this device's store only (not uploaded, or the search could not reach the server). */
  local?: boolean;
}
