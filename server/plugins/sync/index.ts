// Live sync (issue 4 §4): the pull feed per offline table and the server-sent change stream.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../../schemas/roles';
import { getEntityByTable } from '../../../schemas/index';
import { readableTables } from '../../../schemas/scope';
import type { Db } from '../../db/index';
import { HttpError, sendError } from '../../lib/errors';
import type { TokenService } from '../../lib/tokens';
import { findUserById, publicUser, type PublicUser } from '../users/store';
import { ChangeHub } from './changes';
import { pullChanges } from './feed';

const HEARTBEAT_MS = 25_000;
/** Change events of one table within this time go out as one. */
const COALESCE_MS = 50;

const pullQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    updatedAt: { type: 'string', format: 'date-time' },
    id: { type: 'string', maxLength: 200 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200 },
  },
} as const;

function syncedEntity(table: string) {
  const entity = getEntityByTable(table);
  if (!entity || !entity.offline || !entity.server) throw new HttpError(404, 'http.notFound', { path: `/api/sync/${table}` });
  return entity;
}

/** EventSource cannot send headers, so the stream takes the token in its query string. */
async function streamUser(db: Db, tokens: TokenService, request: FastifyRequest): Promise<PublicUser> {
  const token = (request.query as { token?: string }).token;
  if (!token) throw new HttpError(401, 'auth.noToken');
  const verdict = await tokens.verify(token);
  if ('failure' in verdict) throw new HttpError(401, verdict.failure);
  const user = await findUserById(db, verdict.claims.sub);
  if (!user || !user.active) throw new HttpError(401, user ? 'auth.inactive' : 'auth.unknownUser');
  return publicUser(user);
}

export default async function syncPlugin(app: FastifyInstance, { db, tokens }: { db: Db; tokens: TokenService }) {
  const hub = new ChangeHub();
  await hub.start(db);
  const openStreams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.raw.end();
    await hub.stop();
  });

  app.get('/api/sync/:table', { schema: { querystring: pullQuery } }, async (request) => {
    const entity = syncedEntity((request.params as { table: string }).table);
    if (!can(request.user.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
    const { updatedAt, id, limit } = request.query as { updatedAt?: string; id?: string; limit: number };
    const since = updatedAt && id !== undefined ? { updatedAt, id } : undefined;
    return pullChanges(db, entity, request.user, since, limit);
  });

  app.get('/api/sync/stream', { config: { public: true } }, async (request, reply) => {
    let user: PublicUser;
    try {
      user = await streamUser(db, tokens, request);
    } catch (error) {
      if (error instanceof HttpError) return sendError(reply, request, error);
      throw error;
    }
    // Events name only a table, never a record, and only tables the user may read; what
    // changed comes through the scoped pull feed (schemas/scope.ts readableTables).
    const readable = readableTables(user);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    out.write('retry: 3000\n: connected\n\n');
    const waiting = new Set<string>();
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      for (const table of waiting) out.write(`event: change\ndata: ${JSON.stringify({ table })}\n\n`);
      waiting.clear();
    };
    const unsubscribe = hub.subscribe((table) => {
      if (!readable.has(table)) return;
      waiting.add(table);
      flushTimer ??= setTimeout(flush, COALESCE_MS);
    });
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    openStreams.add(reply);
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
      unsubscribe();
      openStreams.delete(reply);
    });
  });
}
