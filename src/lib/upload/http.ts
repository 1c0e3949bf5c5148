// The engine's requests (docs/api.md "Entity calls") and how their failures read.
import { AxiosError, isAxiosError, type AxiosRequestConfig } from 'axios';
import type { EntityShape } from '../../../schemas/define';
import { profileImage } from '../../../schemas/index';
import { appendImages, recordForm as dataLayerForm } from '../datalayer/images';
import type { ImageInput } from '../datalayer/types';
import { blobOf } from './bytes';
import type { DocData, LocalDoc } from './store';
import type { UploadHttp } from './types';

export type Row = Record<string, unknown>;

/** The engine shows its own toasts with product.md §8 titles: the app's interceptor stays quiet
 * (src/lib/api.ts `silent`; its 401/403 rules still apply). */
const QUIET: AxiosRequestConfig & { silent: boolean } = { silent: true };
/** Multipart: axios sends FormData as JSON while the instance's JSON content type stands. */
const MULTIPART: AxiosRequestConfig & { silent: boolean } = { ...QUIET, headers: { 'Content-Type': 'multipart/form-data' } };

const path = (entity: EntityShape, key?: string) => `${entity.rest ?? ''}/${key === undefined ? '' : encodeURIComponent(key)}`;

/** The image slot of a `files` document (jb_img1..3 / sp_img1..3). */
export function slotOf(entity: EntityShape, image: LocalDoc): string {
  return entity.images[Number(image.get('imgNo')) - 1] ?? `img${String(image.get('imgNo'))}`;
}

/** The file part of a profile image: PUT /profile/images/{prof_Id}'s field, `{index}.file` in a batch. */
const PROFILE_IMAGE_PART = 'file';

/** A stored image as the data layer's image input (its slot, bytes and name). */
function imageInput(entity: EntityShape, image: LocalDoc): ImageInput {
  const data = image.toJSON() as DocData;
  return { slot: slotOf(entity, image), blob: blobOf(String(data.data), String(data.type)), name: String(data.name) };
}

/** The record's fields in one JSON field `data`, its images as files and the slots to empty
 * as `removeImages` (server/plugins/records/body.ts): the data layer's own form. */
function recordForm(entity: EntityShape, body: Row, images: readonly LocalDoc[], removeImages: readonly string[] = []): FormData {
  return dataLayerForm(
    body,
    images.map((image) => imageInput(entity, image)),
    removeImages,
  );
}

/** POST {rest}/: multipart when there are images (stored with the record in one transaction). */
export async function postRecord(http: UploadHttp, entity: EntityShape, body: Row, images: readonly LocalDoc[]): Promise<Row> {
  const response = images.length
    ? await http.post<Row>(path(entity), recordForm(entity, body, images), MULTIPART)
    : await http.post<Row>(path(entity), body, QUIET);
  return response.data;
}

/** PUT {rest}/{key}; `body.updatedAt` makes the server refuse to overwrite a newer row (409 conflict). */
export async function putRecord(
  http: UploadHttp,
  entity: EntityShape,
  key: string,
  body: Row,
  images: readonly LocalDoc[],
  removeImages: readonly string[] = [],
): Promise<Row> {
  const response =
    images.length || removeImages.length
      ? await http.put<Row>(path(entity, key), recordForm(entity, body, images, removeImages), MULTIPART)
      : await http.put<Row>(path(entity, key), body, QUIET);
  return response.data;
}

/** PUT /profile/images/{prof_Id}: field `file` and `img_for`; one per kind, replaced when sent again. */
export async function putProfileImage(http: UploadHttp, entity: EntityShape, data: Readonly<DocData>): Promise<Row> {
  const form = new FormData();
  form.append('img_for', String(data.img_for));
  form.append(PROFILE_IMAGE_PART, blobOf(String(data.data), String(data.type)), String(data.name));
  const response = await http.put<Row>(path(entity, String(data.prof_Id)), form, MULTIPART);
  return response.data;
}

/** POST /profile/images/delete/{prof_Id} {img_for}: the kind is removed on the server (bytes
 * deleted); answers `{result: 'removed' | 'absent'}`, so a repeat after a lost answer succeeds. */
export async function removeProfileImage(http: UploadHttp, data: Readonly<DocData>): Promise<Row> {
  const response = await http.post<Row>(
    `/profile/images/delete/${encodeURIComponent(String(data.prof_Id))}`,
    { img_for: data.img_for },
    QUIET,
  );
  return response.data;
}

/** A record's images as parts of a batch: job and service images by slot (jb_img1..3 /
 * sp_img1..3); a profile image is its own document's bytes, part `file`, as on its PUT. */
export function imageParts(entity: EntityShape, doc: LocalDoc, images: readonly LocalDoc[]): ImageInput[] {
  if (entity.table !== profileImage.table) return images.map((image) => imageInput(entity, image));
  const data = doc.toJSON() as DocData;
  return [{ slot: PROFILE_IMAGE_PART, blob: blobOf(String(data.data), String(data.type)), name: String(data.name) }];
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
  http: UploadHttp,
  entity: EntityShape,
  records: readonly PushRecord[],
  images: readonly (readonly ImageInput[])[] = [],
): Promise<PushAnswer[]> {
  const url = `/sync/push/${encodeURIComponent(entity.table)}`;
  const response = images.some((list) => list.length)
    ? await http.post<{ results?: PushAnswer[] }>(url, batchForm(records, images), MULTIPART)
    : await http.post<{ results?: PushAnswer[] }>(url, { records }, QUIET);
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

/** A record's failed answer inside a batch, read like the error of its own request. */
export class RecordAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly body: Row,
  ) {
    super(`HTTP ${status}`);
  }
}

