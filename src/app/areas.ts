// The app's areas: every feature's manifest (src/components/area.ts), found in
// `src/features/*/area.tsx` and sorted by their `order`, which is the sidebar's order within each
// group (ADR-0050). The router (routes.tsx), the list prefetch (listPrefetch.ts) and the menu
// (src/features/shell/menu.ts) are built from this list; test/unit/areas.test.ts checks that
// every entity with a list screen has one. Recipe: docs/recipes/new-entity.md.
import { isArea, type Area, type MenuItem } from '../components/area';

// Eager: the manifests are small and the app needs them all at its start (routes, prefetch,
// menu); each loads its screens itself, on the first visit.
const manifests = import.meta.glob<Record<string, unknown>>('../features/*/area.tsx', { eager: true });

export const AREAS: readonly Area[] = Object.values(manifests)
  .flatMap((module) => Object.values(module).filter(isArea))
  .sort((a, b) => a.order - b.order);

/** Every sidebar entry, in the areas' order (the shell groups them). */
export const MENU_ITEMS: readonly MenuItem[] = AREAS.flatMap((area) => area.menu ?? []);

/** The address of a screen of `area` (its base and the screen's relative path). */
export function screenPath(area: Area, path: string | undefined): string {
  return path ? `${area.base}/${path}` : area.base;
}
