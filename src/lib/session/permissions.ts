// The client reads role rules only from the shared matrix (schemas/roles.ts), so screens and
// the server can never disagree. This re-export keeps the path in one place.
import type { EntityShape } from '../../../schemas/define';
import { mayAccess } from '../../../schemas/scope';

export { can, canOpen, ROLES, PERMISSIONS, isRole } from '../../../schemas/roles';
export type { Permission, Role } from '../../../schemas/roles';

/**
 * True when `user` may change `doc`, a record of `entity`: the role matrix and the
 * organisation scope (schemas/scope.ts), as the API decides. A record not uploaded yet has no
 * owner on the device and is the user's own.
 */
export function mayChange(
  user: { role: number; location: number } | null | undefined,
  entity: EntityShape,
  doc: { location?: number | null; syncState?: string },
): boolean {
  if (!user) return false;
  const owner = doc.location ?? (doc.syncState === 'pending' ? user.location : undefined);
  return mayAccess(user, entity, 'write', owner);
}
