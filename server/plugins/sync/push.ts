// Batched upload (ADR-0013): POST /api/sync/push/{table} takes up to PUSH_LIMITS records of one
// kind and answers one result per record, each what the single-record route would have answered
// (status and body). Every record is stored through the same writer as POST {rest}/ and PUT
// {rest}/{id} (server/plugins/records/routes.ts), in the batch's one transaction; a record that
// fails is rolled back alone (the batch then runs again with a savepoint per record), so one bad
// record never fails the others, the batch costs one commit (one WAL
// flush) instead of one per record, and the role and organisation rules are the single-record
// routes' own. A batch whose transaction fails stores none of its records: it has no answer, and
// the engine finds nothing of it on its next run.
// A batch may be multipart (the field `records` plus the records' images, part `{index}.{slot}`):
// each record is stored with its images in one transaction, through the same writer, and an
// image of a refused type fails its record alone.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createPermission, type EntityShape, type JsonSchema } from '../../../schemas/define';
import { currentActor, declareActor, runAs, type AuditActor } from '../audit/context';
import { anyObject, arrayOf, object, oneOf, string, text, type SchemaValue } from '../../../schemas/derive/typed';
import { getEntityByTable, PUSH_LIMITS } from '../../../schemas/index';
import { can } from '../../../schemas/roles';
import type { Db, Queryable, Row } from '../../db/index';
import { clientErrorAnswer, fieldError, HttpError, internalErrorAnswer, validationAnswer, type ErrorAnswer } from '../../lib/errors';
import { uuidv7Time } from '../../../schemas/ids';
import { getRow, prefetchRefsInScope, reading, writableValues, writing } from '../../lib/records';
import { MAX_FILE_BYTES, readMultipart, type UploadedFile } from '../../lib/uploads';
import type { RecordInput } from '../records/body';
import { pushShapeOf, writerOf, type PushShape } from '../records/index';
import { jsonInput, type EntityWriter, type WriterStore } from '../records/routes';
import { isDatabaseUnavailable } from '../../db/index';
import { checked, typed } from '../../lib/typeProvider';
import type { Metrics } from '../../lib/metrics';

/** One record's answer: what the single-record route would have answered. */
export interface PushResult {
  key: string;
  status: number;
  body: Row | ErrorAnswer['body'];
}

/** The table of a sync route's path (an offline collection's name). */
export const tableParams = object({ table: text(64, 1) }, ['table'], { open: true });

const pushRecord = object(
  {
    op: oneOf('string', ['create', 'update']),
    /** The record's key (updates; creates carry theirs in `data`). */
    id: text(100, 1),
    /** The fields, as the JSON body of POST {rest}/ or PUT {rest}/{id} (with `updatedAt` = the edit's base). */
    data: anyObject(),
    /** Image slots to empty (updates), as the single-record route's `removeImages`. */
    removeImages: arrayOf(text(64, 1), { maxItems: 10 }),
    /** When the change was made on the device (the audit log keeps it beside the server's time):
     * not before the record was made, nor after now, DEVICE_CLOCK_SKEW_MS allowed (deviceAtRange). */
    deviceAt: string({ type: 'string', format: 'date-time', maxLength: 40 }),
  },
  ['op', 'data'],
);

export type PushRecord = SchemaValue<typeof pushRecord>;

const pushBody = object({ records: arrayOf(pushRecord, { minItems: 1, maxItems: PUSH_LIMITS.records }) }, ['records']);

/** One answer per record, in the order sent: its key, and the status and body the single-record
 * route would have answered (the row, or the error with, for a duplicate, the server's copy).
 * The body is open: the serializer passes every column and error field untouched. */
const pushAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'status', 'body'],
        properties: {
          key: { type: 'string' },
          status: { type: 'integer' },
          body: {
            type: 'object',
            additionalProperties: true,
            description: 'The row stored, or the error answer ({statusCode, error, code, message, …}).',
          },
        },
      },
    },
  },
};

