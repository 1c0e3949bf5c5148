// The app's areas: every feature's manifest (src/components/area.ts), in the sidebar's order
// within each group. The router (routes.tsx), the list prefetch (listPrefetch.ts) and the menu
// (src/features/shell/menu.ts) are built from this list; test/unit/areas.test.ts checks that
// every entity with a list screen has one. Recipe: docs/recipes/new-entity.md.
import type { Area, MenuItem } from '../components/area';
import { auditArea } from '../features/audit/area';
import { clientsArea } from '../features/clients/area';
import { helpArea } from '../features/help/area';
import { jobsArea } from '../features/jobs/area';
import { listsArea, organisationsArea } from '../features/lists/area';
import { offlineArea } from '../features/offline/area';
import { providersArea } from '../features/providers/area';
import { referralsArea } from '../features/referrals/area';
import { reportsArea } from '../features/reports/area';
import { servicesArea } from '../features/services/area';
import { testingArea } from '../features/testing/area';
import { usersArea } from '../features/users/area';

export const AREAS: readonly Area[] = [
  usersArea,
  organisationsArea,
  listsArea,
  auditArea,
  providersArea,
  servicesArea,
  jobsArea,
  clientsArea,
  referralsArea,
  reportsArea,
  helpArea,
  offlineArea,
  testingArea,
];

/** Every sidebar entry, in the areas' order (the shell groups them). */
export const MENU_ITEMS: readonly MenuItem[] = AREAS.flatMap((area) => area.menu ?? []);

/** The address of a screen of `area` (its base and the screen's relative path). */
export function screenPath(area: Area, path: string | undefined): string {
  return path ? `${area.base}/${path}` : area.base;
}
