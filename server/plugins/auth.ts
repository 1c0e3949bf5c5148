// Sign-in and the gate in front of every other endpoint: a valid bearer token of an active
// user, then the route's permission from the shared role matrix (schemas/roles.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type Permission } from '../../schemas/roles';
import { textSchema } from '../../schemas/derive/json-schema';
import type { Db } from '../db/index';
import { HttpError, sendError } from '../lib/errors';
import { burnPasswordCheck, checkPassword } from '../lib/passwords';
import { LoginThrottle } from '../lib/throttle';
import type { TokenClaims, TokenService } from '../lib/tokens';
import type { SessionUsers } from './users/sessionUsers';
import { findUserByName, noteSignIn, publicUser, type PublicUser, type UserRecord } from './users/store';

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
  users: SessionUsers;
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

/** Why the session of `claims` is over, read from the user as stored now; undefined while it lasts. */
export function sessionEnd(user: UserRecord | undefined, claims: TokenClaims): HttpError | undefined {
  if (!user) return new HttpError(401, 'auth.unknownUser');
  if (!user.active) return new HttpError(401, 'auth.inactive');
  if (user.tokenVersion !== claims.ver) return new HttpError(401, 'auth.sessionEnded');
  return undefined;
}

/** The user and claims of a token, or the 401 refusing it: the one check of every API request
 * and of the change stream (server/plugins/sync). */
export async function authenticate(
  users: Pick<SessionUsers, 'get'>,
  tokens: TokenService,
  token: string | undefined,
): Promise<{ user: UserRecord; claims: TokenClaims } | { refusal: HttpError }> {
  if (!token) return { refusal: new HttpError(401, 'auth.noToken') };
  const verdict = await tokens.verify(token);
  if ('failure' in verdict) return { refusal: new HttpError(401, verdict.failure) };
  const user = await users.get(verdict.claims.sub);
  const end = sessionEnd(user, verdict.claims);
  if (end || !user) return { refusal: end ?? new HttpError(401, 'auth.unknownUser') };
  return { user, claims: verdict.claims };
}

/** A session token for `user` as stored now (its current token version). */
export function sessionToken(tokens: TokenService, user: Pick<UserRecord, 'userId' | 'role' | 'tokenVersion'>): Promise<string> {
  return tokens.sign({ sub: user.userId, role: user.role, ver: user.tokenVersion });
}

function tooManyAttempts(reply: FastifyReply, seconds: number): HttpError {
  reply.header('Retry-After', String(seconds));
  return new HttpError(429, 'auth.tooManyAttempts', { minutes: Math.ceil(seconds / 60) }, { retryAfter: seconds });
}

async function authPlugin(app: FastifyInstance, { db, tokens, users }: AuthOptions) {
  app.decorateRequest('user', null as unknown as PublicUser);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    // Only API routes are guarded: unmatched paths (404s) and the app's static files (whose
    // wildcard route also catches unknown /api/ GETs, to answer them 404) pass, as do public routes.
    if (!request.routeOptions.url?.startsWith('/api/') || config.public) return;
    const session = await authenticate(users, tokens, bearerToken(request));
    if ('refusal' in session) return sendError(reply, request, session.refusal);
    const { user } = session;
    request.user = publicUser(user);
    if (config.permission && !can(user.role, config.permission)) {
      return sendError(reply, request, new HttpError(403, 'auth.forbidden'));
    }
  });

  // Throttled per user name and per address (lib/throttle.ts): checked before the password, so
  // a refused attempt costs no hash and reveals nothing, even with the right password.
  const throttle = new LoginThrottle();
  app.post('/api/login', { schema: loginSchema, config: { public: true } }, async (request, reply) => {
    const { password } = request.body as { userName: string; password: string };
    const userName = (request.body as { userName: string }).userName.trim();
    const wait = throttle.retryAfterSeconds(userName, request.ip);
    if (wait > 0) throw tooManyAttempts(reply, wait);
    const user = await findUserByName(db, userName);
    const passwordOk = user ? await checkPassword(user.passwordHash, password) : await burnPasswordCheck(password).then(() => false);
    if (!user || !passwordOk) {
      throttle.failed(userName, request.ip);
      throw new HttpError(401, 'auth.badCredentials');
    }
    throttle.succeeded(userName);
    if (!user.active) throw new HttpError(401, 'auth.inactive');
    const token = await sessionToken(tokens, user);
    const lastSignInAt = await noteSignIn(db, user.userId);
    request.log.info({ userId: user.userId }, 'signed in');
    return { result: { user: { ...publicUser({ ...user, lastSignInAt }), token } } };
  });
}

export default fp(authPlugin, { name: 'auth' });
