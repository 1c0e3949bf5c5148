// Live sync (ADR-0015): the pull feed per offline table and the server-sent change stream.
import { DRAIN_STREAM_RETRY_MS } from '../../lib/drain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { can } from '../../../schemas/roles';
import { getEntityByTable } from '../../../schemas/index';
import { arrayOf, dateTime, integer, object, text, withDefault } from '../../../schemas/derive/typed';
import { readableTables } from '../../../schemas/scope';
import type { Db } from '../../db/index';
import { HttpError, sendError } from '../../lib/errors';
import type { TokenService } from '../../lib/tokens';
import { typed } from '../../lib/typeProvider';
import { sessionEnd, sessionOf } from '../auth';
import type { TokenClaims } from '../../lib/tokens';
import type { SessionUsers } from '../users/sessionUsers';
import { findSessionUser, publicUser, type PublicUser } from '../users/store';
import { issueTicket, redeemTicket, TICKET_SECONDS } from './tickets';
import { ALL_TABLES, ChangeHub, mayHear, mayMirror, USERS_TABLE, type Change } from './changes';
import { pullChanges, pullKeys } from './feed';
import pushPlugin, { tableParams } from './push';
import { reconcileCaseload, servesCaseload } from '../../lib/records/caseload';
import { reconcileDirectory, servesDirectory } from '../../lib/records/directory';

const HEARTBEAT_MS = 25_000;
/** Change events of one table within this time go out as one. */
const COALESCE_MS = 50;

const pullQuery = object({
  updatedAt: dateTime(),
  id: text(200),
  limit: withDefault(integer(1, 1000), 200),
});

/** The most keys one by-key pull names (a device owes few: its dropped edits). */
const MAX_KEYS = 200;

const keysBody = object({ keys: arrayOf(text(200), { minItems: 1, maxItems: MAX_KEYS }) }, ['keys']);

/**
 * A row of the device's mirror: every column of the record as the table keeps it (the entity's
 * row, schemas/derive/json-schema.ts rowSchema) and `_deleted` (a deleted record, or an erased
 * client's: the device drops it). Open on purpose: the answer carries every column the feed
 * selects, in its order, untouched by the serializer.
 */
const mirrorRow = {
  type: 'object',
  additionalProperties: true,
  description: "The record's row (GET {rest}/{id}) and `_deleted: boolean`.",
};

/** Where the next pull starts: the last row's time (microseconds) and key; null before any row. */
const checkpoint = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['updatedAt', 'id'],
  properties: { updatedAt: { type: 'string' }, id: { type: 'string' } },
};

const pullAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['documents', 'checkpoint'],
  properties: { documents: { type: 'array', items: mirrorRow }, checkpoint },
};

const keysAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['documents'],
  properties: { documents: { type: 'array', items: mirrorRow } },
};

function syncedEntity(table: string) {
  const entity = getEntityByTable(table);
  if (!entity || !entity.offline || !entity.server) throw new HttpError(404, 'http.notFound', { path: `/api/sync/${table}` });
  return entity;
}

const streamQuery = object({ ticket: text(100) });

/** Server-sent events: `change` events naming a table (`{"table": …}`, with `"mirror": false` when the
 * change is outside what the device mirrors), and comments. */
const streamAnswer = { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } };

const ticketAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['ticket', 'expiresIn'],
  properties: { ticket: { type: 'string' }, expiresIn: { type: 'integer' } },
} as const;

/** EventSource cannot send headers, so the stream takes a single-use ticket in its query string
 * (tickets.ts), never the session token (the server's log never shows query strings either). */
async function streamUser(db: Db, users: SessionUsers, ticket: string | undefined): Promise<{ user: PublicUser; claims: TokenClaims }> {
  const claims = ticket ? await redeemTicket(db, ticket) : undefined;
  if (!claims) throw new HttpError(401, 'auth.badTicket');
  const session = await sessionOf(users, claims);
  if ('refusal' in session) throw session.refusal;
  return { user: publicUser(session.user), claims: session.claims };
}

/** True when `change` may end the session of `userId`: a change of that user, a change of the
 * users table naming no user (a release before per-user events), or lost notifications. */