/** The tables that take batches: offline kinds stored through the generic routes, and profile images. */
function pushableEntity(table: string): { entity: EntityShape; shape: PushShape } {
  const entity = getEntityByTable(table);
  const shape = entity && pushShapeOf(entity);
  if (!entity || !shape) throw new HttpError(404, 'http.notFound', { path: `/api/sync/push/${table}` });
  return { entity, shape };
}

/** A role that may not make one of the batch's changes is refused the whole batch, as the
 * single-record route would refuse each of them (403, nothing stored). */
function assertAllowed(request: FastifyRequest, entity: EntityShape, records: readonly PushRecord[]) {
  const role = request.user.role;
  if (records.some((r) => r.op === 'create') && !can(role, createPermission(entity))) throw new HttpError(403, 'auth.forbidden');
  if (records.some((r) => r.op === 'update') && !can(role, entity.access.write)) throw new HttpError(403, 'auth.forbidden');
}

interface Pusher {
  entity: EntityShape;
  /** The previous record declared its own device time (the next one resets it). */
  deviceAtSaid?: boolean;
  writer: EntityWriter;
  validateCreate: (data: unknown) => ValidationResult;
  validateUpdate: (data: unknown) => ValidationResult;
}

type ValidationResult = { ok: true } | { ok: false; answer: ErrorAnswer };

/** The body schema's check, answering in the request's language (the same schema and compiler
 * as the single-record routes: coercion and defaults alike). */
function validator(request: FastifyRequest, schema: JsonSchema) {
  const validate = request.compileValidationSchema(schema as Record<string, unknown>);
  return (data: unknown): ValidationResult => {
    if (validate(data)) return { ok: true };
    return { ok: false, answer: validationAnswer(request, (validate.errors ?? []) as Parameters<typeof validationAnswer>[1]) };
  };
}

