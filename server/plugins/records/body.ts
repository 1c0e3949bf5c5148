// Reading a record from a request: JSON (validated by the route schema) or multipart
// (record fields plus image files, validated here against the same derived schema).
import type { FastifyRequest } from 'fastify';
import type { EntityShape, Field } from '../../../schemas/define';
import type { JsonSchema } from '../../../schemas/define';
import { HttpError } from '../../lib/errors';
import { IMAGE_TYPES, readMultipart, type UploadedFile } from '../../lib/uploads';

export interface RecordInput {
  body: Record<string, unknown>;
  files: UploadedFile[];
  /** Image slots the client asked to empty (multipart field `removeImages`, comma-separated). */
  removeImages: string[];
}

/** Multipart sends text: turn each field back into the type its declaration says. */
function fromFormValue(field: Field | undefined, raw: string): unknown {
  if (raw === '' || raw === 'null') return null;
  switch (field?.kind) {
    case 'integer':
    case 'number':
    case 'lat':
    case 'lng':
    case 'lookup':
      return Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'enum':
      return field.values.some((v) => typeof v === 'number') && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

function formToBody(entity: EntityShape, fields: Record<string, string>): Record<string, unknown> {
  // The whole record may also come as one JSON field `data` (how FormData clients often send it).
  const parsed: unknown = fields.data ? JSON.parse(fields.data) : {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('data is not an object');
  const base = parsed as Record<string, unknown>;
  for (const [name, raw] of Object.entries(fields)) {
    if (name === 'data' || name === 'removeImages') continue;
    const value = fromFormValue(entity.fields[name], raw);
    if (value !== null || entity.fields[name]) base[name] = value;
  }
  // A null from an empty form input means "not given" on create, which the schema reads as absent.
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== null));
}

/**
 * The record and files of a create or update request. `validate` is the compiled body schema,
 * used for multipart bodies (JSON bodies were validated by the route already).
 */
export async function readRecordInput(request: FastifyRequest, entity: EntityShape, schema: JsonSchema): Promise<RecordInput> {
  if (!request.isMultipart()) return { body: (request.body ?? {}) as Record<string, unknown>, files: [], removeImages: [] };
  if (!entity.images.length) throw new HttpError(415, 'http.mediaType');
  const { fields, files } = await readMultipart(request, IMAGE_TYPES);
  for (const file of files) {
    if (!entity.images.includes(file.field)) throw new HttpError(400, 'validation.unknown', { field: file.field });
  }
  let body: Record<string, unknown>;
  try {
    body = formToBody(entity, fields);
  } catch {
    throw new HttpError(400, 'http.badJson');
  }
  const validate = request.compileValidationSchema(schema as Record<string, unknown>);
  if (!validate(body)) {
    const error = Object.assign(new Error('validation'), { validation: validate.errors ?? [], statusCode: 400 });
    throw error;
  }
  const removeImages = (fields.removeImages ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => entity.images.includes(s));
  return { body, files, removeImages };
}
