// Route guards of the product.md §2 route table. Role rules come only from schemas/roles.ts.
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useSessionUser } from '../../components';
import { can, isSignedIn, type Permission } from '../../lib/session';
import { loginPathFor } from './returnUrl';

/** Signed-in users only; others go to login, with a returnUrl when it is worth keeping. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const location = useLocation();
  if (!isSignedIn()) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  return children ?? <Outlet />;
}

/** The user's role must hold `permission`, else the 403 page. Place inside RequireAuth. */
export function RequirePermission({ permission, children }: { permission: Permission; children?: ReactNode }) {
  const user = useSessionUser();
  if (!can(user?.role, permission)) return <Navigate to="/forbidden" replace />;
  return children ?? <Outlet />;
}

/** Own record for everyone (own profile), other records only with `permission`. */
export function RequireSelfOrPermission({ param, permission, children }: { param: string; permission: Permission; children?: ReactNode }) {
  const user = useSessionUser();
  const id = useParams()[param];
  const allowed = (user !== null && id === user.userId) || can(user?.role, permission);
  if (!allowed) return <Navigate to="/forbidden" replace />;
  return children ?? <Outlet />;
}
