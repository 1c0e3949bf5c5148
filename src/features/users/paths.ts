// Where the user screens live (product.md §2 route table: users, users/add, users/chngpas,
// users/edit/{id}), for the user screens, the area manifest and the features that link here.
import { CHANGE_PASSWORD_PATH } from '../../lib/util';

const id = encodeURIComponent;

export const USERS_PATH = '/users';

export const userPaths = {
  list: USERS_PATH,
  add: `${USERS_PATH}/add`,
  edit: (userId: string) => `${USERS_PATH}/edit/${id(userId)}`,
  /** One's own record, opened as the profile (the sidebar's name). */
  profile: (userId: string) => `${USERS_PATH}/edit/${id(userId)}?profile=1`,
  /** Shared with src/lib/http/api.ts, which sends a temporary password there (lib cannot import a feature). */
  changePassword: CHANGE_PASSWORD_PATH,
};
