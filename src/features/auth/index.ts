// Public surface of the auth feature: the login screen and the route guards.
export { LoginPage } from './LoginPage';
export { changePassword } from './authApi';
export { RequireAuth, RequirePermission, RequireSelfOrPermission } from './guards';
export { loginPathFor, safeReturnUrl } from './returnUrl';
export { VaultGate, reloadLocked } from './VaultGate';
