// Assembles the server: database, migrations, one plugin per area, the built app.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from './config';
import { openDb, type Db } from './db/index';
import { coreMigrations, type Migration } from './db/migrations';
import { prepareDatabase } from './db/roles';
import { keepUp } from './db/upkeep';
import { ensureFirstAdmin, firstPasswordFile, tokenSecret, type FirstAdmin } from './bootstrap';
import { lastRestoreSeconds } from './ops/restoreMark';
import { installErrorHandler, loggedError } from './lib/errors';
import { installInputRules } from './lib/input';
import { TokenService } from './lib/tokens';
import { Passwords } from './lib/passwords';
import authPlugin from './plugins/auth';
import auditPlugin from './plugins/audit/index';
import { withAuditActor } from './plugins/audit/context';
import healthPlugin from './plugins/health';
import { closeGently, Drain } from './lib/drain';
import publicConfigPlugin from './plugins/publicConfig';
import sessionPlugin from './plugins/session';
import spaPlugin, { hasBuiltApp, sendApp, wantsApp } from './plugins/spa';
import usersPlugin from './plugins/users/index';
import listsPlugin from './plugins/lists/index';
import statsPlugin from './plugins/stats/index';
import { ALL_TABLES, ChangeHub, USERS_TABLE } from './plugins/sync/changes';
import { KEEP_MS, SessionUsers } from './plugins/users/sessionUsers';
import recordsPlugin from './plugins/records/index';
import { setCountBound } from './lib/records/count';
import docsPlugin from './plugins/docs';
import syncPlugin from './plugins/sync/index';
import caseloadPlugin from './plugins/caseload';
import securityHeadersPlugin from './plugins/securityHeaders';
import metricsPlugin from './plugins/metrics';
import { createMetrics, NO_METRICS, type Metrics } from './lib/metrics';

export interface Server {
  app: FastifyInstance;
  db: Db;
  tokens: TokenService;
  /** The database's change notifications, as this process hears them. */
  changes: ChangeHub;
  /** The user rows the session check keeps (plugins/users/sessionUsers.ts). */
  users: SessionUsers;
  firstAdmin?: FirstAdmin;
}

