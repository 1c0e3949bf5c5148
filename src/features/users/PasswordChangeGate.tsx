// Loaded with the shell (not with the users screens): every signed-in route passes through it.
import { Navigate, Outlet, useLocation } from 'react-router';
import { getUser } from '../../lib/session';

export const CHANGE_PASSWORD_PATH = '/users/chngpas';

/** Signed-in users whose password an administrator set go to Change Password first. */
export function PasswordChangeGate() {
  // Read at each render, not once per mount: the change itself clears the flag in storage.
  const user = getUser();
  const location = useLocation();
  if (user?.mustChangePassword && location.pathname !== CHANGE_PASSWORD_PATH) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  return <Outlet />;
}
