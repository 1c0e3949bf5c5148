// Sign-in and the gate in front of every other endpoint: a valid bearer token of an active
// user whose session was not ended, then a temporary password changed (ADR-0003), then the
// route's permission from the shared role matrix (schemas/roles.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type Permission } from '../../schemas/roles';
import { object, text } from '../../schemas/derive/typed';
import type { Db } from '../db/index';
import { HttpError, sendError } from '../lib/errors';
import type { Passwords } from '../lib/passwords';
import type { TokenClaims, TokenService } from '../lib/tokens';
import { typed } from '../lib/typeProvider';
import { userRow } from './users/schemas';
import type { SessionUsers } from './users/sessionUsers';
import { runAs } from './audit/context';
import { writeAudit } from './audit/entries';
import { findUserByName, noteSignIn, publicUser, type PublicUser, type UserRecord } from './users/store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, health, docs). */
    public?: boolean;
    /** The role-matrix permission the caller must hold. */
    permission?: Permission;
    /** Open to a user who must still change a temporary password (change password itself). */
    beforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user; set on every non-public route. */
    user: PublicUser;
    /** The session of the request's token; set on every non-public route. */
    session: TokenClaims;
  }
}

export interface AuthOptions {
  db: Db;
  tokens: TokenService;
  users: SessionUsers;
  passwords: Passwords;
}

/** The signed-in user's row with the new session token. Closed, as every user answer: the user
 * is read whole (`SELECT *`), and only the columns the entity declares public may leave, never
 * a password hash, the device secret or the token version (a column added later included). */
const signedInUser = {
  ...userRow,
  required: [...(userRow.required ?? []), 'token'],
  properties: { ...userRow.properties, token: { type: 'string' } },
};

const loginSchema = {
  body: object({ userName: text(100, 1), password: text(200, 1) }, ['userName', 'password']),
  response: {
    200: {
      type: 'object',
      additionalProperties: false,
      required: ['result'],
      properties: { result: { type: 'object', additionalProperties: false, required: ['user'], properties: { user: signedInUser } } },
    },
  },
};

/** The name a failed sign-in of an unknown user is logged under. */
export const UNKNOWN_USER = 'unknown';

export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Why the session of `claims` is over, read from the user as stored now; undefined while it
 * lasts. The account's state comes first, so a deactivated account's tokens always answer
 * `auth.inactive`, whatever else happened to them. */
export function sessionEnd(user: UserRecord | undefined, claims: TokenClaims): HttpError | undefined {
  if (!user) return new HttpError(401, 'auth.unknownUser');
  if (!user.active) return new HttpError(401, 'auth.inactive');
  if (user.tokenVersion !== claims.ver) return new HttpError(401, 'auth.sessionEnded');
  if (user.signedOutSessions?.includes(claims.sid)) return new HttpError(401, 'auth.signedOut');
  return undefined;
}

/** The user and claims of a token, or the 401 refusing it: the one check of every API request. */
export async function authenticate(
  users: Pick<SessionUsers, 'get'>,
  tokens: TokenService,
  token: string | undefined,
): Promise<{ user: UserRecord; claims: TokenClaims } | { refusal: HttpError }> {
  if (!token) return { refusal: new HttpError(401, 'auth.noToken') };
  const verdict = await tokens.verify(token);
  if ('failure' in verdict) return { refusal: new HttpError(401, verdict.failure) };
  return sessionOf(users, verdict.claims);
}

/** The user of a session, or the 401 saying it is over (auth, and the change stream's ticket). */
export async function sessionOf(
  users: Pick<SessionUsers, 'get'>,
  claims: TokenClaims,
): Promise<{ user: UserRecord; claims: TokenClaims } | { refusal: HttpError }> {
  const user = await users.get(claims.sub);
  const end = sessionEnd(user, claims);
  if (end || !user) return { refusal: end ?? new HttpError(401, 'auth.unknownUser') };
  return { user, claims };
}

/** A session token for `user` as stored now (its current token version); `sid` names the
 * session (a new one at sign-in, the same one after a password change). */
export function sessionToken(
  tokens: TokenService,
  user: Pick<UserRecord, 'userId' | 'role' | 'tokenVersion'>,
  sid: string,
): Promise<string> {
  return tokens.sign({ sub: user.userId, role: user.role, ver: user.tokenVersion, sid });
}

/** A fresh session id: 16 random bytes. */
export const newSessionId = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');

async function authPlugin(app: FastifyInstance, { db, tokens, users, passwords }: AuthOptions) {
  app.decorateRequest('user', null as unknown as PublicUser);
  app.decorateRequest('session', null as unknown as TokenClaims);

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    // Only API routes are guarded: unmatched paths (404s) and the app's static files (whose
    // wildcard route also catches unknown /api/ GETs, to answer them 404) pass, as do public routes.
    if (!request.routeOptions.url?.startsWith('/api/') || config.public) return;
    const session = await authenticate(users, tokens, bearerToken(request));
    if ('refusal' in session) return sendError(reply, request, session.refusal);
    const { user } = session;
    request.user = publicUser(user);
    request.session = session.claims;
    // A temporary password (an administrator's reset, a new account, the first administrator's
    // generated one) opens nothing but its own change (and sign-out, which is public).
    if (user.mustChangePassword && !config.beforePasswordChange) {
      return sendError(reply, request, new HttpError(403, 'auth.mustChangePassword'));
    }
    if (config.permission && !can(user.role, config.permission)) {
      return sendError(reply, request, new HttpError(403, 'auth.forbidden'));
    }
  });

  // The handler and what it starts run as the signed-in user: every transaction it opens names
  // them to the audit triggers (plugins/audit/context.ts). A callback hook, so that the rest of
  // the request runs inside the user's context.
  app.addHook('preHandler', (request, _reply, done) => {
    const user = request.user;
    if (!user) return done();
    runAs({ userId: user.userId, userName: user.userName, role: user.role, location: user.location ?? 0 }, done);
  });

  // One answer for every failure (ADR-0002): an unknown name, a deactivated account and a wrong
  // password all answer 401 badCredentials, after the same throttled check (lib/passwords.ts),
  // so neither the answer nor its time tells which; the account's state is read before the
  // password is checked, so a deactivated account's password is never tested.
  typed(app).post('/api/login', { schema: loginSchema, config: { public: true } }, async (request) => {
    const { password } = request.body;
    const userName = request.body.userName.trim();
    const found = await findUserByName(db, userName);
    const user = found?.active ? found : undefined;
    const passwordOk = await passwords.verify(request, userName, user?.passwordHash, password);
    if (!user || !passwordOk) {
      app.metrics.signInFailed();
      // A known user's name as stored, else "unknown": never the name as typed, which may be a
      // password typed into the wrong field and would stay in the append-only log. A guessing
      // attack still shows, as a run of failures (docs/security.md "Sign-in").
      await writeAudit(db, {
        action: 'signin.failed',
        entity: found ? 'user' : undefined,
        recordId: found?.userId,
        location: found?.location ?? null,
        actor: { userId: found?.userId, userName: found?.userName ?? UNKNOWN_USER, role: found?.role, location: found?.location },
      });
      throw new HttpError(401, 'auth.badCredentials');
    }
    const token = await sessionToken(tokens, user, newSessionId());
    const lastSignInAt = await noteSignIn(db, user.userId);
    request.log.info({ userId: user.userId }, 'signed in');
    return { result: { user: { ...publicUser({ ...user, lastSignInAt }), token } } };
  });
}

export default fp(authPlugin, { name: 'auth' });