/** A logged URL without its query string: the change stream's URL carries a session token, and
 * list searches carry names (docs/security.md "Logs"). */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[hidden]`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Hashing in a bounded queue and the one throttled password check (lib/passwords.ts). */
    passwords: Passwords;
    /** What GET /api/metrics reports (lib/metrics.ts); does nothing with METRICS=off. */
    metrics: Metrics;
    /** Whether the process is draining before it closes (lib/drain.ts, server/serve.ts). */
    drain: Drain;
  }
}

/** TRUST_PROXY as Fastify takes it. Addresses: only a peer among them is believed, and the
 * forwarded chain is read while its entries are among them too. A hop count trusts that many
 * proxies from the server outwards (X-Forwarded-For's right-most addresses, which those proxies
 * wrote), the first being the direct peer, which must be a loopback address: the proxy on this
 * machine. A client that reaches the port from elsewhere is counted under its own address,
 * whatever it writes (docs/security.md "Sessions and accounts", TRUST_PROXY). */
export function trustProxyOption(value: Config['trustProxy']): false | string | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (address, hop) => (hop === 0 ? isLoopback(address) : hop < value);
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Whether the server listens on every address (HOST's default), where a client can reach it
 * without going through the proxy. */
export function listensEverywhere(host: string): boolean {
  return host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
}

export interface BuildOptions {
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** The migrations this code knows (a test starts "the next release" with one more). */
  migrations?: Migration[];
  /** How long the session check keeps a user row (plugins/users/sessionUsers.ts); by default
   * 0 on PostgreSQL, KEEP_MS on the embedded database. bench/session-check.bench.ts compares. */
  sessionKeepMs?: number;
  /** The embedded database starts from this data folder's image (DbOptions.pgliteImage). */
  pgliteImage?: Blob;
}

export async function buildApp(
  config: Config,
  { logStream, migrations = coreMigrations, sessionKeepMs, pgliteImage }: BuildOptions = {},
): Promise<Server> {
  setCountBound(config.listCountBound);
  // Every write made for a request tells the database who makes it (the audit log, ADR-0036).
  const db = withAuditActor(await openDb({ ...config, pgliteImage }));
  // On PostgreSQL with DATABASE_OWNER_URL, migrated by the owner role (server/db/roles.ts).
  const roleWarning = await prepareDatabase(db, config, migrations).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  // After a restore from a backup, every earlier session is over (server/ops/restoreMark.ts).
  const tokens = new TokenService(await tokenSecret(db, config), config.tokenTtlSeconds, (await lastRestoreSeconds(db)) ?? 0);
  const firstAdmin = await ensureFirstAdmin(db, config);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.deviceSecret'], censor: '[hidden]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: loggedUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
        err: loggedError,
      },
      ...(logStream ? { stream: logStream } : {}),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 2 * 1024 * 1024,
    // A request that reaches the process while it closes (on a connection accepted just before)
    // is served, not answered 503: the balancer cannot resend a POST (lib/drain.ts). The
    // database closes only after the last answer (onClose).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true }, // product.md §7 writes POST /jobs/ and GET /jobs alike
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  });
  // The embedded database's statistics and dead rows, as autovacuum keeps PostgreSQL's (db/upkeep.ts).
  const stopUpkeep = keepUp(db, (error) => app.log.error({ err: error }, 'database upkeep failed'));
  app.addHook('onClose', () => {
    stopUpkeep();
    return db.close();
  });
  app.decorate('drain', new Drain());
  closeGently(app.server);
  // While draining, each answer ends its connection: the balancer's next request on it goes
  // to a process that stays (lib/drain.ts).
  app.addHook('onRequest', async (_request, reply) => {
    if (app.drain.draining) reply.header('Connection', 'close');
  });
  db.onFault((error, what) => app.log.warn({ err: error }, what));
  if (roleWarning) app.log.warn(roleWarning);
  if (config.trustProxy !== false && listensEverywhere(config.host)) {
    app.log.warn(
      { host: config.host, trustProxy: config.trustProxy },
      `TRUST_PROXY is set and HOST=${config.host} listens on every address: bind HOST=127.0.0.1 when the proxy runs on this machine, or let a firewall open the port to the proxy only (README "Configuration")`,
    );
  }

  const metrics = config.metrics ? createMetrics(db) : NO_METRICS;
  app.decorate('metrics', metrics);
  const passwords = new Passwords(db, { concurrency: config.passwordHashConcurrency, waiting: config.passwordHashQueue }, metrics);
  app.decorate('passwords', passwords);

  const serveApp = hasBuiltApp(config.staticDir);
  installErrorHandler(app, serveApp ? (request, reply) => (wantsApp(request) ? sendApp(reply) : undefined) : undefined);
  installInputRules(app);
  await app.register(securityHeadersPlugin, { mapStyleUrl: config.mapStyleUrl });
  // Change notifications (LISTEN), shared: the change stream fans them out to the apps, the
  // stats drop their cached map answer when providers or jobs change, and the session check
  // forgets the user rows it keeps when users change anywhere.
  const changes = new ChangeHub();
  await changes.start(db);
  // On PostgreSQL the session check reads its user row for every request; kept a moment on the
  // embedded database (plugins/users/sessionUsers.ts).
  const users = new SessionUsers(db, Date.now, sessionKeepMs ?? (db.kind === 'postgres' ? 0 : KEEP_MS));
  changes.subscribe(({ table, user }) => {
    // A user's change forgets that user's kept row only: a burst of sign-ins costs the other
    // sessions nothing. A change naming no user (lost notifications, a release before) forgets all.
    if (table === USERS_TABLE && user !== undefined) users.forget(user);
    else if (table === USERS_TABLE || table === ALL_TABLES) users.forgetAll();
  });
  await app.register(docsPlugin); // first: it collects the schemas of every route registered after it
  if (config.metrics) await app.register(metricsPlugin, { metrics, scrapeToken: config.metricsToken, tokens, users });
  await app.register(authPlugin, { db, tokens, users, passwords });
  await app.register(healthPlugin, { db });
  await app.register(sessionPlugin, { db, tokens, users });
  await app.register(publicConfigPlugin, {
    programmeUrl: config.programmeUrl,
    contact: config.contact,
    lockAfterMinutes: config.lockAfterMinutes,
  });
  await app.register(usersPlugin, { db, tokens, users, firstPasswordFile: firstPasswordFile(config, firstAdmin) });
  await app.register(listsPlugin, { db });
  await app.register(statsPlugin, { db, changes, mapPointsLimit: config.mapPointsLimit });
  await app.register(recordsPlugin, { db });
  await app.register(syncPlugin, { db, tokens, hub: changes, users, caseloadBound: config.caseloadBound });
  await app.register(caseloadPlugin, { db, bound: config.caseloadBound });
  await app.register(auditPlugin, { db, retentionDays: config.auditRetentionDays, ownerUrl: config.databaseOwnerUrl });
  if (serveApp) await app.register(spaPlugin, { root: config.staticDir as string });
  else app.log.warn('no built app found: serving the API only (run `npm run build`)');

  return { app, db, tokens, changes, users, firstAdmin };
}
