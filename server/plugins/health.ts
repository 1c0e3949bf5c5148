import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index';

/** Reports whether the database answers; public so a load balancer can ask. */
export default async function healthPlugin(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/api/health', { config: { public: true } }, async (request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok', database: 'up', kind: db.kind };
    } catch (error) {
      request.log.error({ err: error }, 'database unreachable');
      return reply.status(503).send({ status: 'error', database: 'down' });
    }
  });
}
