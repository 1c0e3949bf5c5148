// Live sync (issue 4 §4): the pull feed per offline table and the server-sent change stream.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../../schemas/roles';
import { getEntityByTable } from '../../../schemas/index';
import { textSchema, withInputRules } from '../../../schemas/derive/json-schema';
import { readableTables } from '../../../schemas/scope';
import type { Db } from '../../db/index';
import { HttpError, sendError } from '../../lib/errors';
import type { TokenService } from '../../lib/tokens';
import { sessionEnd, sessionOf } from '../auth';
import type { TokenClaims } from '../../lib/tokens';
import type { SessionUsers } from '../users/sessionUsers';
import { findSessionUser, publicUser, type PublicUser } from '../users/store';
import { issueTicket, redeemTicket, TICKET_SECONDS } from './tickets';
import { ALL_TABLES, ChangeHub, mayHear, parseChange } from './changes';
import { pullChanges, pullKeys } from './feed';
import pushPlugin from './push';

const HEARTBEAT_MS = 25_000;
/** Change events of one table within this time go out as one. */
const COALESCE_MS = 50;

const pullQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    updatedAt: withInputRules({ type: 'string', format: 'date-time' }),
    id: textSchema(200),
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200 },
  },
} as const;

/** The most keys one by-key pull names (a device owes few: its dropped edits). */
const MAX_KEYS = 200;

const keysBody = {
  type: 'object',
  additionalProperties: false,
  required: ['keys'],
  properties: { keys: { type: 'array', minItems: 1, maxItems: MAX_KEYS, items: textSchema(200) } },
} as const;

function syncedEntity(table: string) {
  const entity = getEntityByTable(table);
  if (!entity || !entity.offline || !entity.server) throw new HttpError(404, 'http.notFound', { path: `/api/sync/${table}` });
  return entity;
}

const streamQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { ticket: textSchema(100) },
} as const;

const ticketAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['ticket', 'expiresIn'],
  properties: { ticket: { type: 'string' }, expiresIn: { type: 'integer' } },
} as const;

/** EventSource cannot send headers, so the stream takes a single-use ticket in its query string
 * (tickets.ts), never the session token (the server's log never shows query strings either). */
async function streamUser(db: Db, users: SessionUsers, request: FastifyRequest): Promise<{ user: PublicUser; claims: TokenClaims }> {
  const ticket = (request.query as { ticket?: string }).ticket;
  const claims = ticket ? await redeemTicket(db, ticket) : undefined;
  if (!claims) throw new HttpError(401, 'auth.badTicket');
  const session = await sessionOf(users, claims);
  if ('refusal' in session) throw session.refusal;
  return { user: publicUser(session.user), claims: session.claims };
}

/** True while the stream's session lasts: its user is active, its token version current and
 * the session not signed out. */
async function sessionLasts(db: Db, claims: TokenClaims): Promise<boolean> {
  try {
    return !sessionEnd(await findSessionUser(db, claims.sub), claims);
  } catch {
    return true; // database unreachable: keep the stream; the next check decides
  }
}

export default async function syncPlugin(
  app: FastifyInstance,
  { db, hub, users }: { db: Db; tokens: TokenService; hub: ChangeHub; users: SessionUsers },
) {
  const openStreams = new Set<FastifyReply>();
  app.metrics.countStreams(() => openStreams.size);
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.raw.end();
    await hub.stop();
  });

  await app.register(pushPlugin, { db });

  app.get('/api/sync/:table', { schema: { querystring: pullQuery } }, async (request) => {
    const entity = syncedEntity((request.params as { table: string }).table);
    if (!can(request.user.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
    const { updatedAt, id, limit } = request.query as { updatedAt?: string; id?: string; limit: number };
    const since = updatedAt && id !== undefined ? { updatedAt, id } : undefined;
    return pullChanges(db, entity, request.user, since, limit);
  });

  // The mirror rows of named keys (feed.ts pullKeys): POST, so that any key fits in the body.
  app.post('/api/sync/:table/keys', { schema: { body: keysBody } }, async (request) => {
    const entity = syncedEntity((request.params as { table: string }).table);
    if (!can(request.user.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
    return pullKeys(db, entity, request.user, (request.body as { keys: string[] }).keys);
  });

  // Any signed-in role: a ticket for this session's change stream, to use within TICKET_SECONDS.
  app.post('/api/sync/ticket', { schema: { response: { 200: ticketAnswer } } }, async (request) => ({
    ticket: await issueTicket(db, request.session),
    expiresIn: TICKET_SECONDS,
  }));

  app.get('/api/sync/stream', { schema: { querystring: streamQuery }, config: { public: true } }, async (request, reply) => {
    let user: PublicUser;
    let claims: TokenClaims;
    try {
      ({ user, claims } = await streamUser(db, users, request));
    } catch (error) {
      if (error instanceof HttpError) return sendError(reply, request, error);
      throw error;
    }
    // Events name only a table, never a record, and only tables the user may read; what
    // changed comes through the scoped pull feed (schemas/scope.ts readableTables).
    const readable = readableTables(user);
    reply.hijack();
    const out = reply.raw;
    // Cache-Control (no-store) is already on the raw response, as on every API answer.
    out.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    out.write('retry: 3000\n: connected\n\n');
    const waiting = new Set<string>();
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      for (const table of waiting) out.write(`event: change\ndata: ${JSON.stringify({ table })}\n\n`);
      waiting.clear();
    };
    const unsubscribe = hub.subscribe((payload) => {
      const change = parseChange(payload);
      const { table } = change;
      if (table !== ALL_TABLES && !readable.has(table)) return;
      // Referral events name their organisation: only those who may read its records hear them.
      if (!mayHear(user, getEntityByTable(table), change)) return;
      waiting.add(table);
      flushTimer ??= setTimeout(flush, COALESCE_MS);
    });
    // The stream ends with its session (password change or reset, deactivation): checked on
    // every change of the users table, which every server process hears, and on each heartbeat.
    // A change heard during a check asks for one more, so the last change is always read.
    let checking: Promise<void> | undefined;
    let checkAgain = false;
    const endIfSessionOver = () => {
      if (checking) {
        checkAgain = true;
        return;
      }
      checking = (async () => {
        do {
          checkAgain = false;
          if (!(await sessionLasts(db, claims))) return endStream();
        } while (checkAgain);
      })().finally(() => (checking = undefined));
    };
    const unwatchUsers = hub.subscribe((table) => {
      if (table === 'users') endIfSessionOver();
    });
    const heartbeat = setInterval(() => {
      out.write(': keep-alive\n\n');
      endIfSessionOver();
    }, HEARTBEAT_MS);
    const stop = () => {
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
      unsubscribe();
      unwatchUsers();
      openStreams.delete(reply);
    };
    const endStream = () => {
      stop();
      out.end();
    };
    openStreams.add(reply);
    request.raw.on('close', stop);
  });
}
