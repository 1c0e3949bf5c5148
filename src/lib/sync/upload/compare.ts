// What the local copy of a record has that the server's copy does not. Used after a 'duplicate
// entry' or 'conflict' answer to tell "my earlier request went through" (nothing differs: done)
// from "there is a newer local edit" (send it) and from a real conflict (keep, let the user choose).
import type { EntityShape } from '../../../../schemas/define';
import { bodyFromDoc } from '../../../../schemas/derive/rxdb';
import { base64Bytes, sameBytes } from './bytes';
import { getImageBytes } from '../../http';
import { QUIET, slotOf, type Row } from './http';
import type { DocData, LocalDoc } from './store';
import type { UploadHttp } from './types';

/** The body of a POST: the record's own fields, key included (fixed on the device, product.md §D2). */
export function createBody(entity: EntityShape, data: Readonly<DocData>): Row {
  return bodyFromDoc(entity, data);
}

/** The body of a PUT: the record's own fields without its key (the path names it). A pending
 * document is the whole record (the data layer keeps a full copy and removes a field the user
 * clears), so an optional field it lacks is sent as null: the clear reaches the server. */
export function updateBody(entity: EntityShape, data: Readonly<DocData>): Row {
  const body = bodyFromDoc(entity, data);
  for (const [name, field] of Object.entries(entity.fields)) {
    const sendable = !field.readOnly && !field.clientOnly && !field.writeOnly && !field.hidden && !field.required;
    if (sendable && body[name] === undefined) body[name] = null;
  }
  for (const key of entity.keyFields) delete body[key];
  return body;
}

/** JSON with object keys sorted: jsonb gives keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The local fields whose value the server row does not have. */
export function changedFields(entity: EntityShape, data: Readonly<DocData>, row: Row): Row {
  return Object.fromEntries(Object.entries(updateBody(entity, data)).filter(([name, value]) => canonical(value) !== canonical(row[name])));
}

/** The local images the server row does not hold byte for byte (an image added or replaced
 * after the request whose answer was lost). */
export async function changedImages(
  http: UploadHttp,
  entity: EntityShape,
  key: string,
  images: readonly LocalDoc[],
  row: Row,
): Promise<LocalDoc[]> {
  const changed: LocalDoc[] = [];
  for (const image of images) {
    const stored = row[slotOf(entity, image)];
    const bytes = typeof stored === 'string' && stored ? await getImageBytes(http, key, stored, QUIET) : undefined;
    if (!bytes || !sameBytes(bytes, base64Bytes(String(image.get('data'))))) changed.push(image);
  }
  return changed;
}
