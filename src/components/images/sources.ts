// Where the images a record already has come from: the server (fetched with the bearer token,
// hence through the app's axios instance rather than an <img src>) or this device's `files`
// store (pending upload, base64).
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EntityShape } from '../../../schemas/define';
import { file as fileEntity } from '../../../schemas/index';
import { api } from '../../lib/http';
import { base64Blob } from '../../lib/util';
import { useLiveQuery } from '../../lib/data';

export type ImageSource =
  /** `file`: a client's photo or document (GET /imgs/getfile, by kind); else a record image. */
  { kind: 'server'; id: string; name: string; file?: boolean } | { kind: 'local'; data: string; type: string };

/** An image a record has now, in one of its slots (sp_img1, jb_img2, …). */
export interface ExistingImage {
  slot: string;
  source: ImageSource;
  /** Saved on this device, not uploaded yet. */
  pending?: boolean;
  /** Its type and file name, where known (a client's documents may be PDFs). */
  type?: string;
  name?: string;
}

/** GET /api/imgs/getById (a record image) or /api/imgs/getfile (a client's file) as a blob. */
export async function fetchServerImage(id: string, name: string, file = false): Promise<Blob> {
  const { data } = file
    ? await api.get<Blob>('/imgs/getfile', { params: { id, filename: name }, responseType: 'blob', silent: true })
    : await api.get<Blob>('/imgs/getById', { params: { id, imagename: name }, responseType: 'blob', silent: true });
  return data;
}

/** The bytes of an existing image or file, wherever they are. */
export async function sourceBlob(source: ImageSource): Promise<Blob> {
  return source.kind === 'local' ? base64Blob(source.data, source.type) : fetchServerImage(source.id, source.name, source.file);
}

export type BlobState = { status: 'loading' } | { status: 'ready'; blob: Blob } | { status: 'failed' };

/** The blob of an existing image: decoded at once when local, fetched when on the server.
 * `onFailed` hears why a server image could not be fetched. */
export function useImageBlob(source: ImageSource, onFailed?: (error: unknown) => void): BlobState {
  const failedRef = useRef(onFailed);
  useEffect(() => {
    failedRef.current = onFailed;
  });
  const local = source.kind === 'local' ? source : null;
  const localBlob = useMemo(() => (local ? base64Blob(local.data, local.type) : null), [local?.data, local?.type]); // eslint-disable-line react-hooks/exhaustive-deps -- the bytes, not the object
  const serverKey = source.kind === 'server' ? `${source.id}|${source.name}|${source.file ? 'file' : ''}` : '';
  const [fetched, setFetched] = useState<{ key: string; state: BlobState } | null>(null);
  useEffect(() => {
    if (!serverKey) return undefined;
    let current = true;
    const [id = '', name = '', file = ''] = serverKey.split('|');
    fetchServerImage(id, name, file === 'file').then(
      (blob) => current && setFetched({ key: serverKey, state: { status: 'ready', blob } }),
      (error: unknown) => {
        if (!current) return;
        setFetched({ key: serverKey, state: { status: 'failed' } });
        failedRef.current?.(error);
      },
    );
    return () => {
      current = false;
    };
  }, [serverKey]);
  if (localBlob) return { status: 'ready', blob: localBlob };
  return fetched?.key === serverKey ? fetched.state : { status: 'loading' };
}

/** The slot's number: jb_img2 → 2 (the `files` store's imgNo). */
function slotNumber(slot: string): number {
  return Number(slot.slice(-1));
}

/** The images `row` has: a local pending copy of a slot wins over the server's (it is newer). */
export function useRecordImages(entity: EntityShape, row: Readonly<Record<string, unknown>> | null | undefined): ExistingImage[] {
  const key = row ? String(row[entity.keyFields[0] as string] ?? '') : '';
  const { docs } = useLiveQuery(fileEntity, { selector: { srcId: key } });
  return useMemo(() => {
    const out: ExistingImage[] = [];
    for (const slot of entity.images) {
      const local = docs.find((doc) => doc.imgNo === slotNumber(slot));
      const name = row?.[slot];
      if (local) out.push({ slot, source: { kind: 'local', data: local.data, type: local.type }, pending: true });
      else if (typeof name === 'string' && name && key) out.push({ slot, source: { kind: 'server', id: key, name } });
    }
    return out;
  }, [entity, docs, row, key]);
}
