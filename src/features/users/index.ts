// Public surface of the users area (stubs until the user management issue).
export { ChangePasswordPage, UserEditPage, UserListPage } from './UserPages';
