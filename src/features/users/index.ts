// Public surface of the users area: user management, own profile, change password.
export { UserListPage } from './UserListPage';
export { UserAddPage, UserEditPage } from './UserFormPages';
export { ChangePasswordPage } from './ChangePasswordPage';
export { PasswordChangeGate, CHANGE_PASSWORD_PATH } from './PasswordChangeGate';
