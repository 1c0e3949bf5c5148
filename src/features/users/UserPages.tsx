import { useSearchParams } from 'react-router';
import { ComingPage } from '../coming';

/** User list (spec §2 'users'); filled by a later issue. */
export function UserListPage() {
  return <ComingPage titleId="screens.users" />;
}

/** users/chngpas: every signed-in user may change their own password. */
export function ChangePasswordPage() {
  return <ComingPage titleId="screens.changePassword" />;
}

/** users/edit/:userId; opened with ?profile=1 from the sidebar username (own profile). */
export function UserEditPage() {
  const [params] = useSearchParams();
  const ownProfile = params.get('profile') === '1';
  return <ComingPage titleId={ownProfile ? 'screens.myProfile' : 'screens.userEdit'} />;
}
