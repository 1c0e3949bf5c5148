// GET /users, /users/all and /users/{id}: what a user may read of the others (scope.ts).
import type { FastifyInstance } from 'fastify';
import { listQuery } from '../../../schemas/derive/typed';
import { user as userEntity } from '../../../schemas/index';
import { can } from '../../../schemas/roles';
import type { Db, Row } from '../../db/index';
import { HttpError } from '../../lib/errors';
import { Conditions, getRowOr404, listRows } from '../../lib/records';
import { typed } from '../../lib/typeProvider';
import { schemas } from './schemas';
import { canRead, readScope, type Person } from './scope';
import { pickerUsers } from './store';

export function asPerson(row: Row): Person {
  return { userId: String(row.userId), role: Number(row.role), location: Number(row.location) };
}

export function registerReadRoutes(instance: FastifyInstance, db: Db) {
  const app = typed(instance);
  app.get(
    '/api/users',
    { schema: { querystring: listQuery(userEntity), ...schemas.list }, config: { permission: 'users.manage' } },
    async (request) => listRows(db, userEntity, request.query, readScope(request.user, new Conditions())),
  );

  app.get('/api/users/all', { schema: schemas.all, config: { permission: 'users.manage' } }, async (request) =>
    pickerUsers(db, readScope(request.user, new Conditions())),
  );

  // No route permission: everyone reads their own record (users/edit with the profile flag).
  app.get<{ Params: { id: string } }>('/api/users/:id', { schema: schemas.get }, async (request) => {
    const actor = request.user;
    const own = request.params.id === actor.userId;
    // Checked before the lookup, so that a user without user management learns nothing
    // about which ids exist.
    if (!own && !can(actor.role, 'users.manage')) throw new HttpError(403, 'auth.forbidden');
    const row = await getRowOr404(db, userEntity, request.params.id);
    if (!canRead(actor, asPerson(row))) throw new HttpError(403, 'users.otherOrganisation');
    return row;
  });
}
