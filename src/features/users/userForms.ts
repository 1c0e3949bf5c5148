// The user entity as each user screen edits it: the shared declaration with only the fields
// that screen sends, so the shared form validates and sends exactly those (the server refuses
// any other: an own profile never sends a role or an organisation).
import type { EntityShape } from '../../../schemas/define';
import { STAFF_ROLES } from '../../../schemas/roles';
import { can, type SessionUser } from '../../lib/session';
import { userEntity } from './usersApi';

type UserField = keyof typeof userEntity.fields;

function withFields(names: readonly UserField[], overrides: Partial<Record<UserField, object>> = {}): EntityShape {
  const fields = Object.fromEntries(names.map((name) => [name, { ...userEntity.fields[name], ...overrides[name] }]));
  return { ...(userEntity as EntityShape), fields };
}

/** Fields an administrator edits; role 7 gives the roles of its staff only and no organisation
 * (the server files its staff under its own). */
export function adminFields(actor: SessionUser | null): UserField[] {
  const fields: UserField[] = ['fullName', 'userName', 'role'];
  if (can(actor?.role, 'users.createAny')) fields.push('location');
  // Territories: whose clients a field worker's device keeps besides their own (docs/product.md
  // §6.5.1); set by those who manage users, as the role matrix says (users.manage).
  return [...fields, 'email', 'phone', 'territories'];
}

export function adminEntity(actor: SessionUser | null, creating: boolean): EntityShape {
  const names = adminFields(actor);
  const roles = can(actor?.role, 'users.createAny') ? {} : { role: { values: STAFF_ROLES } };
  return withFields(creating ? [...names, 'password', 'mustChangePassword'] : names, roles);
}

/** PUT /users/self/{id}: name and contact details only. */
export const PROFILE_FIELDS: readonly UserField[] = ['fullName', 'email', 'phone'];
export const profileEntity: EntityShape = withFields(PROFILE_FIELDS);
