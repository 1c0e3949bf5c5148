// Who may see and change which user (product.md §D4): role 1 everyone; role 7 the staff of its
// own organisation (same `location`); everyone their own record. Kept apart from the routes
// so that every route applies the very same rules.
import type { FastifyRequest } from 'fastify';
import { STAFF_ROLES } from '../../../schemas/roles';
import { lacksOrganisation } from '../../../schemas/scope';
import { fieldError, HttpError } from '../../lib/errors';
import type { Conditions } from '../../lib/records';

export { STAFF_ROLES };

/** The signed-in user, or the user a rule is about. */
export interface Person {
  userId: string;
  role: number;
  location: number;
}

const NO_ORGANISATION = 0;

/** True when `actor` may read `target` (GET /users/{id}, lists and pickers). */
export function canRead(actor: Person, target: Pick<Person, 'userId' | 'location'>): boolean {
  if (actor.userId === target.userId || actor.role === 1) return true;
  return actor.role === 7 && actor.location !== NO_ORGANISATION && target.location === actor.location;
}

/** Restricts a user query to what `actor` may read. A role 7 without an organisation would
 * otherwise "share" location 0 with the super admins, so it sees only itself. */
export function readScope(actor: Person, where: Conditions): Conditions {
  if (actor.role === 1) return where;
  if (actor.location === NO_ORGANISATION) return where.add(`"userId" = ${where.param(actor.userId)}`);
  return where.add(`"location" = ${where.param(actor.location)}`);
}

const forbid = (key: 'users.noOrganisation' | 'users.otherOrganisation'): never => {
  throw new HttpError(403, key);
};

function forbidRole(role: number): never {
  throw new HttpError(403, 'users.roleNotAllowed', { role, roles: STAFF_ROLES.join(', ') });
}

/** Throws 403 unless `actor` may manage `target` as staff. Role 1 may manage anyone. */
export function assertManages(actor: Person, target: Person): void {
  if (actor.role === 1) return;
  if (actor.location === NO_ORGANISATION) forbid('users.noOrganisation');
  if (target.location !== actor.location) forbid('users.otherOrganisation');
  if (!(STAFF_ROLES as readonly number[]).includes(target.role)) forbidRole(target.role);
}

/** Throws 403 when a role 7 asks for a role or an organisation it may not give. */
export function assertMayGive(actor: Person, wanted: { role?: number; location?: number }): void {
  if (actor.role === 1) return;
  if (actor.location === NO_ORGANISATION) forbid('users.noOrganisation');
  if (wanted.location !== undefined && wanted.location !== actor.location) forbid('users.otherOrganisation');
  if (wanted.role !== undefined && !(STAFF_ROLES as readonly number[]).includes(wanted.role)) forbidRole(wanted.role);
}

/** Nobody changes their own role or deactivates themself through the admin routes: the last
 * administrator could otherwise lock everyone out. Own details go through PUT /users/self. */
export function assertNotSelfLockout(actor: Person, targetId: string, body: { role?: number; active?: boolean }): void {
  if (actor.userId !== targetId) return;
  if ((body.role !== undefined && body.role !== actor.role) || body.active === false) {
    throw new HttpError(403, 'users.notYourself');
  }
}

/** Roles 3-7 need an organisation (ADR-0007): a create, or an administrator's edit, that
 * leaves an active account of those roles without one answers 400 on `location`. Deactivating
 * such an account is allowed (its organisation can be chosen later). */
export function assertOrganisation(request: FastifyRequest, user: { role: number; location: number; active: boolean }): void {
  if (user.active && lacksOrganisation(user)) throw fieldError(request, 'location', 'users.organisationRequired', { role: user.role });
}
