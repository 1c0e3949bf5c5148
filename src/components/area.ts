// An area manifest: everything the app knows about one feature's screens, in one place (its
// paths, its guard, its screens, its list prefetch and its menu entries). The app builds the
// router (src/app/routes.tsx), the list prefetch (src/app/listPrefetch.ts) and the sidebar
// (src/features/shell/menu.ts) from the manifests, which src/app/areas.ts finds (ADR-0050).
// Recipe: docs/recipes/new-entity.md.
import { createElement, type ReactNode } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import type { Lang, Permission, SessionUser } from '../lib/session';
import type { ListScreen } from './entity/firstQuery';

/** The sidebar's groups, in their order (product.md §2 "Shell"); their headers and keys are the
 * shell's (src/features/shell/menu.ts). */
export const MENU_GROUPS = ['admin', 'account', 'sp', 'employers', 'clients', 'more'] as const;
export type MenuGroupId = (typeof MENU_GROUPS)[number];

/** The counts a menu entry may show beside its label. */
export type BadgeKind = 'pending' | 'rejected';

/** A sidebar entry. Entries show in the order of their group, then of the areas' `order`, then
 * of the area's `menu`. */
export interface MenuItem {
  id: string;
  group: MenuGroupId;
  labelId: string;
  /** Its target; a function when it depends on the interface language. */
  to: string | ((lang: Lang) => string);
  icon: typeof SvgIcon;
  /** The entry's own role key (schemas/roles.ts); its target's route key is checked too. */
  permission: Permission;
  badge?: BadgeKind;
  /** Extra condition beyond the role, e.g. "Add Clients" needs an organisation. */
  when?: (user: SessionUser) => boolean;
}

/** What the app knows of a screen without loading its code. */
export interface ScreenFacts {
  /** Relative to the area's base, e.g. 'add' or ':jbId/edit'; absent for the index screen. */
  path?: string;
  /** The role key the screen needs beside the area's guard (the app adds its guard). */
  permission?: Permission;
  /** A list screen: its first page is asked as soon as its address is (src/app/listPrefetch.ts). */
  list?: ListScreen;
}

/** A screen, drawn from the area's module `M` once it is loaded. */
export interface RenderedScreen<M> extends ScreenFacts {
  render: (screens: M) => ReactNode;
}

/** A screen that is its list and nothing more: the app draws the shared list screen
 * (src/components/entity/EntityListPage.tsx), titled `titleId`, by default `screens.<area id>`
 * (ADR-0050). */
export interface ListOnlyScreen extends ScreenFacts {
  list: ListScreen;
  titleId?: string;
  render?: never;
}

export type AreaScreen<M> = RenderedScreen<M> | ListOnlyScreen;

/** What every manifest says of its area, whatever its screens. */
interface AreaFacts {
  id: string;
  /** Its place among the areas (src/app/areas.ts sorts them by it): within a sidebar group the
   * entries follow it, then the order of the area's `menu`. Unique (test/unit/areas.test.ts). */
  order: number;
  /** The area's address, e.g. '/availablejobs' (the feature's paths.ts). Areas whose bases share
   * a first segment load together (one chunk, one guard: the role matrix guards a first segment). */
  base: string;
  /** The role key of its first segment (`route.*` of schemas/roles.ts); null for a screen anyone
   * may open, signed in or not (the help). */
  guard: Permission | null;
  menu?: readonly MenuItem[];
}

/** The manifest a feature writes (`src/features/<feature>/area.tsx`). */
export interface AreaManifest<M> extends AreaFacts {
  /** The module holding its screens, loaded on the first visit (code splitting, with the data
   * grid, maps and forms they need). */
  load: () => Promise<M>;
  screens: readonly AreaScreen<M>[];
}

/** The manifest of a feature whose screens are lists only: it has no module of its own. */
export interface ListAreaManifest extends AreaFacts {
  load?: never;
  screens: readonly ListOnlyScreen[];
}

/** A manifest as the app reads it: the screens' facts at once, their elements once loaded. */
export interface Area extends AreaFacts {
  screens: readonly ScreenFacts[];
  /** Loads the area's module; resolves to its screens' elements, in the order of `screens`. */
  load: () => Promise<ReactNode[]>;
}

const areas = new WeakSet<Area>();

/** Whether `value` is an area a manifest defined (what src/app/areas.ts collects). */
export function isArea(value: unknown): value is Area {
  return typeof value === 'object' && value !== null && areas.has(value as Area);
}

const isListOnly = <M>(screen: AreaScreen<M>): screen is ListOnlyScreen => !screen.render;

export function defineArea(manifest: ListAreaManifest): Area;
export function defineArea<M>(manifest: AreaManifest<M>): Area;
export function defineArea<M>(manifest: AreaManifest<M> | ListAreaManifest): Area {
  const { load, screens, ...facts } = manifest;
  const all: readonly AreaScreen<M>[] = screens;
  const area: Area = {
    ...facts,
    screens: all.map(({ path, permission, list }) => ({ path, permission, list })),
    load: async () => {
      // The shared list screen loads through the entity components' index, whose chunk the
      // features' own list screens load too (a path of its own splits the build's chunks anew).
      const [module, lists] = await Promise.all([load?.(), all.some(isListOnly) ? import('./entity/index') : undefined]);
      return all.map((screen) =>
        isListOnly(screen)
          ? lists && createElement(lists.EntityListPage, { list: screen.list, titleId: screen.titleId ?? `screens.${facts.id}` })
          : screen.render(module as M),
      );
    },
  };
  areas.add(area);
  return area;
}
