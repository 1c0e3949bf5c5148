// The engine's side of the entity client (src/lib/http): its requests are silent (it shows its
// own toasts, product.md §8), its stored images become the client's image inputs, every request
// is bounded, and a failure reads as a `Failure` decided on the answer's status and `code`.
import { AxiosError, type AxiosRequestConfig } from 'axios';
import type { EntityShape } from '../../../../schemas/define';
import { profileImage } from '../../../../schemas';
import {
  ApiError,
  apiErrorOf,
  isNetworkError,
  PROFILE_IMAGE_PART,
  type CallOptions,
  type ErrorBody,
  type ImageInput,
  type Row,
} from '../../http';
import type { ErrorCode } from '../../../../schemas/errorCodes';
import { blobOf } from './bytes';
import type { DocData, LocalDoc } from './store';
import type { UploadHttp } from './types';

export type { Row };

/** The engine shows its own toasts with product.md §8 titles: the app's interceptor stays quiet
 * (src/lib/http/api.ts `silent`; its 401/403 rules still apply). */
export const QUIET: CallOptions = { silent: true };

/** The image slot of a `files` document (jb_img1..3 / sp_img1..3). */
export function slotOf(entity: EntityShape, image: LocalDoc): string {
  return entity.images[Number(image.get('imgNo')) - 1] ?? `img${String(image.get('imgNo'))}`;
}

/** A stored image as the client's image input (its slot, bytes and name). */
function imageInput(entity: EntityShape, image: LocalDoc): ImageInput {
  const data = image.toJSON() as DocData;
  return { slot: slotOf(entity, image), blob: blobOf(String(data.data), String(data.type)), name: String(data.name) };
}

/** A record's stored images (`files` documents) as the client's image inputs. */
export function imageInputs(entity: EntityShape, images: readonly LocalDoc[]): ImageInput[] {
  return images.map((image) => imageInput(entity, image));
}

/** A pending profile image (a tbl_profiles_images document) as the client's image input: its kind is its slot. */
export function profileImageInput(data: Readonly<DocData>): ImageInput {
  return { slot: String(data.img_for), blob: blobOf(String(data.data), String(data.type)), name: String(data.name) };
}

/** A record's images as parts of a batch: job and service images by slot (jb_img1..3 /
 * sp_img1..3); a profile image is its own document's bytes, part `file`, as on its PUT. */
export function imageParts(entity: EntityShape, doc: LocalDoc, images: readonly LocalDoc[]): ImageInput[] {
  if (entity.table !== profileImage.table) return imageInputs(entity, images);
  const data = doc.toJSON() as DocData;
  return [{ ...profileImageInput(data), slot: PROFILE_IMAGE_PART }];
}

/** A record's failed answer inside a batch, read like the error of its own request. */
export const recordAnswerError = (status: number, body: ErrorBody): ApiError => new ApiError(status, body);

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
  /** The answer's `code` (schemas/errorCodes.ts): what the engine decides on. */
  code?: ErrorCode;
  /** product.md §8: the answer's result, else its message, else the HTTP status text (else the
   * network error): shown to people, never compared. */
  message: string;
  body?: Readonly<Record<string, unknown>>;
  /** No answer, or a gateway's: the server or the network is away, not the record at fault. */
  transient: boolean;
}

const GATEWAY = [502, 503, 504];

export function failureOf(error: unknown): Failure {
  const answer = apiErrorOf(error);
  if (answer) {
    return {
      status: answer.status,
      code: answer.code,
      message: answer.message,
      body: answer.body,
      transient: GATEWAY.includes(answer.status),
    };
  }
  // No answer (network down, a request past its bound) is transient; any other error is not.
  return { message: error instanceof Error ? error.message : String(error), transient: isNetworkError(error) };
}

/** 409 `http.duplicate`: the server already has this key (product.md §D2): an earlier answer was lost. */
export function isDuplicate(f: Failure): boolean {
  return f.status === 409 && f.code === 'http.duplicate';
}

/** The server's copy a batch sends with its `http.duplicate` (none from the single-record route). */
export function duplicateCopy(f: Failure): Row | undefined {
  const server = f.body?.server;
  return isDuplicate(f) && server && typeof server === 'object' ? (server as Row) : undefined;
}

/** 409 `http.conflict` with the server's copy: the row changed since the edit's base. */
export function conflictRow(f: Failure): Row | undefined {
  const server = f.body?.server;
  return f.status === 409 && f.code === 'http.conflict' && server && typeof server === 'object' ? (server as Row) : undefined;
}
