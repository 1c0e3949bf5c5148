// The area manifests (src/components/area.ts) the router, the list prefetch and the sidebar are
// built from (src/app/areas.ts): every entity with a list screen has an area that declares it,
// each area sits behind the role key of its first segment, and every menu entry leads to a
// screen of an area.
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { entities } from '../../schemas/index';
import { routePermission } from '../../schemas/roles';
import { AREAS, MENU_ITEMS, screenPath } from '../../src/app/areas';

const screens = AREAS.flatMap((area) => area.screens.map((screen) => ({ area, screen, address: screenPath(area, screen.path) })));

describe('area manifests', () => {
  // An entity's list screen is the one whose orders its declaration lists (`list.sorts`,
  // schemas/define.ts): the server keeps an index for each.
  const listed = entities.filter((entity) => entity.list?.sorts);

  it.each(listed.map((entity) => [entity.name, entity] as const))('%s: its list screen belongs to an area', (_name, entity) => {
    const found = screens.filter(({ screen }) => screen.list?.entity === entity);
    expect(found.map(({ address }) => address)).toHaveLength(1);
    // The grid's columns are orders the server serves from an index.
    const sorts: readonly string[] = entity.list?.sorts ?? [];
    expect(found[0]?.screen.list?.columns.filter((column) => !sorts.includes(column))).toEqual([]);
  });

  it('finds entities with a list screen (the check above cannot pass empty)', () => {
    expect(listed.map((entity) => entity.name)).toEqual(expect.arrayContaining(['job', 'profile', 'service', 'serviceProvider']));
  });

  it('puts each area behind the role key of its first segment, or none for a public one', () => {
    for (const area of AREAS) {
      const segment = area.base.split('/')[1] ?? '';
      expect(area.base, area.id).toMatch(/^\/[a-z]+(\/[a-z]+)*$/);
      expect(area.guard ?? undefined, area.id).toBe(routePermission(segment));
    }
    expect(new Set(AREAS.map((area) => area.id)).size).toBe(AREAS.length);
  });

  it('gives every screen its own address', () => {
    const addresses = screens.map(({ address }) => address);
    expect(addresses.filter((address, i) => addresses.indexOf(address) !== i)).toEqual([]);
  });

  it('leads every menu entry to a screen of an area', () => {
    const ids = MENU_ITEMS.map((item) => item.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const item of MENU_ITEMS) {
      const to = typeof item.to === 'string' ? item.to : item.to('en');
      const pathname = to.split('?')[0] ?? '';
      expect(
        screens.some(({ address }) => matchPath(address, pathname)),
        `${item.id}: ${to}`,
      ).toBe(true);
    }
  });
});
