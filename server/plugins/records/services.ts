// Service verification (ADR-0026): new services are pending (0); a verifier sets verified (1)
// or rejected (2, with a required comment); an edited rejected service returns to pending.
// ADR-0026: nobody verifies a service they created or last changed, and a verified service
// whose address, contact or location changes returns to pending unless a verifier of its
// organisation (or role 1) made the change: vulnerable clients are referred to verified services.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ListRequest } from '../../../schemas/listQuery';
import { can } from '../../../schemas/roles';
import { apprenticeship, service, serviceProvider, SERVICE_STATUS, vocational } from '../../../schemas/index';
import { nullable, pageSchema, rowSchema } from '../../../schemas/derive/json-schema';
import { listQuery, object, oneOf, text } from '../../../schemas/derive/typed';
import type { Db, Queryable } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { addScope, Conditions, getRowOr404, listRows, reading, writing, type Values } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import type { Row } from '../../db/index';
import type { EntityHooks } from './routes';
import { idParams, softDelete } from './routes';

/** What a client is sent to: where the service is and whom it belongs to. */
const SERVICE_CHECKED_FIELDS = ['territory', 'sp_Id'] as const;
/** The provider's address, contact and location, which its verified services vouch for. */
const PROVIDER_CHECKED_FIELDS = ['sp_Address', 'phone', 'email', 'contact', 'territory', 'lat', 'lng'] as const;

const comparable = (value: unknown): unknown => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
};

/** True when `values` (an update's) changes one of `fields` of `current`. */
function changes(values: Values, current: Row, fields: readonly string[]): boolean {
  return fields.some((name) => name in values && comparable(values[name]) !== comparable(current[name]));
}

/** A verifier (of the record's organisation: a change is scoped to it) or role 1 may change what
 * a verification vouches for without sending it back to pending. */
const mayKeepVerified = (request: FastifyRequest) => can(request.user.role, 'services.verify');

export const serviceHooks: EntityHooks = {
  beforeUpdate(values, current, request) {
    if (current.status === SERVICE_STATUS.rejected) values.status = SERVICE_STATUS.pending;
    if (current.status === SERVICE_STATUS.verified && changes(values, current, SERVICE_CHECKED_FIELDS) && !mayKeepVerified(request)) {
      values.status = SERVICE_STATUS.pending;
    }
  },
};

export const providerHooks: EntityHooks = {
  // A change of the provider's address, contact or location sends its verified services back
  // to pending, marked as changed by the editor (who may then not verify them).
  async beforeUpdate(values, current, request, tx) {
    if (!changes(values, current, PROVIDER_CHECKED_FIELDS) || mayKeepVerified(request)) return;
    await tx.query(
      `UPDATE "tbl_sp_detail" SET "status" = $2, "updatedAt" = date_trunc('milliseconds', now()), "updatedBy" = $3
       WHERE "sp_Id" = $1 AND "status" = $4 AND NOT "deleted"`,
      [current.sp_Id, SERVICE_STATUS.pending, request.user.userId, SERVICE_STATUS.verified],
    );
  },
  // A deleted provider's services go with it, with the same reason, so no orphan stays listed.
  async afterDelete(spId, request, tx: Queryable, reason) {
    const services = await tx.query<{ sp_Detail_Id: string }>(
      'SELECT "sp_Detail_Id" FROM "tbl_sp_detail" WHERE "sp_Id" = $1 AND NOT "deleted"',
      [spId],
    );
    for (const s of services) await softDelete(tx, service, s.sp_Detail_Id, request.user.userId, reason);
  },
};

const verifyBody = object(
  {
    sp_Detail_Id: text(64, 1),
    status: oneOf('integer', [SERVICE_STATUS.verified, SERVICE_STATUS.rejected]),
    comment: text(1000),
  },
  ['sp_Detail_Id', 'status'],
);

/** POST /sverify/: the decision as stored. */
const verifyAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['sp_Detail_Id', 'status', 'verifiedBy', 'verifiedAt'],
  properties: {
    sp_Detail_Id: { type: 'string' },
    status: { type: 'integer' },
    verifyComment: { type: ['string', 'null'] },
    verifiedBy: { type: 'string' },
    verifiedAt: { type: 'string', format: 'date-time' },
  },
} as const;

