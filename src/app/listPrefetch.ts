// A list screen's first page asked as soon as the address is the list's (ADR-0035: first rows
// within 500 ms of navigation): at the page's start (a page load of the list's address), and at
// each in-app navigation, before the router renders. Without it the request left only once the
// screen, its grid and the data grid's code were rendered and committed (0.5-1 s on this
// machine). The grid takes the answer through the data layer (src/lib/data/prefetch.ts).
// Part of the entry, with only small imports (no store, no grid): loaded as its own chunk it
// changed how the build split the shared code, and the offline start got 25 % slower.
import type { createBrowserRouter } from 'react-router';
import { firstPageQuery, type ListScreen } from '../components/entity/firstQuery';
import { preloadListView } from '../components/entity/gridViewModule';
import { api } from '../lib/http';
import type { EntityShape } from '../../schemas/define';
import { prefetchPage, readFirstPageAhead, type IcrsCollection } from '../lib/data/start';
import { appIsOnline, can, getUser, type Permission } from '../lib/session';
import { AREAS, screenPath } from './areas';

interface ListRoute {
  list: ListScreen;
  /** The guards of its route (its area's and its own): a user who may not open the screen is
   * not asked for its page. */
  permissions: readonly Permission[];
}

/** The list screens by address: every screen of an area that declares its list (src/app/areas.ts). */
const LIST_ROUTES: Readonly<Record<string, ListRoute>> = Object.fromEntries(
  AREAS.flatMap((area) =>
    area.screens.flatMap(({ path, permission, list }) =>
      list ? [[screenPath(area, path), { list, permissions: [area.guard, permission].filter((key) => key != null) }]] : [],
    ),
  ),
);

function listAt(pathname: string): ListRoute | undefined {
  return LIST_ROUTES[pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname];
}

/** The list screen at `pathname`, if the signed-in user may open it. */
function openableListAt(pathname: string): ListRoute | undefined {
  const route = listAt(pathname);
  const user = getUser();
  return route && user && route.permissions.every((permission) => can(user.role, permission)) ? route : undefined;
}

/** At the list at `pathname`, if it is one the signed-in user may open: asks its first page when
 * the app is online (offline a list reads the store), and starts loading the grid's module (a
 * wide screen's: a phone's list draws without it), offline too: otherwise an offline list asked
 * for the grid's code only once its screen was drawn, one more wait before its first rows
 * (docs/performance.md "The offline client list").
 * Returns that load when it did. */
export function prefetchListAt(pathname: string): Promise<unknown> | undefined {
  const route = openableListAt(pathname);
  if (!route) return undefined;
  if (appIsOnline()) prefetchPage(api, route.list.entity, firstPageQuery(route.list.entity, route.list.columns));
  return preloadListView().catch(() => undefined); // the grid's own load reports
}

/** The entities the screen at `pathname` reads first: its list's, if it is a list the signed-in
 * user may open (the store sets their collections up first, ADR-0035). */
export function firstEntitiesAt(pathname: string): EntityShape[] {
  const route = openableListAt(pathname);
  return route ? [route.list.entity] : [];
}

/** Offline, at a page load of a list the signed-in user may open: its first page read from its
 * collection as soon as the opening store has set it up, for the grid's first render
 * (src/lib/data/localList.ts). */
export function readListAheadAt(
  pathname: string,
  collectionOf: (entity: EntityShape) => Promise<IcrsCollection>,
): Promise<void> | undefined {
  const route = openableListAt(pathname);
  if (!route) return undefined;
  const { entity, columns } = route.list;
  return collectionOf(entity).then((collection) => readFirstPageAhead(collection, entity, firstPageQuery(entity, columns)));
}

/** Starts loading the grid's module when `pathname` is a list screen's (a menu link pointed at). */
export function preloadGridAt(pathname: string): Promise<unknown> | undefined {
  return listAt(pathname) ? preloadListView().catch(() => undefined) : undefined;
}

/** At each in-app navigation, before the router renders the new screen. */
export function prefetchOnNavigation(router: ReturnType<typeof createBrowserRouter>): () => void {
  let last = router.state.location.pathname;
  return router.subscribe((state) => {
    const pathname = state.location.pathname;
    if (pathname === last) return;
    last = pathname;
    prefetchListAt(pathname);
  });
}
