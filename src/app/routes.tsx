// Route table of product.md §2. Guards: RequireAuth (login), RequirePermission (role keys of
// schemas/roles.ts, else /forbidden).
import { Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useParams, useRoutes, type RouteObject } from 'react-router';
import { LinearProgress } from '@mui/material';
import { LoginPage, RequireAuth, RequirePermission } from '../features/auth';
import { ForbiddenPage, NotFoundPage } from '../features/errors';
import { Shell } from '../features/shell';
import { PasswordChangeGate } from '../features/users/PasswordChangeGate';
import { usePreferences } from '../components';
import type { Area } from '../components/area';
import { userPaths } from '../features/users/paths';
import type { Permission } from '../lib/session';
import { preloadable } from '../lib/ui';
import { AREAS, MENU_ITEMS, screenPath } from './areas';

// Route-level code splitting (ADR-0035): the login screen and the shell load first; every
// other screen, with the data grid, charts, maps and forms it needs, loads with its route (and
// is precached by the service worker for offline use). An area's screens load together.

/** What a route loaded on demand carries (`handle`): the load of its module, to start it before
 * the app's first render (`preloadRoute`). */
interface LazyRouteHandle {
  preload: () => Promise<unknown>;
}

/** A route element made from a module loaded on the first visit (a bar shows while it loads);
 * drawn at once when its module is in already (src/lib/ui/preloadable.ts). */
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

/** A screen loaded on the first visit. */
function lazyScreen(load: () => Promise<ComponentType>): Pick<RouteObject, 'element' | 'handle'> {
  return lazyElement(async () => {
    const Screen = await load();
    return <Screen />;
  });
}

/** The routes of an area, rendered below its base route once its module is loaded. */
function AreaRoutes({ routes }: { routes: RouteObject[] }) {
  const all = useMemo(() => [...routes, { path: '*', element: <Navigate to="/not-found" replace /> }], [routes]);
  return useRoutes(all);
}

function guard(permission: Permission, element: ReactNode): ReactNode {
  return <RequirePermission permission={permission}>{element}</RequirePermission>;
}

/** The areas (src/app/areas.ts) by the first segment of their base: areas under one segment
 * share its guard (the role matrix guards a first segment, schemas/roles.ts routePermission) and
 * load together, e.g. the providers and the services under /serviceproviders. */
function bySegment(areas: readonly Area[]): Map<string, Area[]> {
  const groups = new Map<string, Area[]>();
  for (const area of areas) {
    const segment = area.base.split('/')[1] ?? '';
    groups.set(segment, [...(groups.get(segment) ?? []), area]);
  }
  return groups;
}

/** The route of one first segment: its areas' screens, each behind the guard of its permission,
 * loaded on the first visit with their modules; the segment behind the areas' guard. */
function segmentRoute(segment: string, areas: Area[]): RouteObject {
  const screens = lazyElement(async () => {
    const elements = await Promise.all(areas.map((area) => area.load()));
    const routes = areas.flatMap((area, a) =>
      area.screens.map((screen, i): RouteObject => {
        const element = elements[a]?.[i];
        const guarded = screen.permission ? guard(screen.permission, element) : element;
        const path = screenPath(area, screen.path).slice(segment.length + 2);
        return path ? { path, element: guarded } : { index: true, element: guarded };
      }),
    );
    return <AreaRoutes routes={routes} />;
  });
  const permission = areas[0]?.guard;
  return {
    path: segment,
    ...(permission ? { element: <RequirePermission permission={permission} /> } : {}),
    // The base path itself matches the area route alone (a better match than its splat), so
    // the screens come in under an index route too.
    children: [
      { index: true, ...screens },
      { path: '*', ...screens },
    ],
  };
}

/** The routes of the areas, signed-in ones (behind a guard) or public ones (`guard: null`). */
function areaRoutes(signedIn: boolean): RouteObject[] {
  return [...bySegment(AREAS.filter((area) => (area.guard !== null) === signedIn))].map(([segment, areas]) => segmentRoute(segment, areas));
}

/** profile/{id} → users/edit/{id} (product.md §2). */
function ProfileRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={userPaths.edit(id)} replace />;
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
  ...areaRoutes(true),
];

export const routes: RouteObject[] = [
  {
    element: <Shell menu={MENU_ITEMS} />,
    children: [
      {
        path: 'login',
        element: <LoginPage />,
      },
      ...areaRoutes(false),
      { path: 'forbidden', element: <ForbiddenPage /> },
      { path: 'not-found', element: <NotFoundPage /> },
      { path: 'profile/:id', element: <ProfileRedirect /> },
      // A temporary password set by an administrator is changed before anything else.
      { element: <RequireAuth />, children: [{ element: <PasswordChangeGate />, children: signedInRoutes }] },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];