/** How far a device's clock may be from the server's (docs/security.md "Audit log"): 5 minutes. */
export const DEVICE_CLOCK_SKEW_MS = 5 * 60_000;
/** The earliest device time of a record whose key tells no time (not a UUIDv7): before any record of ICRS. */
const DEVICE_TIME_FLOOR = Date.UTC(2020, 0, 1);
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * A record's `deviceAt` is refused (400 sync.deviceAtRange) before its record was made on the
 * device, which its key (a UUIDv7, or its client's for a sub-record or photo) tells, or after
 * the server's now, each with DEVICE_CLOCK_SKEW_MS of clock difference: the log's device time
 * is then a time the change could have been made (a wrong clock's 1900-01-01 is not kept).
 */
function deviceAtRange(request: FastifyRequest, key: string, deviceAt: string | undefined): void {
  if (deviceAt === undefined) return;
  const at = Date.parse(deviceAt);
  const made = UUID_V7.test(key) ? uuidv7Time(key) : DEVICE_TIME_FLOOR;
  if (Number.isFinite(at) && at >= made - DEVICE_CLOCK_SKEW_MS && at <= Date.now() + DEVICE_CLOCK_SKEW_MS) return;
  throw fieldError(request, 'deviceAt', 'sync.deviceAtRange', { value: deviceAt });
}

const keyOf = (entity: EntityShape, record: PushRecord) =>
  String(record.op === 'update' ? (record.id ?? '') : (record.data[entity.keyFields[0] as string] ?? ''));

/** A record's images in a multipart batch, or why they were refused (that record fails alone). */
interface RecordFiles {
  files: UploadedFile[];
  refused?: HttpError;
}

const NO_FILES: RecordFiles = { files: [] };

/** The record input the writer stores: fields, images and slots to empty, as the single-record routes'. */
function recordInput(entity: EntityShape, record: PushRecord, files: UploadedFile[]): RecordInput {
  // Profile images have no slots to empty (PUT /profile/images replaces by kind).
  const removeImages = (record.removeImages ?? []).filter((slot) => entity.images.includes(slot));
  return { ...jsonInput(record.data), files, removeImages };
}

/** The batch's transaction as the writer's store: the record's savepoint (pushOne) is its
 * transaction. One object for both, so what the batch learnt in it (prefetchRefsInScope) holds
 * for every write of the batch. */
function batchStore(tx: Queryable): WriterStore & Queryable {
  const store: WriterStore & Queryable = { query: (sql, params) => tx.query(sql, params), transaction: (work) => work(store) };
  return store;
}

/** Stores one record in its own savepoint of the batch's transaction `tx`; a client's mistake
 * becomes its answer (that record's writes rolled back), a database outage ends the batch. */
/** A record failed after its writes began in a batch run without savepoints: the batch runs
 * again, each record in its own savepoint, so that the failure is that record's alone. */
class NeedsSavepoints extends Error {}

/** Stores one record in the batch's transaction `tx`; `isolated`, in its own savepoint, so that a
 * client's mistake becomes its answer (that record's writes rolled back). Not isolated (the first
 * try of a batch: two round trips less per record), a failure after the record's writes began
 * asks for the batch again, isolated. A database outage ends the batch. */
async function pushOne(
  request: FastifyRequest,
  tx: Queryable,
  p: Pusher,
  record: PushRecord,
  images: RecordFiles,
  isolated: boolean,
): Promise<PushResult> {
  const key = keyOf(p.entity, record);
  const checked = record.op === 'create' ? p.validateCreate(record.data) : p.validateUpdate(record.data);
  if (!checked.ok) return { key, status: checked.answer.statusCode, body: checked.answer.body };
  let writing = false;
  try {
    if (images.refused) throw images.refused;
    if (record.op === 'update' && !record.id) throw new HttpError(400, 'validation.required', { field: 'id' });
    deviceAtRange(request, key, record.deviceAt);
    const input = recordInput(p.entity, record, images.files);
    writing = true;
    if (isolated) await tx.query('SAVEPOINT push_record');
    // The device's time, when the record says it (rolled back with the savepoint, else reset by the next).
    if (record.deviceAt || p.deviceAtSaid) {
      p.deviceAtSaid = Boolean(record.deviceAt);
      await declareActor(tx, uploadActor(record.deviceAt));
    }
    const { row, status } =
      record.op === 'create'
        ? await p.writer.create(request, input)
        : { row: await p.writer.update(request, String(record.id), input), status: 200 };
    if (isolated) await tx.query('RELEASE SAVEPOINT push_record');
    return { key, status, body: row };
  } catch (error) {
    if (!(error instanceof Error) || isDatabaseUnavailable(error)) throw error;
    if (writing && !isolated) throw new NeedsSavepoints();
    if (writing) {
      await tx.query('ROLLBACK TO SAVEPOINT push_record');
      await tx.query('RELEASE SAVEPOINT push_record');
    }
    const answer = clientErrorAnswer(request, error);
    if (!answer) {
      request.log.error({ err: error }, 'push: record not stored');
      const internal = internalErrorAnswer(request);
      return { key, status: internal.statusCode, body: internal.body };
    }
    // 'duplicate entry' comes with the server's copy (when the user may read it), so the engine
    // can compare it with the local one without asking for it (product.md §D2).
    if (answer.statusCode === 409 && record.op === 'create' && key) {
      const server = await getRow(tx, p.entity, key, reading(request.user));
      if (server) return { key, status: 409, body: { ...answer.body, server } };
    }
    return { key, status: answer.statusCode, body: answer.body };
  }
}

/** The request's user at work on a batch (the audit triggers take a new record's device time
 * from its UUIDv7 key), with the device's time of a record that says it. */
function uploadActor(deviceAt?: string): AuditActor | undefined {
  const actor = currentActor();
  return actor && { ...actor, upload: true, deviceAt };
}

const IMAGE_PART = /^(\d+)\.(.+)$/;

/**
 * A multipart batch: the field `records` (the JSON body of a JSON batch) and image parts named
 * `{index}.{slot}` (the record's place in `records`, then jb_img1..3 / sp_img1..3, or `file` for a
 * profile image). The type and the per-image size are checked as on the single-record routes;
 * the batch's images together stay within PUSH_LIMITS.imageBytes (413: the engine splits). A
 * refused image fails its record only.
 */
async function readMultipartBatch(request: FastifyRequest, shape: PushShape): Promise<{ records: PushRecord[]; files: RecordFiles[] }> {
  if (!shape.imageSlots.length) throw new HttpError(415, 'http.mediaType');
  const refused: { field: string; error: HttpError }[] = [];
  const { fields, files } = await readMultipart(request, shape.imageTypes, {
    maxFiles: PUSH_LIMITS.records * shape.imageSlots.length,
    maxFileTotal: PUSH_LIMITS.imageBytes,
    maxFieldBytes: PUSH_LIMITS.bytes,
    rejectFile: (field, error) => refused.push({ field, error }),
  });
  let body: unknown;
  try {
    body = JSON.parse(fields.records ?? '');
  } catch {
    throw new HttpError(400, 'http.badJson');
  }
  const { records } = checked(request, pushBody, body);
  const byRecord: RecordFiles[] = records.map(() => ({ files: [] }));
  const target = (field: string) => {
    const match = IMAGE_PART.exec(field);
    const slot = match?.[2] ?? '';
    const place = match ? byRecord[Number(match[1])] : undefined;
    if (!place) throw new HttpError(400, 'validation.unknown', { field });
    return { place, slot };
  };
  for (const file of files) {
    const { place, slot } = target(file.field);
    if (!shape.imageSlots.includes(slot)) place.refused ??= new HttpError(400, 'validation.unknown', { field: slot });
    place.files.push({ ...file, field: slot });
  }
  for (const { field, error } of refused) target(field).place.refused ??= error;
  return { records, files: byRecord };
}

export default async function pushPlugin(instance: FastifyInstance, { db }: { db: Db }) {
  const app = typed(instance);
  // Multipart batches (records with their images); the per-file limit of the single-record routes.
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES } });
  // Made once per table: Fastify caches compiled validators by schema object.
  const shapes = new Map<string, { entity: EntityShape; shape: PushShape }>();
  const pushable = (table: string) => {
    const found = shapes.get(table) ?? pushableEntity(table);
    shapes.set(table, found);
    return found;
  };
  app.post(
    '/api/sync/push/:table',
    {
      // JSON batches are validated by the route; multipart ones by readMultipartBatch (same schema).
      schema: { params: tableParams, body: { content: { 'application/json': { schema: pushBody } } }, response: { 200: pushAnswer } },
      bodyLimit: PUSH_LIMITS.bytes,
    },
    // Counted while in progress: pending uploads (docs/operations.md).
    async (request) =>
      inProgress(app.metrics, async () => {
        const { entity, shape } = pushable(request.params.table);
        const { records, files } = request.isMultipart()
          ? await readMultipartBatch(request, shape)
          : { records: request.body.records, files: [] };
        assertAllowed(request, entity, records);
        const validators = { validateCreate: validator(request, shape.create), validateUpdate: validator(request, shape.update) };
        const batch = uploadActor();
        const run = (isolated: boolean) =>
          db.transaction(async (tx) => {
            const store = batchStore(tx);
            const p: Pusher = { entity, writer: writerOf(store, entity), ...validators };
            // The records' references in one query per reference field (each record's own check asks
            // again only about those not found in scope: they are refused as before).
            await prefetchRefsInScope(
              store,
              entity,
              records.map((r) => writableValues(entity, r.data)),
              writing(request.user),
            );
            const answers: PushResult[] = [];
            // One after the other, in the order sent.
            for (const [i, record] of records.entries())
              answers.push(await pushOne(request, store, p, record, files[i] ?? NO_FILES, isolated));
            return answers;
          });
        // Most batches store every record: tried first without a savepoint per record; one that
        // fails after its writes began rolls the whole try back, and the batch runs isolated.
        const attempt = () =>
          run(false).catch((error: unknown) => {
            if (error instanceof NeedsSavepoints) return run(true);
            throw error;
          });
        // The batch's transaction says it is an upload (the audit's device times).
        const results = await (batch ? runAs(batch, attempt) : attempt());
        const refused = results.filter((r) => r.status >= 300).length;
        app.metrics.uploadBatch(entity.table, results.length - refused, refused);
        return { results };
      }),
  );
}

async function inProgress<T>(metrics: Metrics, work: () => Promise<T>): Promise<T> {
  const done = metrics.uploadReceived();
  try {
    return await work();
  } finally {
    done();
  }
}
