// User management (product.md §7 "Auth and users", product.md §D4): roles 1 and 7 manage users, role 7
// only the staff of its own organisation; everyone reads and edits their own profile and
// changes their own password. The rules live in scope.ts, the schemas in schemas.ts.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';
import type { TokenService } from '../../lib/tokens';
import type { SessionUsers } from './sessionUsers';
import { registerCreateRoutes } from './create';
import { registerPasswordRoute } from './password';
import { registerReadRoutes } from './read';
import { registerUpdateRoutes } from './update';

export default async function usersPlugin(
  app: FastifyInstance,
  options: { db: Db; tokens: TokenService; users: SessionUsers; firstPasswordFile?: string },
) {
  // A change made here is seen by the very next request's session check (sessionUsers.ts).
  const db = options.users.forgettingAfterEach(options.db);
  const { tokens } = options;
  registerReadRoutes(app, db);
  registerCreateRoutes(app, db);
  registerUpdateRoutes(app, db);
  registerPasswordRoute(app, db, tokens, options.firstPasswordFile);
}
