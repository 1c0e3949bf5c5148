// Sign-in and the gate in front of every other endpoint: a valid bearer token of an active
// user, then the route's permission from the shared role matrix (schemas/roles.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type Permission } from '../../schemas/roles';
import { textSchema } from '../../schemas/derive/json-schema';
import type { Db } from '../db/index';
import { HttpError, sendError } from '../lib/errors';
import { burnPasswordCheck, checkPassword } from '../lib/passwords';
import type { TokenService } from '../lib/tokens';
import { findUserById, findUserByName, publicUser, type PublicUser } from './users/store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, health, docs). */
    public?: boolean;
    /** The role-matrix permission the caller must hold. */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The signed-in user; set on every non-public route. */
    user: PublicUser;
  }
}

export interface AuthOptions {
  db: Db;
  tokens: TokenService;
}

const loginSchema = {
  body: {
    type: 'object',
    required: ['userName', 'password'],
    additionalProperties: false,
    properties: {
      userName: textSchema(100, 1),
      password: textSchema(200, 1),
    },
  },
} as const;

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

async function authPlugin(app: FastifyInstance, { db, tokens }: AuthOptions) {
  app.decorateRequest('user', null as unknown as PublicUser);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    // Only API routes are guarded: unmatched paths (404s) and the app's static files (whose
    // wildcard route also catches unknown /api/ GETs, to answer them 404) pass, as do public routes.
    if (!request.routeOptions.url?.startsWith('/api/') || config.public) return;
    const token = bearerToken(request);
    if (!token) return sendError(reply, request, new HttpError(401, 'auth.noToken'));
    const verdict = await tokens.verify(token);
    if ('failure' in verdict) return sendError(reply, request, new HttpError(401, verdict.failure));
    const user = await findUserById(db, verdict.claims.sub);
    if (!user) return sendError(reply, request, new HttpError(401, 'auth.unknownUser'));
    if (!user.active) return sendError(reply, request, new HttpError(401, 'auth.inactive'));
    request.user = publicUser(user);
    if (config.permission && !can(user.role, config.permission)) {
      return sendError(reply, request, new HttpError(403, 'auth.forbidden'));
    }
  });

  app.post('/api/login', { schema: loginSchema, config: { public: true } }, async (request) => {
    const { userName, password } = request.body as { userName: string; password: string };
    const user = await findUserByName(db, userName.trim());
    if (!user) {
      await burnPasswordCheck(password);
      throw new HttpError(401, 'auth.badCredentials');
    }
    if (!(await checkPassword(user.passwordHash, password))) throw new HttpError(401, 'auth.badCredentials');
    if (!user.active) throw new HttpError(401, 'auth.inactive');
    const token = await tokens.sign({ sub: user.userId, role: user.role });
    request.log.info({ userId: user.userId }, 'signed in');
    return { result: { user: { ...publicUser(user), token } } };
  });
}

export default fp(authPlugin, { name: 'auth' });
