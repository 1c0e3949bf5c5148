// The signed-in device's session: the secret its local data is unlocked with (issue 25), and
// sign-out, which ends the session on the server (issue 26 §3). Sign-in is POST /api/login (auth.ts).
import { writeAudit } from './audit/entries';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index';
import { HttpError } from '../lib/errors';
import type { TokenService } from '../lib/tokens';
import { authenticate, bearerToken } from './auth';
import type { SessionUsers } from './users/sessionUsers';
import { deviceSecret, signOutSession } from './users/store';

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
      required: ['userId', 'role', 'location', 'active', 'deviceSecret'],
      properties: {
        userId: { type: 'string' },
        role: { type: 'integer' },
        location: { type: 'integer' },
        active: { type: 'boolean', const: true },
        /** base64url of 32 random bytes. */
        deviceSecret: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      },
    },
  },
} as const;

export default async function sessionPlugin(app: FastifyInstance, { db, tokens, users }: SessionOptions) {
  // Any signed-in role (the auth hook has checked the token, the account being active and the
  // token version). The device unwraps its local data key with the secret after a reload while
  // online; the answer is never cached (Cache-Control: no-store, as every API answer).
  app.get('/api/session/device', { schema: deviceSchema }, async (request) => {
    const { userId, role, location } = request.user;
    const secret = await deviceSecret(db, userId);
    if (!secret) throw new HttpError(401, 'auth.unknownUser');
    return { userId, role, location, active: true, deviceSecret: secret };
  });

  // Public: signing out always works, even with a missing or expired token. A valid token's
  // session is ended on the server: its id joins the signed-out sessions until the token's own
  // expiry, which every server process hears (plugins/users/store.ts signOutSession). The
  // user's other sessions (other devices) go on. Clear-Site-Data asks the browser to drop its
  // HTTP cache of this origin.
  const forgetting = users.forgettingAfterEach(db);
  app.post(
    '/api/logout',
    { schema: { response: { 204: { description: 'Signed out (always)', type: 'null' } } }, config: { public: true } },
    async (request, reply) => {
      const session = await authenticate(users, tokens, bearerToken(request));
      if (!('refusal' in session)) {
        const { user } = session;
        await signOutSession(forgetting, session.claims);
        await writeAudit(db, {
          action: 'signout',
          entity: 'user',
          recordId: user.userId,
          location: user.location,
          actor: { userId: user.userId, userName: user.userName, role: user.role, location: user.location },
        });
      }
      reply.header('Clear-Site-Data', '"cache"');
      return reply.status(204).send();
    },
  );
}
