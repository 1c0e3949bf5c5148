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
import type { FeatureRoute } from '../lib/featureRoutes';
import type { Permission } from '../lib/permissions';

function guard(permission: Permission, element: ReactNode): ReactNode {
  return <RequirePermission permission={permission}>{element}</RequirePermission>;
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
    { index: true, element: guard('menu.userManagement', <UserListPage />) },
    { path: 'add', element: guard('users.manage', <UserAddPage />) },
    { path: 'chngpas', element: <ChangePasswordPage /> },
    {
      path: 'edit/:userId',
      element: (
        <RequireSelfOrPermission param="userId" permission="users.manage">
          <UserEditPage />
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
  { path: 'lists', element: guard('route.lists', <ListsPage />) },
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
  { path: 'reports', element: guard('route.reports', <ReportsPage />) },
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
