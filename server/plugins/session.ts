// The signed-in device's session: the secrets its local data is unlocked with (ADR-0020), the
// lock and sign-out, which end the session on the server (ADR-0002; docs/security.md "Shared
// and lost devices"). Sign-in is POST /api/login (auth.ts).
import { writeAudit } from './audit/entries';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index';
import { HttpError } from '../lib/errors';
import type { TokenService } from '../lib/tokens';
import { authenticate, bearerToken } from './auth';
import type { SessionUsers } from './users/sessionUsers';
import { deviceSecrets, rotateDeviceSecret, signOutSession } from './users/store';

export interface SessionOptions {
  db: Db;
  tokens: TokenService;
  users: SessionUsers;
}

const deviceSchema = {
  response: {
    200: {
      type: 'object',
      additionalProperties: false,
      required: ['userId', 'role', 'location', 'active', 'deviceSecret', 'previousSecrets', 'exportSecret'],
      properties: {
        userId: { type: 'string' },
        role: { type: 'integer' },
        location: { type: 'integer' },
        active: { type: 'boolean', const: true },
        /** base64url of 32 random bytes: the secret a keyring is sealed under now. */
        deviceSecret: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
        /** The secrets before the last rotations, newest first: a keyring sealed under one is
         * opened with it, then sealed again under `deviceSecret`. */
        previousSecrets: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
        /** The key material of the user's export files, never rotated. */
        exportSecret: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      },
    },
  },
} as const;

export default async function sessionPlugin(app: FastifyInstance, { db, tokens, users }: SessionOptions) {
  // Any signed-in role (the auth hook has checked the token, the account being active, the
  // token version and that the session was not ended by a sign-out or a lock). The device
  // unwraps its local data key with the secret after a reload while online, or at a sign-in;
  // the answer is never cached (Cache-Control: no-store, as every API answer). The device keeps
  // no token once locked, so the password is the only way back to this answer.
  app.get('/api/session/device', { schema: deviceSchema }, async (request) => {
    const { userId, role, location } = request.user;
    const secrets = await deviceSecrets(db, userId);
    if (!secrets) throw new HttpError(401, 'auth.unknownUser');
    return {
      userId,
      role,
      location,
      active: true,
      deviceSecret: secrets.secret,
      previousSecrets: secrets.previous,
      exportSecret: secrets.exportSecret,
    };
  });

  // Public: signing out always works, even with a missing or expired token. A valid token's
  // session is ended on the server: its id joins the signed-out sessions until the token's own
  // expiry, which every server process hears (plugins/users/store.ts signOutSession). The
  // user's other sessions (other devices) go on. The device secret is rotated, so a secret
  // copied before no longer opens a keyring sealed from now on. Clear-Site-Data asks the
  // browser to drop its HTTP cache of this origin.
  const forgetting = users.forgettingAfterEach(db);
  const endSession = async (token: string | undefined, rotate: boolean): Promise<void> => {
    const session = await authenticate(users, tokens, token);
    if ('refusal' in session) return;
    const { user } = session;
    await forgetting.transaction(async (tx) => {
      await signOutSession(tx, session.claims);
      if (rotate) await rotateDeviceSecret(tx, user.userId);
      await writeAudit(tx, {
        action: rotate ? 'signout' : 'lock',
        entity: 'user',
        recordId: user.userId,
        location: user.location,
        actor: { userId: user.userId, userName: user.userName, role: user.role, location: user.location },
      });
    });
  };
  app.post(
    '/api/logout',
    { schema: { response: { 204: { description: 'Signed out (always)', type: 'null' } } }, config: { public: true } },
    async (request, reply) => {
      await endSession(bearerToken(request), true);
      reply.header('Clear-Site-Data', '"cache"');
      return reply.status(204).send();
    },
  );

  // Public, as sign-out: the device locked (the lock button, the idle lock). Its session ends
  // here as at a sign-out, so a copy of its token taken before the lock opens nothing; the
  // device keeps the user's name for its lock screen, and the password signs in again. The
  // secret is not rotated: the device keeps no token, and its keyring is sealed again at the
  // next sign-out or password change anyway.
  app.post(
    '/api/session/lock',
    { schema: { response: { 204: { description: 'Session ended (always)', type: 'null' } } }, config: { public: true } },
    async (request, reply) => {
      await endSession(bearerToken(request), false);
      return reply.status(204).send();
    },
  );
}
