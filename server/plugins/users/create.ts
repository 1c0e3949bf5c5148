// POST /users/ (role 1, any user) and POST /users/createStaff (role 1, or role 7 for the
// staff of its own organisation: roles of scope.ts STAFF_ROLES, location = its own).
import type { FastifyInstance } from 'fastify';
import type { CreateBodyOf } from '../../../schemas/index';
import { user as userEntity } from '../../../schemas/index';
import { uuidv7 } from '../../../schemas/ids';
import type { Db } from '../../db/index';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { schemas } from './schemas';
import { assertMayGive, assertOrganisation, type Person } from './scope';
import { insertUser, publicUser, type PublicUser } from './store';
import { assertTerritories } from './territories';

type CreateUserBody = CreateBodyOf<typeof userEntity>;

/** `mustChangePassword: true` (what the user screens send) makes the first password a
 * temporary one: the user chooses their own, under the strength rule, at the first sign-in. */
async function createUser(db: Db, actor: Person, body: CreateUserBody, hash: (password: string) => Promise<string>): Promise<PublicUser> {
  const { password, ...fields } = body;
  try {
    const user = await insertUser(db, {
      ...fields,
      userId: body.userId ?? uuidv7(),
      passwordHash: await hash(password),
      createdBy: actor.userId,
    });
    return publicUser(user);
  } catch (error) {
    // A taken user name (whatever its case) or user id: the upload engine's word (product.md §D2).
    if (isUniqueViolation(error)) throw new HttpError(409, 'http.duplicate');
    throw error;
  }
}

export function registerCreateRoutes(app: FastifyInstance, db: Db) {
  app.post<{ Body: CreateUserBody }>(
    '/api/users/',
    { schema: schemas.create, config: { permission: 'users.createAny' } },
    async (request, reply) => {
      assertOrganisation(request, { role: request.body.role, location: request.body.location ?? 0, active: request.body.active ?? true });
      await assertTerritories(db, request, request.body.territories);
      return reply.status(201).send(await createUser(db, request.user, request.body, (p) => app.passwords.hash(p)));
    },
  );

  app.post<{ Body: CreateUserBody }>(
    '/api/users/createStaff',
    { schema: schemas.createStaff, config: { permission: 'users.manage' } },
    async (request, reply) => {
      const actor = request.user;
      assertMayGive(actor, request.body);
      // An organisation admin files new staff under its own organisation unless told otherwise.
      const location = request.body.location ?? (actor.role === 1 ? 0 : actor.location);
      assertOrganisation(request, { role: request.body.role, location, active: request.body.active ?? true });
      await assertTerritories(db, request, request.body.territories);
      return reply.status(201).send(await createUser(db, actor, { ...request.body, location }, (p) => app.passwords.hash(p)));
    },
  );
}
