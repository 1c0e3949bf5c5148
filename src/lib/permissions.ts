// The client reads role rules only from the shared matrix (schemas/roles.ts), so screens and
// the server can never disagree. This re-export keeps the path in one place.
export { can, canOpen, ROLES, PERMISSIONS, isRole } from '../../schemas/roles';
export type { Permission, Role } from '../../schemas/roles';
