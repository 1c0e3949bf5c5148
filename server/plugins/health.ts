import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index';
import { RETRY_AFTER_SECONDS } from '../lib/errors';

/** Health answers within this time even when the database is frozen (it must stay under 2 s). */
export const HEALTH_TIMEOUT_MS = 1_000;

/** The database's state: up (200) or down (503, with Retry-After). */
const healthAnswer = (status: 'ok' | 'error', database: 'up' | 'down') => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', 'database', 'kind'],
  properties: {
    status: { type: 'string', enum: [status] },
    database: { type: 'string', enum: [database] },
    kind: { type: 'string', enum: ['pglite', 'postgres'] },
  },
});

/** Reports whether the database answers; public so a load balancer can ask. */
export default async function healthPlugin(app: FastifyInstance, { db }: { db: Db }) {
  const schema = { response: { 200: healthAnswer('ok', 'up'), 503: healthAnswer('error', 'down') } };
  app.get('/api/health', { schema, config: { public: true } }, async (request, reply) => {
    if (await db.ping(HEALTH_TIMEOUT_MS)) return { status: 'ok', database: 'up', kind: db.kind };
    request.log.warn('health: the database did not answer');
    reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return reply.status(503).send({ status: 'error', database: 'down', kind: db.kind });
  });
}