/** GET /spDetail/view/{id}: the service's row, its provider's (null when the user may not read
 * it) and its apprenticeships and vocational trainings. */
const serviceView = {
  ...rowSchema(service),
  properties: {
    ...rowSchema(service).properties,
    provider: nullable(rowSchema(serviceProvider)),
    apprenticeships: { type: 'array', items: rowSchema(apprenticeship) },
    vocational: { type: 'array', items: rowSchema(vocational) },
  },
};

export default async function servicesPlugin(instance: FastifyInstance, { db }: { db: Db }) {
  const app = typed(instance);
  const query = listQuery(service);
  const page = pageSchema(service);
  // The verification lists hold what the user may verify or fix: its organisation's services
  // (role 1: all), the same scope as a change.
  const byStatus = (status: number) => (request: FastifyRequest<{ Querystring: ListRequest }>) => {
    const where = new Conditions();
    where.add(`"status" = ${where.param(status)}`);
    return listRows(db, service, request.query, where, writing(request.user));
  };
  app.get(
    '/api/spDetail/spending',
    { schema: { querystring: query, response: { 200: page } }, config: { permission: 'services.verify' } },
    byStatus(SERVICE_STATUS.pending),
  );
  app.get(
    '/api/spDetail/srejected',
    { schema: { querystring: query, response: { 200: page } }, config: { permission: 'serviceProviders.read' } },
    byStatus(SERVICE_STATUS.rejected),
  );

  app.get(
    '/api/spDetail/view/:id',
    { schema: { params: idParams, response: { 200: serviceView } }, config: { permission: 'serviceProviders.read' } },
    async (request) => {
      const { id } = request.params;
      const access = reading(request.user);
      const detail = await getRowOr404(db, service, id, access);
      const provider = await getRowOr404(db, serviceProvider, String(detail.sp_Id), access).catch(() => null);
      const children = { page: 1, pageSize: 200 };
      const [apprenticeships, trainings] = await Promise.all([
        listRows(db, apprenticeship, { ...children, sp_d_Id: id }, undefined, access),
        listRows(db, vocational, { ...children, sp_d_Id: id }, undefined, access),
      ]);
      return { ...detail, provider, apprenticeships: apprenticeships.rows, vocational: trainings.rows };
    },
  );

  app.post(
    '/api/sverify/',
    { schema: { body: verifyBody, response: { 200: verifyAnswer } }, config: { permission: 'services.verify' } },
    async (request) => {
      const { sp_Detail_Id, status, comment } = request.body;
      if (status === SERVICE_STATUS.rejected && !comment?.trim()) throw new HttpError(400, 'verify.commentRequired');
      // Verifiers verify their own organisation's services (role 1: all): verifying is a change.
      // Not their own: a service they created or last changed needs another verifier (§7). The
      // decision leaves `updatedBy` (the last change of the service itself) as it was.
      const me = request.user.userId;
      const inScope = (where: Conditions) =>
        addScope(service, writing(request.user), where.add(`"sp_Detail_Id" = ${where.param(sp_Detail_Id)}`).add('NOT "deleted"'));
      const lookup = inScope(new Conditions());
      const found = await db.query<{ createdBy: string | null; updatedBy: string | null }>(
        `SELECT "createdBy", "updatedBy" FROM "tbl_sp_detail" ${lookup.sql}`,
        lookup.params,
      );
      if (!found[0]) throw new HttpError(404, 'http.recordNotFound');
      if (found[0].createdBy === me || found[0].updatedBy === me) throw new HttpError(403, 'verify.ownService');
      const where = new Conditions();
      const set = [where.param(status), where.param(comment?.trim() || null), where.param(me)];
      inScope(where);
      where.add(`"createdBy" IS DISTINCT FROM ${set[2]} AND "updatedBy" IS DISTINCT FROM ${set[2]}`); // a change made meanwhile
      const rows = await db.query(
        `UPDATE "tbl_sp_detail" SET "status" = ${set[0]}, "verifyComment" = ${set[1]}, "verifiedBy" = ${set[2]}, "verifiedAt" = now(),
         "updatedAt" = date_trunc('milliseconds', now())
       ${where.sql} RETURNING "sp_Detail_Id", "status", "verifyComment", "verifiedBy", "verifiedAt"`,
        where.params,
      );
      if (!rows[0]) throw new HttpError(403, 'verify.ownService');
      return rows[0];
    },
  );
}
