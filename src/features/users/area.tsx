// The users area (product.md §2 route table: users, users/add, users/chngpas, users/edit/{id}),
// behind route.users. Server screens: with no connection they say so under their title. The own
// password screen needs no more than the area; a user record is open to its owner (the profile)
// and to the roles that manage users.
import GroupIcon from '@mui/icons-material/Group';
import PasswordIcon from '@mui/icons-material/Password';
import { defineArea } from '../../components/area';
import { OnlineOnly } from '../../components/OnlineOnly';
import { RequireSelfOrPermission } from '../auth';
import { USERS_PATH, userPaths } from './paths';

export const usersArea = defineArea({
  id: 'users',
  order: 10,
  base: USERS_PATH,
  guard: 'route.users',
  load: () => import('./index'),
  screens: [
    {
      permission: 'menu.userManagement',
      render: (s) => (
        <OnlineOnly titleId="screens.users">
          <s.UserListPage />
        </OnlineOnly>
      ),
    },
    {
      path: 'add',
      permission: 'users.manage',
      render: (s) => (
        <OnlineOnly titleId="screens.users">
          <s.UserAddPage />
        </OnlineOnly>
      ),
    },
    {
      path: 'chngpas',
      render: (s) => (
        <OnlineOnly titleId="screens.changePassword">
          <s.ChangePasswordPage />
        </OnlineOnly>
      ),
    },
    {
      path: 'edit/:userId',
      render: (s) => (
        <RequireSelfOrPermission param="userId" permission="users.manage">
          <OnlineOnly titleId="screens.userEdit">
            <s.UserEditPage />
          </OnlineOnly>
        </RequireSelfOrPermission>
      ),
    },
  ],
  menu: [
    { id: 'users', group: 'admin', labelId: 'menu.userManagement', to: USERS_PATH, icon: GroupIcon, permission: 'menu.userManagement' },
    {
      id: 'chngpas',
      group: 'account',
      labelId: 'menu.changePassword',
      to: userPaths.changePassword,
      icon: PasswordIcon,
      permission: 'menu.changePassword',
    },
  ],
});
