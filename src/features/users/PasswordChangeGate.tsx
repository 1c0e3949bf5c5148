// Loaded with the shell (not with the users screens): every signed-in route passes through it.
import { Navigate, Outlet, useLocation } from 'react-router';
import { CHANGE_PASSWORD_PATH } from '../../lib/util';
import { getUser } from '../../lib/session';

export { CHANGE_PASSWORD_PATH };

/** Signed-in users whose password an administrator set go to Change Password first. */
export function PasswordChangeGate() {
  // Read at each render, not once per mount: the change itself clears the flag in storage.
  const user = getUser();
  const location = useLocation();
  if (user?.mustChangePassword && location.pathname !== CHANGE_PASSWORD_PATH) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  return <Outlet />;
}
