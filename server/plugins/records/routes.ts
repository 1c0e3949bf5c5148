// The routes of one entity, derived from its declaration in schemas/: list, search, children
// of a parent, get, create (JSON or multipart with images), update, upsert and soft delete.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createPermission, generatedKey, immutableFields, type EntityShape, type JsonSchema } from '../../../schemas/define';
import { createBodySchema, pageSchema, rowSchema, updateBodySchema } from '../../../schemas/derive/json-schema';
import { listQuery, object, oneOf, text } from '../../../schemas/derive/typed';
import { uuidv7 } from '../../../schemas/ids';
import type { Db, Queryable, Row } from '../../db/index';
import { fieldError, HttpError } from '../../lib/errors';
import { deleteImages, putImage, storedName } from '../../lib/images';
import {
  Conditions,
  getRow,
  getRowOr404,
  insertRow,
  listRows,
  reading,
  updateRow,
  upsertRow,
  writableValues,
  writing,
  type Values,
} from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { findUserById } from '../users/store';
import { readRecordInput, type RecordInput } from './body';

/** Entity-specific rules the generic routes call at the right moment. */
export interface EntityHooks {
  /** Before a new record is stored: fill or check server-owned values. */
  beforeCreate?(values: Values, request: FastifyRequest, tx: Queryable): Promise<void> | void;
  /** Before an update is stored, with the current row. */
  beforeUpdate?(values: Values, current: Row, request: FastifyRequest, tx: Queryable): Promise<void> | void;
  /** After a new record is stored, in the same transaction, with the stored row. */
  afterCreate?(row: Row, request: FastifyRequest, tx: Queryable): Promise<void>;
  /** After a soft delete, in the same transaction (e.g. the services of a deleted provider). */
  afterDelete?(key: string, request: FastifyRequest, tx: Queryable, reason: string): Promise<void>;
}

/** The `:id` of a record's path. */
export const idParams = object({ id: text(100, 1) }, ['id'], { open: true });
/** What a removal for good asks (a delete, a client's erasure): why, and the password again. */
export const reasonAndPassword = object({ reason: text(500, 3), password: text(200, 1) }, ['reason', 'password']);

/** Asks the signed-in user's password again (product.md §5, a delete): a wrong one changes nothing
 * (400 delete.badPassword). The one throttled check (sign-in's, ADR-0002): a borrowed token
 * cannot try passwords without limit. */
export async function confirmPassword(app: FastifyInstance, db: Queryable, request: FastifyRequest, password: string): Promise<void> {
  const me = await findUserById(db, request.user.userId);
  if (!me || !(await app.passwords.verify(request, me.userName, me.passwordHash, password, 'auth.tooManyPasswords'))) {
    throw new HttpError(400, 'delete.badPassword');
  }
}

/** A JSON body schema that leaves multipart requests to the handler (which validates them itself). */
const jsonBody = <S extends JsonSchema>(schema: S) => ({ content: { 'application/json': { schema } } });

/** The server-owned owner of a new record: the creating user's organisation. */
function fillOwner(entity: EntityShape, values: Values, request: FastifyRequest) {
  if (entity.fields.location?.readOnly) values.location = request.user.location;
}

/** Names the incoming files and empties removed slots; answers what to store after the row. */
function imageColumns(input: RecordInput, values: Values): { slot: string; name: string; file: RecordInput['files'][number] }[] {
  for (const slot of input.removeImages) values[slot] = null;
  return input.files.map((file) => {
    const name = storedName(file.field, file.mime);
    values[file.field] = name;
    return { slot: file.field, name, file };
  });
}

/** Refuses (400) an update that changes a field declared immutable once it holds a value. */
function assertImmutableKept(request: FastifyRequest, entity: EntityShape, values: Values, current: Row) {
  for (const [name] of immutableFields(entity)) {
    const stored = current[name];
    if (stored === null || stored === undefined || !(name in values) || values[name] === stored) continue;
    throw fieldError(request, name, 'record.immutable', { field: name, value: String(stored) });
  }
}

/** Creates and updates records of one entity: the single-record routes and the batched push
 * (server/plugins/sync/push.ts) both store through it, so the rules live in one place. */
export interface EntityWriter {
  /** Stores a new record (upsert entities: creates it or replaces what it says). */
  create(request: FastifyRequest, input: RecordInput): Promise<{ row: Row; status: 200 | 201 }>;
  /** Updates a record; `input.body.updatedAt` makes a newer server row a 409 'conflict'. */
  update(request: FastifyRequest, id: string, input: RecordInput): Promise<Row>;
}

/** The record input of a JSON body (no files, no removals). */
export const jsonInput = (body: Record<string, unknown>): RecordInput => ({ body, files: [], removeImages: [] });

/** What a writer stores through: the database, or a batch's transaction whose records are each
 * a savepoint (server/plugins/sync/push.ts). */
export type WriterStore = Pick<Db, 'query' | 'transaction'>;

