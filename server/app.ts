// Assembles the server: database, migrations, one plugin per area, the built app.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDb, type Db } from './db/index';
import { migrate } from './db/migrations';
import { ensureFirstAdmin, tokenSecret, type FirstAdmin } from './bootstrap';
import { installErrorHandler } from './lib/errors';
import { TokenService } from './lib/tokens';
import authPlugin from './plugins/auth';
import healthPlugin from './plugins/health';
import spaPlugin, { hasBuiltApp, sendApp, wantsApp } from './plugins/spa';
import usersPlugin from './plugins/users/index';
import listsPlugin from './plugins/lists/index';
import statsPlugin from './plugins/stats/index';
import recordsPlugin from './plugins/records/index';
import docsPlugin from './plugins/docs';
import syncPlugin from './plugins/sync/index';
import securityHeadersPlugin from './plugins/securityHeaders';

export interface Server {
  app: FastifyInstance;
  db: Db;
  tokens: TokenService;
  firstAdmin?: FirstAdmin;
}

export async function buildApp(config: Config): Promise<Server> {
  const db = await openDb(config);
  await migrate(db);
  const tokens = new TokenService(await tokenSecret(db, config), config.tokenTtlSeconds);
  const firstAdmin = await ensureFirstAdmin(db, config);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], censor: '[hidden]' },
    },
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true }, // spec §7 writes POST /jobs/ and GET /jobs alike
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  });
  app.addHook('onClose', () => db.close());

  const serveApp = hasBuiltApp(config.staticDir);
  installErrorHandler(app, serveApp ? (request, reply) => (wantsApp(request) ? sendApp(reply) : undefined) : undefined);
  await app.register(securityHeadersPlugin, { mapStyleUrl: config.mapStyleUrl });
  await app.register(docsPlugin); // first: it collects the schemas of every route registered after it
  await app.register(authPlugin, { db, tokens });
  await app.register(healthPlugin, { db });
  await app.register(usersPlugin, { db });
  await app.register(listsPlugin, { db });
  await app.register(statsPlugin, { db });
  await app.register(recordsPlugin, { db });
  await app.register(syncPlugin, { db, tokens });
  if (serveApp) await app.register(spaPlugin, { root: config.staticDir as string });
  else app.log.warn('no built app found: serving the API only (run `npm run build`)');

  return { app, db, tokens, firstAdmin };
}
