// No link leads to the 403 page: for every role, each dashboard tile link and each sidebar entry
// points to a route the role may open (the route keys of schemas/roles.ts). The browser test
// test/browser/first-use.test.ts follows the same links in the built app.
import { describe, expect, it } from 'vitest';
import { can, canOpen, PERMISSIONS, ROLES, routePermission } from '../../schemas/roles';
import { tilesFor } from '../../src/features/home/tiles';
import { MENU_ITEMS } from '../../src/app/areas';
import { menuFor } from '../../src/features/shell/menu';
import type { SessionUser } from '../../src/lib/session/session';

const user = (role: number, location = 1): SessionUser => ({ userId: `u${role}`, userName: `user${role}`, role, location, fullName: null });

/** Every link a role is shown: tile 'More info' targets and sidebar entries. */
function linksOf(role: number): string[] {
  const tiles = tilesFor(role).flatMap((tile) => (tile.to ? [tile.to] : []));
  const menu = (['en', 'fr'] as const).flatMap((lang) =>
    menuFor(MENU_ITEMS, user(role), lang).flatMap((group) => group.items.map((item) => item.to)),
  );
  return [...tiles, ...menu];
}

describe('links by role', () => {
  for (const role of ROLES) {
    it(`role ${role}: every tile and menu link opens a route the role may open`, () => {
      const links = linksOf(role);
      expect(links.length).toBeGreaterThan(0);
      const refused = links.filter((to) => {
        const permission = routePermission(to.split('/')[1] ?? '');
        return permission !== undefined && !can(role, permission);
      });
      expect(refused).toEqual([]);
    });
  }

  it('shows role 7 the Clients and Referrals counts without a link to routes it may not open', () => {
    const tiles = tilesFor(7);
    expect(tiles.find((tile) => tile.id === 'clients')).toMatchObject({ to: null });
    expect(tiles.find((tile) => tile.id === 'referrals')).toMatchObject({ to: null });
    expect(tiles.find((tile) => tile.id === 'services')).toMatchObject({ to: '/serviceproviders' });
  });

  it('keeps the links of the roles that may open them', () => {
    expect(tilesFor(3).map((tile) => tile.to)).toEqual(['/serviceproviders', '/availablejobs', '/profiles', '/referral']);
    expect(tilesFor(2).map((tile) => tile.to)).toEqual([null, null, null, null]);
  });

  it('reads a path by its first segment', () => {
    expect(canOpen(7, '/profiles/add?from=home')).toBe(false);
    expect(canOpen(3, '/profiles/add?from=home')).toBe(true);
    expect(canOpen(2, '/help/en')).toBe(true);
    expect(canOpen(null, '/help/en')).toBe(false);
    // Every route key of the matrix is a path's first segment.
    for (const key of Object.keys(PERMISSIONS).filter((k) => k.startsWith('route.') && k !== 'route.home')) {
      expect(routePermission(key.slice('route.'.length))).toBe(key);
    }
  });
});
