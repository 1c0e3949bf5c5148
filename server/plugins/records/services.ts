// Service verification (issue 3): new services are pending (0); a verifier sets verified (1)
// or rejected (2, with a required comment); an edited rejected service returns to pending.
import type { FastifyInstance } from 'fastify';
import { apprenticeship, service, serviceProvider, SERVICE_STATUS, vocational } from '../../../schemas/index';
import { listQuerySchema, pageSchema, textSchema } from '../../../schemas/derive/json-schema';
import type { Db, Queryable } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { Conditions, getRowOr404, listRows, type ListQuery } from '../../lib/records';
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
  const byStatus = (status: number) => (request: { query: unknown }) => {
    const where = new Conditions();
    where.add(`"status" = ${where.param(status)}`);
    return listRows(db, service, request.query as ListQuery, where);
  };
  app.get('/api/spDetail/spending', { schema: { querystring: query, response: { 200: page } }, config: { permission: 'services.verify' } },
    byStatus(SERVICE_STATUS.pending));
  app.get('/api/spDetail/srejected', { schema: { querystring: query, response: { 200: page } }, config: { permission: 'serviceProviders.read' } },
    byStatus(SERVICE_STATUS.rejected));

  app.get('/api/spDetail/view/:id', { config: { permission: 'serviceProviders.read' } }, async (request) => {
    const { id } = request.params as { id: string };
    const detail = await getRowOr404(db, service, id);
    const provider = await getRowOr404(db, serviceProvider, String(detail.sp_Id)).catch(() => null);
    const children = { page: 1, pageSize: 200 } as ListQuery;
    const [apprenticeships, trainings] = await Promise.all([
      listRows(db, apprenticeship, { ...children, sp_d_Id: id }),
      listRows(db, vocational, { ...children, sp_d_Id: id }),
    ]);
    return { ...detail, provider, apprenticeships: apprenticeships.rows, vocational: trainings.rows };
  });

  app.post('/api/sverify/', { schema: { body: verifyBody }, config: { permission: 'services.verify' } }, async (request) => {
    const { sp_Detail_Id, status, comment } = request.body as { sp_Detail_Id: string; status: number; comment?: string };
    if (status === SERVICE_STATUS.rejected && !comment?.trim()) throw new HttpError(400, 'verify.commentRequired');
    const rows = await db.query(
      `UPDATE "tbl_sp_detail" SET "status" = $1, "verifyComment" = $2, "verifiedBy" = $3, "verifiedAt" = now(),
         "updatedAt" = date_trunc('milliseconds', now()), "updatedBy" = $3
       WHERE "sp_Detail_Id" = $4 AND NOT "deleted" RETURNING "sp_Detail_Id", "status", "verifyComment", "verifiedBy", "verifiedAt"`,
      [status, comment?.trim() || null, request.user.userId, sp_Detail_Id],
    );
    if (!rows[0]) throw new HttpError(404, 'http.recordNotFound');
    return rows[0];
  });
}
