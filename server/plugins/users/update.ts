// PUT /users/{id} (role 1), /users/staff/{id} (role 1, role 7 on its organisation's staff),
// /users/self/{id} (own contact details). `active: false` deactivates: sign-in and every
// existing token are refused from then on (auth.ts reads the user on each request).
// `password` on the first two is the administrator's reset ("I forgot my password").
// A reset or a deactivation ends every session of the user (token version, lib/tokens.ts), and
// with them its open change streams (sync plugin).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UpdateBodyOf } from '../../../schemas/index';
import { user as userEntity } from '../../../schemas/index';
import type { Db, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { updateRow, writableValues, type Values } from '../../lib/records';
import { schemas } from './schemas';
import { assertManages, assertMayGive, assertNotSelfLockout, assertOrganisation, type Person } from './scope';
import { endSessions, findUserById, rotateDeviceSecret } from './store';
import { assertTerritories } from './territories';

type UpdateUserBody = UpdateBodyOf<typeof userEntity>;
type UpdateRequest = FastifyRequest<{ Params: { id: string }; Body: UpdateUserBody }>;

/** The account as an administrator's edit leaves it: it must keep an organisation (scope.ts). */
function assertKeepsOrganisation(request: UpdateRequest, target: Person & { active: boolean }): void {
  const { role, location, active } = request.body;
  assertOrganisation(request, { role: role ?? target.role, location: location ?? target.location, active: active ?? target.active });
}

/** Loads the target (404), lets `guard` refuse (403), then writes only what was sent. */
async function applyUpdate(db: Db, request: UpdateRequest, guard: (target: Person & { active: boolean }) => void): Promise<Row> {
  const { id } = request.params;
  const target = await findUserById(db, id);
  if (!target) throw new HttpError(404, 'http.recordNotFound');
  guard(target);
  await assertTerritories(db, request, request.body.territories);
  const { password, updatedAt, ...fields } = request.body;
  const values: Values = writableValues(userEntity, fields);
  if (password) {
    values.passwordHash = await request.server.passwords.hash(password);
    // A password set by someone else is temporary unless said otherwise: its owner chooses
    // their own at the next sign-in.
    values.mustChangePassword = fields.mustChangePassword ?? id !== request.user.userId;
  }
  const endsSessions = password !== undefined || (fields.active === false && target.active);
  // A reset, a deactivation and a reactivation give the user a new device secret: a secret
  // copied before opens no keyring sealed since (docs/security.md "Shared and lost devices").
  const rotates = password !== undefined || (fields.active !== undefined && fields.active !== target.active);
  return db.transaction(async (tx) => {
    const row = await updateRow(tx, userEntity, id, values, request.user.userId, updatedAt);
    if (endsSessions) await endSessions(tx, id);
    if (rotates) await rotateDeviceSecret(tx, id);
    return row;
  });
}

export function registerUpdateRoutes(app: FastifyInstance, db: Db) {
  app.put<{ Params: { id: string }; Body: UpdateUserBody }>(
    '/api/users/:id',
    { schema: schemas.update, config: { permission: 'users.createAny' } },
    async (request) =>
      applyUpdate(db, request, (target) => {
        assertNotSelfLockout(request.user, request.params.id, request.body);
        assertKeepsOrganisation(request, target);
      }),
  );

  app.put<{ Params: { id: string }; Body: UpdateUserBody }>(
    '/api/users/staff/:id',
    { schema: schemas.update, config: { permission: 'users.manage' } },
    async (request) =>
      applyUpdate(db, request, (target) => {
        assertManages(request.user, target);
        assertMayGive(request.user, request.body);
        assertNotSelfLockout(request.user, request.params.id, request.body);
        assertKeepsOrganisation(request, target);
      }),
  );

  app.put<{ Params: { id: string }; Body: UpdateUserBody }>(
    '/api/users/self/:id',
    {
      schema: schemas.updateSelf,
      // Before body validation: another user's id is refused whatever the body says.
      preValidation: async (request) => {
        if (request.params.id !== request.user.userId) throw new HttpError(403, 'users.selfOnly');
      },
    },
    async (request) => applyUpdate(db, request, () => undefined),
  );
}
