// Sidebar menus of product.md §2 "Shell", in order, with the role keys of schemas/roles.ts
// (product.md §6). The entries are the areas' (src/components/area.ts, src/app/areas.ts); the
// groups, their headers and keys are the shell's.
import type SvgIcon from '@mui/material/SvgIcon';
import { MENU_GROUPS, type BadgeKind, type MenuGroupId, type MenuItem } from '../../components/area';
import { can, canOpen, type Lang, type Permission, type SessionUser } from '../../lib/session';

export type { BadgeKind };

export interface MenuEntry {
  id: string;
  labelId: string;
  to: string;
  icon: typeof SvgIcon;
  badge?: BadgeKind;
}

export interface MenuGroup {
  id: string;
  /** Header shown when the sidebar is expanded; single-item groups have none. */
  labelId?: string;
  items: MenuEntry[];
}

/** Each group's header and the key that shows it at all; absent: shown by its entries alone. */
const GROUPS: Readonly<Record<MenuGroupId, { labelId?: string; permission?: Permission }>> = {
  admin: { labelId: 'menu.administration', permission: 'menu.administration' },
  account: {},
  sp: { labelId: 'menu.serviceProviders', permission: 'menu.serviceProviders' },
  employers: { labelId: 'menu.employers', permission: 'menu.employers' },
  clients: { labelId: 'menu.clients', permission: 'menu.clients' },
  more: {},
};

function visibleEntries(items: readonly MenuItem[], user: SessionUser, lang: Lang): MenuEntry[] {
  return (
    items
      .map((item) => ({ ...item, to: typeof item.to === 'string' ? item.to : item.to(lang) }))
      // The entry's own key, and the route of its target: no menu leads to the 403 page.
      .filter((item) => can(user.role, item.permission) && canOpen(user.role, item.to) && (item.when?.(user) ?? true))
      .map(({ id, labelId, to, icon, badge }) => ({ id, labelId, to, icon, badge }))
  );
}

/** The menu of `items` (the areas' entries) this user may see; empty groups disappear
 * (product.md §6: unknown keys are hidden). */
export function menuFor(items: readonly MenuItem[], user: SessionUser, lang: Lang): MenuGroup[] {
  return MENU_GROUPS.filter((id) => {
    const permission = GROUPS[id].permission;
    return !permission || can(user.role, permission);
  })
    .map((id) => ({
      id,
      labelId: GROUPS[id].labelId,
      items: visibleEntries(
        items.filter((item) => item.group === id),
        user,
        lang,
      ),
    }))
    .filter((group) => group.items.length > 0);
}

/** Which badge counts this user sees; the pending badge has its own key (menu.pendingBadge). */
export function visibleBadges(user: SessionUser): Record<BadgeKind, boolean> {
  return {
    pending: can(user.role, 'menu.verify') && can(user.role, 'menu.pendingBadge'),
    rejected: can(user.role, 'menu.rejected'),
  };
}