const concernsSession = (change: Change, userId: string): boolean =>
  change.table === ALL_TABLES || (change.table === USERS_TABLE && (change.user === undefined || change.user === userId));

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
  instance: FastifyInstance,
  { db, hub, users, caseloadBound }: { db: Db; tokens: TokenService; hub: ChangeHub; users: SessionUsers; caseloadBound: number },
) {
  /** A caseload device's client tables are served after its caseload is brought up to date
   * (server/lib/records/caseload.ts): whatever moved a client in or out shows at this pull. */
  const reconciled = async (entity: ReturnType<typeof syncedEntity>, user: PublicUser) => {
    if (servesCaseload(entity, user)) await reconcileCaseload(db, user, caseloadBound);
    // Its directory tables, after its directory is (server/lib/records/directory.ts).
    if (servesDirectory(entity, user)) await reconcileDirectory(db, user, caseloadBound);
  };
  const app = typed(instance);
  const openStreams = new Set<FastifyReply>();
  app.metrics.countStreams(() => openStreams.size);
  // Every change this process hears, once, beside the events the streams send for it: the fan-out.
  const unheard = hub.subscribe(() => app.metrics.changeHeard());
  app.addHook('preClose', async () => {
    unheard();
    // A short retry first: the device reconnects at once, through the balancer, to a process
    // that stays (lib/drain.ts).
    for (const reply of openStreams) reply.raw.end(`retry: ${DRAIN_STREAM_RETRY_MS}\n\n`);
    await hub.stop();
  });

  await app.register(pushPlugin, { db });

  app.get(
    '/api/sync/:table',
    { schema: { params: tableParams, querystring: pullQuery, response: { 200: pullAnswer } } },
    async (request) => {
      const entity = syncedEntity(request.params.table);
      if (!can(request.user.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
      const { updatedAt, id, limit } = request.query;
      const since = updatedAt && id !== undefined ? { updatedAt, id } : undefined;
      const started = process.hrtime.bigint();
      await reconciled(entity, request.user);
      const page = await pullChanges(db, entity, request.user, since, limit);
      app.metrics.pullDone(entity.table, Number(process.hrtime.bigint() - started) / 1e9);
      return page;
    },
  );

  // The mirror rows of named keys (feed.ts pullKeys): POST, so that any key fits in the body.
  app.post('/api/sync/:table/keys', { schema: { params: tableParams, body: keysBody, response: { 200: keysAnswer } } }, async (request) => {
    const entity = syncedEntity(request.params.table);
    if (!can(request.user.role, entity.access.read)) throw new HttpError(403, 'auth.forbidden');
    await reconciled(entity, request.user);
    return pullKeys(db, entity, request.user, request.body.keys);
  });

  // Any signed-in role: a ticket for this session's change stream, to use within TICKET_SECONDS.
  app.post('/api/sync/ticket', { schema: { response: { 200: ticketAnswer } } }, async (request) => ({
    ticket: await issueTicket(db, request.session),
    expiresIn: TICKET_SECONDS,
  }));

  app.get(
    '/api/sync/stream',
    { schema: { querystring: streamQuery, response: streamAnswer }, config: { public: true } },
    async (request, reply) => {
      let user: PublicUser;
      let claims: TokenClaims;
      try {
        ({ user, claims } = await streamUser(db, users, request.query.ticket));
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
      // Per table, whether one of its coalesced changes may touch the device's mirror.
      const waiting = new Map<string, boolean>();
      let flushTimer: NodeJS.Timeout | undefined;
      const flush = () => {
        flushTimer = undefined;
        for (const [table, mirrored] of waiting)
          out.write(`event: change\ndata: ${JSON.stringify(mirrored ? { table } : { table, mirror: false })}\n\n`);
        app.metrics.streamEventsSent(waiting.size);
        waiting.clear();
      };
      const send = (change: Change) => {
        const { table } = change;
        if (table !== ALL_TABLES && !readable.has(table)) return;
        const entity = getEntityByTable(table);
        // Only changes of what the user may read (schemas/scope.ts); a change the device cannot
        // hold is sent for the screens, marked so that the device does not pull for it.
        if (!mayHear(user, entity, change)) return;
        waiting.set(table, (waiting.get(table) ?? false) || mayMirror(user, entity, change));
        flushTimer ??= setTimeout(flush, COALESCE_MS);
      };
      // The stream ends with its session (password change or reset, deactivation, sign-out):
      // checked on every change of its own user, which every server process hears, after a
      // LISTEN fault, and on each heartbeat. A change heard during a check asks for one more, so
      // the last change is always read. Other users' changes cost this stream nothing.
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
            app.metrics.streamSessionChecked();
            if (!(await sessionLasts(db, claims))) return endStream();
          } while (checkAgain);
        })().finally(() => (checking = undefined));
      };
      const unsubscribe = hub.subscribe((change) => {
        if (concernsSession(change, user.userId)) endIfSessionOver();
        send(change);
      });
      const heartbeat = setInterval(() => {
        out.write(': keep-alive\n\n');
        endIfSessionOver();
      }, HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        clearTimeout(flushTimer);
        unsubscribe();
        openStreams.delete(reply);
      };
      const endStream = () => {
        stop();
        out.end();
      };
      openStreams.add(reply);
      app.metrics.streamOpened();
      request.raw.on('close', stop);
    },
  );
}
