// User management (issue 2 part: list and create; the rest of spec §7 comes with the API issue).
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../../schemas/ids';
import { ROLES } from '../../../schemas/roles';
import type { Db } from '../../db/index';
import { HttpError, isUniqueViolation } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { insertUser, publicUser, type UserRecord } from './store';

const PAGE_SIZES = [5, 10, 15, 20, 25, 50, 100, 200];

const listSchema = {
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 0, default: 0 },
      pageSize: { type: 'integer', enum: PAGE_SIZES, default: 25 },
    },
  },
} as const;

const createSchema = {
  body: {
    type: 'object',
    required: ['userName', 'password', 'role'],
    additionalProperties: false,
    properties: {
      userId: { type: 'string', minLength: 1, maxLength: 64 },
      userName: { type: 'string', minLength: 3, maxLength: 60, pattern: '^[A-Za-z0-9._@-]+$' },
      password: { type: 'string', minLength: 8, maxLength: 200 },
      role: { type: 'integer', enum: [...ROLES] },
      location: { type: 'integer', minimum: 0, default: 0 },
      fullName: { type: 'string', maxLength: 120 },
      email: { type: 'string', maxLength: 120 },
      phone: { type: 'string', maxLength: 40 },
    },
  },
} as const;

export default async function usersPlugin(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/api/users', { schema: listSchema, config: { permission: 'users.manage' } }, async (request) => {
    const { page, pageSize } = request.query as { page: number; pageSize: number };
    // Role 7 manages the staff of its own organisation only (design.md §4).
    const scoped = request.user.role !== 1;
    const where = scoped ? 'WHERE "location" = $3' : '';
    const params: unknown[] = [pageSize, page * pageSize, ...(scoped ? [request.user.location] : [])];
    const rows = await db.query<UserRecord & Record<string, unknown>>(
      `SELECT * FROM "users" ${where} ORDER BY lower("userName") LIMIT $1 OFFSET $2`,
      params,
    );
    const [{ total }] = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM "users" ${scoped ? 'WHERE "location" = $1' : ''}`,
      scoped ? [request.user.location] : [],
    );
    return { rows: rows.map(publicUser), total, page, pageSize };
  });

  app.post('/api/users/', { schema: createSchema, config: { permission: 'users.createAny' } }, async (request, reply) => {
    const body = request.body as { userId?: string; userName: string; password: string; role: number; location: number;
      fullName?: string; email?: string; phone?: string };
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
