// Route table of spec §2. Guards: RequireAuth (login), RequirePermission (role keys of
// schemas/roles.ts, else /forbidden).
import type { ReactNode } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router';
import { LoginPage, RequireAuth, RequirePermission, RequireSelfOrPermission } from '../features/auth';
import { clientRoutes } from '../features/clients';
import { ForbiddenPage, NotFoundPage } from '../features/errors';
import { HelpIndex, HelpPage } from '../features/help';
import { HomePage } from '../features/home';
import { jobRoutes } from '../features/jobs';
import { LoginUnsentNotice, OfflineHomePage, PendingRecordsPage } from '../features/offline';
import { providerRoutes } from '../features/providers';
import { referralRoutes } from '../features/referrals';
import { ReportsPage } from '../features/reports';
import { serviceRoutes } from '../features/services';
import { Shell } from '../features/shell';
import { TestingPage } from '../features/testing';
import { ListsPage } from '../features/lists';
import { ChangePasswordPage, PasswordChangeGate, UserAddPage, UserEditPage, UserListPage } from '../features/users';
import { OnlineOnly } from '../components/OnlineOnly';
import type { FeatureRoute } from '../lib/featureRoutes';
import type { Permission } from '../lib/permissions';

function guard(permission: Permission, element: ReactNode): ReactNode {
  return <RequirePermission permission={permission}>{element}</RequirePermission>;
}

/** Screens only the server can answer (users, lists, reports): with no connection they say so
 * under their title instead of waiting for an answer that cannot come (issue 15). */
function serverOnly(titleId: string, element: ReactNode): ReactNode {
  return <OnlineOnly titleId={titleId}>{element}</OnlineOnly>;
}


/** profile/{id} → users/edit/{id} (spec §2). */
function ProfileRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={`/users/edit/${encodeURIComponent(id)}`} replace />;
}

const usersRoutes: RouteObject = {
  path: 'users',
  element: <RequirePermission permission="route.users" />,
  children: [
    { index: true, element: guard('menu.userManagement', serverOnly('screens.users', <UserListPage />)) },
    { path: 'add', element: guard('users.manage', serverOnly('screens.users', <UserAddPage />)) },
    { path: 'chngpas', element: serverOnly('screens.changePassword', <ChangePasswordPage />) },
    {
      path: 'edit/:userId',
      element: (
        <RequireSelfOrPermission param="userId" permission="users.manage">
          {serverOnly('screens.userEdit', <UserEditPage />)}
        </RequireSelfOrPermission>
      ),
    },
  ],
};

/** A feature's screens as routes, each behind the guard of its permission. */
function featureRoutes(list: FeatureRoute[]): RouteObject[] {
  return list.map(({ path, permission, element }) => {
    const guarded = permission ? guard(permission, element) : element;
    return path ? { path, element: guarded } : { index: true, element: guarded };
  });
}

const serviceProviderRoutes: RouteObject = {
  path: 'serviceproviders',
  element: <RequirePermission permission="route.serviceproviders" />,
  children: featureRoutes([...providerRoutes, ...serviceRoutes]),
};

const signedInRoutes: RouteObject[] = [
  { index: true, element: guard('route.home', <HomePage />) },
  {
    path: 'offlinehp',
    element: <RequirePermission permission="route.offlinehp" />,
    children: [
      { index: true, element: <OfflineHomePage /> },
      { path: 'pending', element: <PendingRecordsPage /> },
    ],
  },
  { path: 'testing', element: guard('route.testing', <TestingPage />) },
  usersRoutes,
  { path: 'lists', element: guard('route.lists', serverOnly('screens.lists', <ListsPage />)) },
  serviceProviderRoutes,
  {
    path: 'availablejobs',
    element: <RequirePermission permission="route.availablejobs" />,
    children: featureRoutes(jobRoutes),
  },
  {
    path: 'profiles',
    element: <RequirePermission permission="route.profiles" />,
    children: featureRoutes(clientRoutes),
  },
  {
    path: 'referral',
    element: <RequirePermission permission="route.referral" />,
    children: featureRoutes(referralRoutes),
  },
  { path: 'reports', element: guard('route.reports', serverOnly('screens.reports', <ReportsPage />)) },
];

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      {
        path: 'login',
        element: (
          <>
            <LoginUnsentNotice />
            <LoginPage />
          </>
        ),
      },
      { path: 'help', element: <HelpIndex /> },
      { path: 'help/:lang', element: <HelpPage /> },
      { path: 'forbidden', element: <ForbiddenPage /> },
      { path: 'not-found', element: <NotFoundPage /> },
      { path: 'profile/:id', element: <ProfileRedirect /> },
      // A temporary password set by an administrator is changed before anything else.
      { element: <RequireAuth />, children: [{ element: <PasswordChangeGate />, children: signedInRoutes }] },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];
