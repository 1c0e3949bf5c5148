// Route table of product.md §2. Guards: RequireAuth (login), RequirePermission (role keys of
// schemas/roles.ts, else /forbidden).
import { Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useParams, useRoutes, type RouteObject } from 'react-router';
import { LinearProgress } from '@mui/material';
import { LoginPage, RequireAuth, RequirePermission, RequireSelfOrPermission } from '../features/auth';
import { ForbiddenPage, NotFoundPage } from '../features/errors';
import { Shell } from '../features/shell';
import { PasswordChangeGate } from '../features/users/PasswordChangeGate';
import { usePreferences } from '../components';
import { OnlineOnly } from '../components/OnlineOnly';
import type { FeatureRoute } from '../lib/featureRoutes';
import type { Permission } from '../lib/permissions';
import { preloadable } from '../lib/preloadable';

// Route-level code splitting (ADR-0035): the login screen and the shell load first; every
// other screen, with the data grid, charts, maps and forms it needs, loads with its route (and
// is precached by the service worker for offline use). An area's screens load together.

/** What a route loaded on demand carries (`handle`): the load of its module, to start it before
 * the app's first render (`preloadRoute`). */
interface LazyRouteHandle {
  preload: () => Promise<unknown>;
}

/** A route element made from a module loaded on the first visit (a bar shows while it loads);
 * drawn at once when its module is in already (src/lib/preloadable.ts). */
function lazyElement(load: () => Promise<ReactNode>): Pick<RouteObject, 'element' | 'handle'> {
  const screen = preloadable(async () => {
    const element = await load();
    return function LoadedRoute() {
      return element;
    };
  });
  const handle: LazyRouteHandle = { preload: screen.preload };
  return {
    element: (
      <Suspense fallback={<LinearProgress aria-label="…" sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 'tooltip' }} />}>
        <screen.Component />
      </Suspense>
    ),
    handle,
  };
}

/** Starts loading the modules of the screen at `pathname`; resolves once they are in (or failed:
 * the screen's own render reports it). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const handles = (matchRoutes(routes, pathname) ?? []).map((match) => match.route.handle as LazyRouteHandle | undefined);
  return Promise.allSettled(handles.map((handle) => handle?.preload()));
}

/** A screen loaded on the first visit, behind the guard of `permission` when given. */
function lazyScreen(load: () => Promise<ComponentType>, permission?: Permission): Pick<RouteObject, 'element' | 'handle'> {
  return lazyElement(async () => {
    const Screen = await load();
    return permission ? guard(permission, <Screen />) : <Screen />;
  });
}

/** The routes of an area, rendered below its base route once its module is loaded. */
function AreaRoutes({ routes }: { routes: RouteObject[] }) {
  const all = useMemo(() => [...routes, { path: '*', element: <Navigate to="/not-found" replace /> }], [routes]);
  return useRoutes(all);
}

/** An area (base path, guard) whose screens load with its first route. */
function lazyArea(path: string, permission: Permission, load: () => Promise<RouteObject[]>): RouteObject {
  const screens = lazyElement(async () => <AreaRoutes routes={await load()} />);
  return {
    path,
    element: <RequirePermission permission={permission} />,
    // The base path itself matches the area route alone (a better match than its splat), so
    // the screens come in under an index route too.
    children: [
      { index: true, ...screens },
      { path: '*', ...screens },
    ],
  };
}

function guard(permission: Permission, element: ReactNode): ReactNode {
  return <RequirePermission permission={permission}>{element}</RequirePermission>;
}

/** Screens only the server can answer (users, lists, reports): with no connection they say so
 * under their title instead of waiting for an answer that cannot come (ADR-0034). */
function serverOnly(titleId: string, element: ReactNode): ReactNode {
  return <OnlineOnly titleId={titleId}>{element}</OnlineOnly>;
}

/** profile/{id} → users/edit/{id} (product.md §2). */
function ProfileRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={`/users/edit/${encodeURIComponent(id)}`} replace />;
}

const usersRoutes = lazyArea('users', 'route.users', async () => {
  const { ChangePasswordPage, UserAddPage, UserEditPage, UserListPage } = await import('../features/users');
  return [
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
  ];
});

/** A feature's screens as routes, each behind the guard of its permission. */
function featureRoutes(list: FeatureRoute[]): RouteObject[] {
  return list.map(({ path, permission, element }) => {
    const guarded = permission ? guard(permission, element) : element;
    return path ? { path, element: guarded } : { index: true, element: guarded };
  });
}

const dashboard = lazyScreen(async () => (await import('../features/home')).HomePage);

/** `/`: the dashboard online; in offline mode the offline home, reached without loading the
 * dashboard's chunk and its charts (ADR-0035: an offline start shows within 1 s). */
function HomeRoute() {
  const { mode } = usePreferences();
  return mode === 'offline' ? <Navigate to="/offlinehp" replace /> : dashboard.element;
}

const signedInRoutes: RouteObject[] = [
  { index: true, element: guard('route.home', <HomeRoute />), handle: dashboard.handle },
  {
    path: 'offlinehp',
    element: <RequirePermission permission="route.offlinehp" />,
    children: [
      { index: true, ...lazyScreen(async () => (await import('../features/offline')).OfflineHomePage) },
      { path: 'pending', ...lazyScreen(async () => (await import('../features/offline')).PendingRecordsPage) },
    ],
  },
  { path: 'testing', ...lazyScreen(async () => (await import('../features/testing')).TestingPage, 'route.testing') },
  usersRoutes,
  {
    path: 'lists',
    ...lazyScreen(async () => {
      const { ListsPage } = await import('../features/lists');
      return () => serverOnly('screens.lists', <ListsPage />);
    }, 'route.lists'),
  },
  {
    path: 'organisations',
    ...lazyScreen(async () => {
      const { ListsPage, ORGANISATIONS } = await import('../features/lists');
      return () => serverOnly('screens.organisations', <ListsPage only={ORGANISATIONS} />);
    }, 'route.organisations'),
  },
  lazyArea('serviceproviders', 'route.serviceproviders', async () => {
    const [{ providerRoutes }, { serviceRoutes }] = await Promise.all([import('../features/providers'), import('../features/services')]);
    return featureRoutes([...providerRoutes, ...serviceRoutes]);
  }),
  lazyArea('availablejobs', 'route.availablejobs', async () => featureRoutes((await import('../features/jobs')).jobRoutes)),
  lazyArea('profiles', 'route.profiles', async () => featureRoutes((await import('../features/clients')).clientRoutes)),
  lazyArea('referral', 'route.referral', async () => featureRoutes((await import('../features/referrals')).referralRoutes)),
  lazyArea('audit', 'route.audit', async () => featureRoutes((await import('../features/audit')).auditRoutes)),
  {
    path: 'reports',
    ...lazyScreen(async () => {
      const { ReportsPage } = await import('../features/reports');
      return () => serverOnly('screens.reports', <ReportsPage />);
    }, 'route.reports'),
  },
];

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      {
        path: 'login',
        element: <LoginPage />,
      },
      { path: 'help', ...lazyScreen(async () => (await import('../features/help')).HelpIndex) },
      { path: 'help/:lang', ...lazyScreen(async () => (await import('../features/help')).HelpPage) },
      { path: 'forbidden', element: <ForbiddenPage /> },
      { path: 'not-found', element: <NotFoundPage /> },
      { path: 'profile/:id', element: <ProfileRedirect /> },
      // A temporary password set by an administrator is changed before anything else.
      { element: <RequireAuth />, children: [{ element: <PasswordChangeGate />, children: signedInRoutes }] },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];
