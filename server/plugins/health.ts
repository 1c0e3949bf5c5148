import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index';
import { RETRY_AFTER_SECONDS } from '../lib/errors';

/** Health answers within this time even when the database is frozen (it must stay under 2 s). */
export const HEALTH_TIMEOUT_MS = 1_000;

const kind = { type: 'string', enum: ['pglite', 'postgres'] } as const;

/** Ready: the database answers (on the check's own connection) and the process is not draining. */
const readyAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'database', 'kind'],
  properties: { status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] }, kind },
} as const;

/** Not ready: the database did not answer ("error", "down"), or the process is going away
 * ("draining", lib/drain.ts: the database is not asked then). */
const notReadyAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'kind'],
  properties: { status: { type: 'string', enum: ['error', 'draining'] }, database: { type: 'string', enum: ['down'] }, kind },
} as const;

const liveAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
} as const;

/**
 * Public, for a load balancer or an orchestrator (README "Health and metrics", docs/api.md):
 * - /api/health/ready (and /api/health, its older name): send requests here? 200 when so; 503 while the
 *   process drains before it stops, or when the database does not answer within 1 s on the
 *   check's own connection (a busy request pool is not a dead database, db/index.ts);
 * - /api/health/live: the process answers at all; 200 while it drains too (it is leaving by
 *   itself: restarting it then would only cut what it is finishing).
 */
export default async function healthPlugin(app: FastifyInstance, { db }: { db: Db }) {
  const readySchema = { response: { 200: readyAnswer, 503: notReadyAnswer } };
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    if (app.drain.draining) {
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return reply.status(503).send({ status: 'draining', kind: db.kind });
    }
    if (await db.ping(HEALTH_TIMEOUT_MS)) return { status: 'ok', database: 'up', kind: db.kind };
    request.log.warn('health: the database did not answer');
    reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return reply.status(503).send({ status: 'error', database: 'down', kind: db.kind });
  };
  app.get('/api/health', { schema: readySchema, config: { public: true } }, ready);
  app.get('/api/health/ready', { schema: readySchema, config: { public: true } }, ready);
  app.get('/api/health/live', { schema: { response: { 200: liveAnswer } }, config: { public: true } }, async () => ({ status: 'ok' }));
}
