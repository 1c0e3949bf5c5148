// User management (issue 2 part: list and create; the rest of spec §7 comes with the API issue).
import type { FastifyInstance } from 'fastify';
import { user as userEntity } from '../../../schemas/index';
import { createBodySchema, listQuerySchema } from '../../../schemas/derive/json-schema';
import { uuidv7 } from '../../../schemas/ids';
import type { Db } from '../../db/index';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { Conditions, listRows, type ListQuery } from '../../lib/records';
import { insertUser, publicUser } from './store';

interface CreateUserBody {
  userId?: string;
  userName: string;
  password: string;
  role: number;
  location: number;
  fullName: string;
  email?: string | null;
  phone?: string | null;
}

export default async function usersPlugin(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/api/users', { schema: { querystring: listQuerySchema(userEntity) }, config: { permission: 'users.manage' } }, async (request) => {
    // Role 7 manages the staff of its own organisation only (design.md §4).
    const where = new Conditions();
    if (request.user.role !== 1) where.add(`"location" = ${where.param(request.user.location)}`);
    return listRows(db, userEntity, request.query as ListQuery, where);
  });

  app.post('/api/users/', { schema: { body: createBodySchema(userEntity) }, config: { permission: 'users.createAny' } }, async (request, reply) => {
    const body = request.body as CreateUserBody;
    try {
      const user = await insertUser(db, {
        ...body,
        userId: body.userId ?? uuidv7(),
        passwordHash: await hashPassword(body.password),
        createdBy: request.user.userId,
      });
      return reply.status(201).send(publicUser(user));
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, 'http.duplicate');
      throw error;
    }
  });
}
