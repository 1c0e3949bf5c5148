// The API calls of the data layer (docs/api.md): entity routes derived from schemas/, the list
// envelope, multipart images, the conflict answer of updates.
import { isAxiosError, type AxiosProgressEvent, type AxiosRequestConfig } from 'axios';
import type { EntityShape } from '../../../schemas/define';
import { recordForm, profileImageForm } from './images';
import { restOf, type Row } from './pages';
import type { HttpClient, ImageInput, RemoveInput } from './types';

export { getPage, restOf, type Page, type Row } from './pages';

/** 409 `conflict`: the server's row changed since the copy the edit was based on. */
export class ConflictError extends Error {
  constructor(readonly server: Row) {
    super('conflict');
    this.name = 'ConflictError';
  }
}

// The app's instance sends JSON by default; axios would turn FormData into JSON under that
// header, so multipart calls name their type (the boundary is then filled in by the platform).
const MULTIPART: AxiosRequestConfig = { headers: { 'Content-Type': 'multipart/form-data' } };

/** No answer at all (network down, server unreachable): the save can wait in RxDB. */
export function isNetworkError(error: unknown): boolean {
  return isAxiosError(error) && !error.response;
}

export function isAnswer(error: unknown, status: number, message?: string): boolean {
  if (!isAxiosError<{ message?: unknown }>(error) || error.response?.status !== status) return false;
  return message === undefined || error.response.data?.message === message;
}

/** The row, or null when the server has none (unknown or deleted). */
export async function getRow(http: HttpClient, entity: EntityShape, key: string): Promise<Row | null> {
  try {
    const { data } = await http.get<Row>(`${restOf(entity)}/${encodeURIComponent(key)}`, { silent: true });
    return data;
  } catch (error) {
    if (isAnswer(error, 404)) return null;
    throw error;
  }
}

/** POST: JSON, or multipart when a job or service brings images. */
export async function postRecord(http: HttpClient, entity: EntityShape, body: Row, images: readonly ImageInput[]): Promise<Row> {
  const url = `${restOf(entity)}/`;
  const { data } = images.length ? await http.post<Row>(url, recordForm(body, images), MULTIPART) : await http.post<Row>(url, body);
  return data;
}

/** PUT with the `updatedAt` the edit is based on; 409 conflict → ConflictError. Multipart
 * when images come or image slots are emptied (`removeImages`, jobs and services). */
export async function putRecord(
  http: HttpClient,
  entity: EntityShape,
  key: string,
  body: Row,
  images: readonly ImageInput[],
  removeImages: readonly string[] = [],
): Promise<Row> {
  const url = `${restOf(entity)}/${encodeURIComponent(key)}`;
  const multipart = images.length > 0 || removeImages.length > 0;
  try {
    const { data } = multipart
      ? await http.put<Row>(url, recordForm(body, images, removeImages), MULTIPART)
      : await http.put<Row>(url, body);
    return data;
  } catch (error) {
    if (isAnswer(error, 409, 'conflict') && isAxiosError<{ server?: Row }>(error) && error.response?.data?.server) {
      throw new ConflictError(error.response.data.server);
    }
    throw error;
  }
}

/** PUT /profile/images/{id}: one image per kind; answers the tbl_profiles_images row.
 * `onProgress` hears the share of the bytes sent (axios onUploadProgress). */
export async function putProfileImage(http: HttpClient, key: string, image: ImageInput, onProgress?: (sent: number) => void): Promise<Row> {
  const config = onProgress
    ? {
        ...MULTIPART,
        onUploadProgress: (event: AxiosProgressEvent) =>
          onProgress(event.total ? Math.min(1, event.loaded / event.total) : (event.progress ?? 0)),
      }
    : MULTIPART;
  const { data } = await http.put<Row>(`/profile/images/${encodeURIComponent(key)}`, profileImageForm(image), config);
  return data;
}

/** `silent`: a delete always comes from the delete dialog (reason and password), which shows
 * its failure in place (a wrong password); the interceptor's toast would tell it twice. */
export async function postDelete(http: HttpClient, entity: EntityShape, key: string, input: RemoveInput): Promise<void> {
  await http.post(`${restOf(entity)}/delete/${encodeURIComponent(key)}`, input, { silent: true });
}
