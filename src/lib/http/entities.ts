// The one client of the entity API (docs/api.md "Entity calls"), typed by entity: the data
// layer's online saves and reads and the upload engine's requests both go through it. The HTTP
// client is injected: the app's axios instance, a test's, or the engine's bounded one (its fault
// tests give it a failing transport).
import type { AxiosInstance, AxiosProgressEvent, AxiosRequestConfig } from 'axios';
import type { EntityShape } from '../../../schemas/define';
import type { RowOf } from '../../../schemas/derive/types';
import { listParams, type ListQuery } from '../../../schemas/listQuery';
import { ConflictError, isAnswer } from './errors';
import { appendImages, profileImageForm, recordForm, type ImageInput } from './forms';

/** The calls the client makes: the app's axios instance (baseURL …/api, bearer token) or a test one. */
export type EntityHttp = Pick<AxiosInstance, 'get' | 'post' | 'put'>;

/** A row of an entity as the API answers it; `Row` when the entity is not known by its type. */
export type Row = Record<string, unknown>;

export interface CallOptions {
  /** Do not toast a failure (src/lib/http/api.ts): the caller shows it itself (the upload report,
   * the delete dialog). The interceptor's 401/403 rules still apply. */
  silent?: boolean;
}

export interface Page<R = Row> {
  rows: R[];
  total: number;
  /** The server counts up to a bound: true when there are more rows than `total`. */
  totalIsLowerBound?: boolean;
  page: number;
  pageSize: number;
}

export function restOf(entity: EntityShape): string {
  if (!entity.rest) throw new Error(`${entity.name} has no API`);
  return entity.rest;
}

const rowUrl = (entity: EntityShape, key?: string) => `${restOf(entity)}/${key === undefined ? '' : encodeURIComponent(key)}`;

// The app's instance sends JSON by default; axios would turn FormData into JSON under that
// header, so multipart calls name their type (the boundary is then filled in by the platform).
const json = (options: CallOptions): AxiosRequestConfig => (options.silent ? { silent: true } : {});
const multipart = (options: CallOptions): AxiosRequestConfig => ({ ...json(options), headers: { 'Content-Type': 'multipart/form-data' } });

/** One page from the server: through the entity's POST search call when it has one (product.md §7:
 * /jobs/search/, /sproviers/srch, /spDetail/search/), else GET with the query string. */
export async function getPage<E extends EntityShape>(http: EntityHttp, entity: E, query: ListQuery): Promise<Page<RowOf<E>>> {
  const params = listParams(query);
  const search = entity.routes.search;
  const { data } = search
    ? await http.post<Page<RowOf<E>>>(`${restOf(entity)}${search}`, params)
    : await http.get<Page<RowOf<E>>>(restOf(entity), { params });
  return data;
}

/** GET {rest}/{key}; undefined when the server has no (undeleted) such record. Silent: a
 * missing row is an answer, not a failure to show. */
export async function getRecord<E extends EntityShape>(http: EntityHttp, entity: E, key: string): Promise<RowOf<E> | undefined> {
  try {
    return (await http.get<RowOf<E>>(rowUrl(entity, key), { silent: true })).data;
  } catch (error) {
    if (isAnswer(error, 404)) return undefined;
    throw error;
  }
}

/** POST {rest}/: JSON, or multipart when a job or service brings images (stored with the record
 * in one transaction). */
export async function postRecord<E extends EntityShape>(
  http: EntityHttp,
  entity: E,
  body: Readonly<Record<string, unknown>>,
  images: readonly ImageInput[] = [],
  options: CallOptions = {},
): Promise<RowOf<E>> {
  const { data } = images.length
    ? await http.post<RowOf<E>>(rowUrl(entity), recordForm(body, images), multipart(options))
    : await http.post<RowOf<E>>(rowUrl(entity), body, json(options));
  return data;
}

/** PUT {rest}/{key} with the `updatedAt` the edit is based on: 409 `http.conflict` with the
 * server's copy → ConflictError. Multipart when images come or image slots are emptied
 * (`removeImages`, jobs and services). */
export async function putRecord<E extends EntityShape>(
  http: EntityHttp,
  entity: E,
  key: string,
  body: Readonly<Record<string, unknown>>,
  images: readonly ImageInput[] = [],
  removeImages: readonly string[] = [],
  options: CallOptions = {},
): Promise<RowOf<E>> {
  const url = rowUrl(entity, key);
  try {
    const { data } =
      images.length || removeImages.length
        ? await http.put<RowOf<E>>(url, recordForm(body, images, removeImages), multipart(options))
        : await http.put<RowOf<E>>(url, body, json(options));
    return data;
  } catch (error) {
    const server = conflictCopy(error);
    if (server) throw new ConflictError(server);
    throw error;
  }
}

