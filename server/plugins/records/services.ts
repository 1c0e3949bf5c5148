// Service verification (issue 3): new services are pending (0); a verifier sets verified (1)
// or rejected (2, with a required comment); an edited rejected service returns to pending.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apprenticeship, service, serviceProvider, SERVICE_STATUS, vocational } from '../../../schemas/index';
import { listQuerySchema, pageSchema, textSchema } from '../../../schemas/derive/json-schema';
import type { Db, Queryable } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { addScope, Conditions, getRowOr404, listRows, reading, writing, type ListQuery } from '../../lib/records';
import type { EntityHooks } from './routes';
import { softDelete } from './routes';

export const serviceHooks: EntityHooks = {
  beforeUpdate(values, current) {
    if (current.status === SERVICE_STATUS.rejected) values.status = SERVICE_STATUS.pending;
  },
};

export const providerHooks: EntityHooks = {
  // A deleted provider's services go with it, with the same reason, so no orphan stays listed.
  async afterDelete(spId, request, tx: Queryable, reason) {
    const services = await tx.query<{ sp_Detail_Id: string }>(
      'SELECT "sp_Detail_Id" FROM "tbl_sp_detail" WHERE "sp_Id" = $1 AND NOT "deleted"',
      [spId],
    );
    for (const s of services) await softDelete(tx, service, s.sp_Detail_Id, request.user.userId, reason);
  },
};

const verifyBody = {
  type: 'object',
  required: ['sp_Detail_Id', 'status'],
  additionalProperties: false,
  properties: {
    sp_Detail_Id: textSchema(64, 1),
    status: { type: 'integer', enum: [SERVICE_STATUS.verified, SERVICE_STATUS.rejected] },
    comment: textSchema(1000),
  },
} as const;

export default async function servicesPlugin(app: FastifyInstance, { db }: { db: Db }) {
  const query = listQuerySchema(service);
  const page = pageSchema(service);
  // The verification lists hold what the user may verify or fix: its organisation's services
  // (role 1: all), the same scope as a change.
  const byStatus = (status: number) => (request: FastifyRequest) => {
    const where = new Conditions();
    where.add(`"status" = ${where.param(status)}`);
    return listRows(db, service, request.query as ListQuery, where, writing(request.user));
  };
  app.get('/api/spDetail/spending', { schema: { querystring: query, response: { 200: page } }, config: { permission: 'services.verify' } },
    byStatus(SERVICE_STATUS.pending));
  app.get('/api/spDetail/srejected', { schema: { querystring: query, response: { 200: page } }, config: { permission: 'serviceProviders.read' } },
    byStatus(SERVICE_STATUS.rejected));

  app.get('/api/spDetail/view/:id', { config: { permission: 'serviceProviders.read' } }, async (request) => {
    const { id } = request.params as { id: string };
    const access = reading(request.user);
    const detail = await getRowOr404(db, service, id, access);
    const provider = await getRowOr404(db, serviceProvider, String(detail.sp_Id), access).catch(() => null);
    const children = { page: 1, pageSize: 200 } as ListQuery;
    const [apprenticeships, trainings] = await Promise.all([
      listRows(db, apprenticeship, { ...children, sp_d_Id: id }, undefined, access),
      listRows(db, vocational, { ...children, sp_d_Id: id }, undefined, access),
    ]);
    return { ...detail, provider, apprenticeships: apprenticeships.rows, vocational: trainings.rows };
  });

  app.post('/api/sverify/', { schema: { body: verifyBody }, config: { permission: 'services.verify' } }, async (request) => {
    const { sp_Detail_Id, status, comment } = request.body as { sp_Detail_Id: string; status: number; comment?: string };
    if (status === SERVICE_STATUS.rejected && !comment?.trim()) throw new HttpError(400, 'verify.commentRequired');
    // Verifiers verify their own organisation's services (role 1: all): verifying is a change.
    const where = new Conditions();
    const set = [where.param(status), where.param(comment?.trim() || null), where.param(request.user.userId)];
    where.add(`"sp_Detail_Id" = ${where.param(sp_Detail_Id)}`).add('NOT "deleted"');
    addScope(service, writing(request.user), where);
    const rows = await db.query(
      `UPDATE "tbl_sp_detail" SET "status" = ${set[0]}, "verifyComment" = ${set[1]}, "verifiedBy" = ${set[2]}, "verifiedAt" = now(),
         "updatedAt" = date_trunc('milliseconds', now()), "updatedBy" = ${set[2]}
       ${where.sql} RETURNING "sp_Detail_Id", "status", "verifyComment", "verifiedBy", "verifiedAt"`,
      where.params,
    );
    if (!rows[0]) throw new HttpError(404, 'http.recordNotFound');
    return rows[0];
  });
}