export function entityWriter(db: WriterStore, entity: EntityShape, hooks: EntityHooks = {}): EntityWriter {
  async function insert(request: FastifyRequest, input: RecordInput) {
    const values = writableValues(entity, input.body);
    const key = generatedKey(entity);
    if (key && !values[key]) values[key] = uuidv7();
    fillOwner(entity, values, request);
    const images = imageColumns(input, values);
    return db.transaction(async (tx) => {
      await hooks.beforeCreate?.(values, request, tx);
      const stored = await insertRow(tx, entity, values, request.user.userId, writing(request.user));
      await hooks.afterCreate?.(stored, request, tx);
      const owner = { table: entity.table, id: String(values[entity.keyFields[0]]) };
      for (const image of images) await putImage(tx, owner, image.slot, image.file, request.user.userId, image.name);
      return stored;
    });
  }

  async function upsert(request: FastifyRequest, input: RecordInput) {
    const values = writableValues(entity, input.body);
    return upsertRow(db, entity, values, request.user.userId, writing(request.user));
  }

  return {
    async create(request, input) {
      if (!entity.routes.upsert) return { row: await insert(request, input), status: 201 };
      const { row, inserted } = await upsert(request, input);
      return { row, status: inserted ? 201 : 200 };
    },
    update(request, id, input) {
      const values = writableValues(entity, input.body);
      const images = imageColumns(input, values);
      return db.transaction(async (tx) => {
        const current = await getRowOr404(tx, entity, id, writing(request.user), true);
        assertImmutableKept(request, entity, values, current);
        await hooks.beforeUpdate?.(values, current, request, tx);
        const updated = await updateRow(
          tx,
          entity,
          id,
          values,
          request.user.userId,
          input.body.updatedAt as string | undefined,
          writing(request.user),
        );
        const owner = { table: entity.table, id };
        await deleteImages(
          tx,
          owner,
          input.removeImages.filter((slot) => !images.some((image) => image.slot === slot)),
        );
        for (const image of images) await putImage(tx, owner, image.slot, image.file, request.user.userId, image.name);
        return updated;
      });
    },
  };
}

export function registerEntityRoutes(instance: FastifyInstance, db: Db, entity: EntityShape, hooks: EntityHooks = {}) {
  const app = typed(instance);
  const base = `/api${entity.rest}`;
  const read = { permission: entity.access.read };
  const write = { permission: entity.access.write };
  const createNew = { permission: createPermission(entity) };
  const row = rowSchema(entity);
  const createSchema = createBodySchema(entity);
  const updateSchema = updateBodySchema(entity);
  const page = pageSchema(entity);
  const query = listQuery(entity);
  const writer = entityWriter(db, entity, hooks);

  async function create(request: FastifyRequest, reply: FastifyReply) {
    const input = await readRecordInput(request, entity, createSchema);
    const { row: created, status } = await writer.create(request, input);
    return reply.status(status).send(created);
  }

  async function update(request: FastifyRequest<{ Params: { id: string } }>) {
    return writer.update(request, request.params.id, await readRecordInput(request, entity, updateSchema));
  }

  if (entity.list) {
    app.get(base, { schema: { querystring: query, response: { 200: page } }, config: read }, (request) =>
      listRows(db, entity, request.query, undefined, reading(request.user)),
    );
  }
  if (entity.list && entity.routes.search) {
    app.post(`${base}${entity.routes.search}`, { schema: { body: query, response: { 200: page } }, config: read }, (request) =>
      listRows(db, entity, request.body, undefined, reading(request.user)),
    );
  }
  if (entity.list && entity.routes.byParent && entity.parent) {
    const parentField = entity.parent.field;
    app.get(
      `${base}${entity.routes.byParent}/:id`,
      { schema: { params: idParams, querystring: query, response: { 200: page } }, config: read },
      (request) => listRows(db, entity, { ...request.query, [parentField]: request.params.id }, undefined, reading(request.user)),
    );
  }
  app.get(`${base}/:id`, { schema: { params: idParams, response: { 200: row } }, config: read }, (request) =>
    getRowOr404(db, entity, request.params.id, reading(request.user)),
  );

  // Upsert entities (profile sub-records): POST creates the record or replaces what it says.
  const createResponses = entity.routes.upsert ? { 200: row, 201: row } : { 201: row };
  app.post(`${base}/`, { schema: { body: jsonBody(createSchema), response: createResponses }, config: createNew }, create);
  app.put(`${base}/:id`, { schema: { params: idParams, body: jsonBody(updateSchema), response: { 200: row } }, config: write }, update);

  if (entity.softDelete) {
    const deleted = { response: { 200: object({ result: oneOf('string', ['deleted']), id: text(100) }, ['result', 'id']) } };
    app.post(
      `${base}/delete/:id`,
      { schema: { params: idParams, body: reasonAndPassword, ...deleted }, config: write },
      async (request) => {
        const { id } = request.params;
        const { reason, password } = request.body;
        await confirmPassword(app, db, request, password);
        return db.transaction(async (tx) => {
          await getRowOr404(tx, entity, id, writing(request.user));
          await softDelete(tx, entity, id, request.user.userId, reason);
          await hooks.afterDelete?.(id, request, tx, reason);
          return { result: 'deleted', id };
        });
      },
    );
  }
}

/** Marks a record deleted with who, when and why; it disappears from lists and reads. */
export async function softDelete(tx: Queryable, entity: EntityShape, id: string, userId: string, reason: string, where = new Conditions()) {
  const key = entity.keyFields[0];
  await tx.query(
    `UPDATE "${entity.table}" SET "deleted" = true, "deleteReason" = ${where.param(reason)}, "deletedBy" = ${where.param(userId)},
       "deletedAt" = now(), "updatedAt" = date_trunc('milliseconds', now()), "updatedBy" = ${where.param(userId)}
     WHERE "${key}" = ${where.param(id)} AND NOT "deleted"`,
    where.params,
  );
}

export { getRow };