function conflictCopy(error: unknown): Row | undefined {
  if (!isAnswer(error, 409, 'http.conflict')) return undefined;
  const server = (error as { response?: { data?: { server?: unknown } } }).response?.data?.server;
  return server && typeof server === 'object' ? (server as Row) : undefined;
}

export interface ProfileImageOptions extends CallOptions {
  /** Hears the share of the bytes sent, 0 to 1 (axios onUploadProgress). */
  onProgress?: (sent: number) => void;
}

/** PUT /profile/images/{prof_Id}: fields `img_for` and `file`; one image per kind, replaced when
 * sent again. Answers the tbl_profiles_images row. */
export async function putProfileImage(http: EntityHttp, key: string, image: ImageInput, options: ProfileImageOptions = {}): Promise<Row> {
  const { onProgress } = options;
  const config = onProgress
    ? {
        ...multipart(options),
        onUploadProgress: (event: AxiosProgressEvent) =>
          onProgress(event.total ? Math.min(1, event.loaded / event.total) : (event.progress ?? 0)),
      }
    : multipart(options);
  const { data } = await http.put<Row>(`/profile/images/${encodeURIComponent(key)}`, profileImageForm(image), config);
  return data;
}

/** POST /profile/images/delete/{prof_Id} {img_for}: the kind is removed on the server (bytes
 * deleted); answers `{result: 'removed' | 'absent'}`, so a repeat after a lost answer succeeds. */
export async function removeProfileImage(http: EntityHttp, key: string, kind: string, options: CallOptions = {}): Promise<Row> {
  const { data } = await http.post<Row>(`/profile/images/delete/${encodeURIComponent(key)}`, { img_for: kind }, json(options));
  return data;
}

/** Body of a soft delete (product.md §5: a reason and the user's password). */
export interface RemoveInput {
  reason: string;
  password: string;
}

/** POST {rest}/delete/{key}. Silent: a delete always comes from the delete dialog (reason and
 * password), which shows its failure in place (a wrong password); a toast would tell it twice. */
export async function postDelete(http: EntityHttp, entity: EntityShape, key: string, input: RemoveInput): Promise<void> {
  await http.post(`${restOf(entity)}/delete/${encodeURIComponent(key)}`, input, { silent: true });
}

/** The bytes of a stored job or service image (GET /imgs/getById); undefined when gone. */
export async function getImageBytes(
  http: EntityHttp,
  key: string,
  name: string,
  options: CallOptions = {},
): Promise<Uint8Array | undefined> {
  try {
    const response = await http.get<ArrayBuffer>('/imgs/getById', {
      ...json(options),
      params: { id: key, imagename: name },
      responseType: 'arraybuffer',
    });
    return new Uint8Array(response.data);
  } catch (error) {
    if (isAnswer(error, 404)) return undefined;
    throw error;
  }
}

/** One record of a batch (POST /api/sync/push/{table}, server/plugins/sync/push.ts). */
export interface PushRecord {
  op: 'create' | 'update';
  /** The key of an update (a create carries its key in `data`). */
  id?: string;
  data: Row;
  /** Image slots to empty (an update whose images were removed offline). */
  removeImages?: string[];
}

/** One record's answer in a batch: the status and body its own request would have had. */
export interface PushAnswer {
  key: string;
  status: number;
  body: Row;
}

/**
 * POST /sync/push/{table}: many records of one kind in one request, one answer per record, in
 * the order sent. An answer that does not match the batch is an error of the whole batch.
 */
export async function pushRecords(
  http: EntityHttp,
  entity: EntityShape,
  records: readonly PushRecord[],
  images: readonly (readonly ImageInput[])[] = [],
  options: CallOptions = {},
): Promise<PushAnswer[]> {
  const url = `/sync/push/${encodeURIComponent(entity.table)}`;
  const response = images.some((list) => list.length)
    ? await http.post<{ results?: PushAnswer[] }>(url, batchForm(records, images), multipart(options))
    : await http.post<{ results?: PushAnswer[] }>(url, { records }, json(options));
  const results = response.data?.results;
  if (!Array.isArray(results) || results.length !== records.length) throw new Error('The server answered the batch incompletely');
  return results;
}

/** A batch with images: the JSON body as the field `records`, each record's images as parts
 * `{index}.{slot}` (the server stores each record with its images in one transaction). */
function batchForm(records: readonly PushRecord[], images: readonly (readonly ImageInput[])[]): FormData {
  const form = new FormData();
  form.append('records', JSON.stringify({ records }));
  images.forEach((list, index) => appendImages(form, list, `${index}.`));
  return form;
}