/** GET {rest}/{key}; undefined when the server has no (undeleted) such record. */
export async function getRecord(http: UploadHttp, entity: EntityShape, key: string): Promise<Row | undefined> {
  try {
    return (await http.get<Row>(path(entity, key), QUIET)).data;
  } catch (error) {
    if (failureOf(error).status === 404) return undefined;
    throw error;
  }
}

/** The bytes of a stored job or service image (GET /imgs/getById). */
export async function getImageBytes(http: UploadHttp, key: string, name: string): Promise<Uint8Array | undefined> {
  try {
    const response = await http.get<ArrayBuffer>('/imgs/getById', {
      ...QUIET,
      params: { id: key, imagename: name },
      responseType: 'arraybuffer',
    });
    return new Uint8Array(response.data);
  } catch (error) {
    if (failureOf(error).status === 404) return undefined;
    throw error;
  }
}

/** How long one request of the upload may go without its answer: a batch carries up to ~1 MB of
 * records and ~3.7 MB of images, about 3 minutes on a slow mobile link (~25 kB/s). */
export const UPLOAD_REQUEST_BOUND_MS = 180_000;

/** The message of a request past its bound: axios's own for its `timeout`, which the offline
 * screens turn into the user's language (uploadRun.ts `failureText`). */
export const timedOutMessage = (ms: number) => `timeout of ${ms}ms exceeded`;

/**
 * `http` with every request bounded: past `ms` without an answer the request is aborted and fails
 * as axios fails a request past its `timeout` (an AxiosError 'ECONNABORTED' with no response: no
 * answer, so its records fail as with the network away, and three in a row stop the run). The
 * bound is kept here rather than left to axios's `timeout`, so that it holds whatever client the
 * engine is given. A request the server finished but whose answer never came is settled by the
 * next upload ('duplicate entry', product.md §D2).
 */
export function boundedHttp(http: UploadHttp, ms: number): UploadHttp {
  const bounded = <T>(config: AxiosRequestConfig | undefined, send: (config: AxiosRequestConfig) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    // A caller's own signal still aborts the request (AbortSignal.any is too recent for Safari 16).
    const outer = config?.signal as AbortSignal | undefined;
    if (outer?.aborted) controller.abort();
    outer?.addEventListener?.('abort', () => controller.abort(), { once: true });
    const signal = controller.signal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new AxiosError(timedOutMessage(ms), AxiosError.ECONNABORTED));
      }, ms);
    });
    return Promise.race([send({ ...config, signal }), late]).finally(() => clearTimeout(timer));
  };
  return {
    get: (url, config) => bounded(config, (c) => http.get(url, c)),
    post: (url, data, config) => bounded(config, (c) => http.post(url, data, c)),
    put: (url, data, config) => bounded(config, (c) => http.put(url, data, c)),
  } as UploadHttp;
}

export interface Failure {
  status?: number;
  /** product.md §8: the answer's result, else its message, else the HTTP status text (else the network error). */
  message: string;
  body?: Record<string, unknown>;
  /** No answer, or a gateway's: the server or the network is away, not the record at fault. */
  transient: boolean;
}

const GATEWAY = [502, 503, 504];

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function failureOf(error: unknown): Failure {
  if (error instanceof RecordAnswerError) {
    const body = error.body;
    const message = text(body.result) ?? text(body.message) ?? text(body.error) ?? error.message;
    return { status: error.status, message, body, transient: GATEWAY.includes(error.status) };
  }
  if (!isAxiosError(error)) return { message: error instanceof Error ? error.message : String(error), transient: false };
  const response = error.response;
  const body = response?.data && typeof response.data === 'object' ? (response.data as Record<string, unknown>) : undefined;
  const message = text(body?.result) ?? text(body?.message) ?? text(response?.statusText) ?? error.message;
  const transient = !response || GATEWAY.includes(response.status);
  return { status: response?.status, message, body, transient };
}

/** 409 'duplicate entry': the server already has this key (product.md §D2): an earlier answer was lost. */
export function isDuplicate(f: Failure): boolean {
  return f.status === 409 && f.message === 'duplicate entry';
}

/** The server's copy a batch sends with its 'duplicate entry' (none from the single-record route). */
export function duplicateCopy(f: Failure): Row | undefined {
  const server = f.body?.server;
  return isDuplicate(f) && server && typeof server === 'object' ? (server as Row) : undefined;
}

/** 409 'conflict' with the server's copy: the row changed since the edit's base. */
export function conflictRow(f: Failure): Row | undefined {
  const server = f.body?.server;
  return f.status === 409 && f.message === 'conflict' && server && typeof server === 'object' ? (server as Row) : undefined;
}
