// An area manifest: everything the app knows about one feature's screens, in one place (its
// paths, its guard, its screens, its list prefetch and its menu entries). The app builds the
// router (src/app/routes.tsx), the list prefetch (src/app/listPrefetch.ts) and the sidebar
// (src/features/shell/menu.ts) from the list of manifests (src/app/areas.ts).
// Recipe: docs/recipes/new-entity.md.
import type { ReactNode } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import type { Lang, Permission, SessionUser } from '../lib/session';
import type { ListScreen } from './entity/firstQuery';

/** The sidebar's groups, in their order (product.md §2 "Shell"); their headers and keys are the
 * shell's (src/features/shell/menu.ts). */
export const MENU_GROUPS = ['admin', 'account', 'sp', 'employers', 'clients', 'more'] as const;
export type MenuGroupId = (typeof MENU_GROUPS)[number];

/** The counts a menu entry may show beside its label. */
export type BadgeKind = 'pending' | 'rejected';

/** A sidebar entry. Entries show in the order of their group, then of the areas' list
 * (src/app/areas.ts), then of the area's `menu`. */
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
export interface AreaScreen<M> extends ScreenFacts {
  render: (screens: M) => ReactNode;
}

/** The manifest a feature writes (`src/features/<feature>/area.tsx`). */
export interface AreaManifest<M> {
  id: string;
  /** The area's address, e.g. '/availablejobs' (the feature's paths.ts). Areas whose bases share
   * a first segment load together (one chunk, one guard: the role matrix guards a first segment). */
  base: string;
  /** The role key of its first segment (`route.*` of schemas/roles.ts); null for a screen anyone
   * may open, signed in or not (the help). */
  guard: Permission | null;
  /** The module holding its screens, loaded on the first visit (code splitting, with the data
   * grid, maps and forms they need). */
  load: () => Promise<M>;
  screens: readonly AreaScreen<M>[];
  menu?: readonly MenuItem[];
}

/** A manifest as the app reads it: the screens' facts at once, their elements once loaded. */
export interface Area extends Omit<AreaManifest<unknown>, 'load' | 'screens'> {
  screens: readonly ScreenFacts[];
  /** Loads the area's module; resolves to its screens' elements, in the order of `screens`. */
  load: () => Promise<ReactNode[]>;
}

export function defineArea<M>(manifest: AreaManifest<M>): Area {
  const { load, screens, ...facts } = manifest;
  return {
    ...facts,
    screens: screens.map(({ path, permission, list }) => ({ path, permission, list })),
    load: async () => {
      const module = await load();
      return screens.map((screen) => screen.render(module));
    },
  };
}
