// The area manifests (src/components/area.ts) the router, the list prefetch and the sidebar are
// built from (src/app/areas.ts finds them, ADR-0050): every entity with a list screen has an area
// that declares it, each area sits behind the role key of its first segment, every menu entry
// leads to a screen of an area, and the areas' orders are unique.
import { isValidElement } from 'react';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { entities, job } from '../../schemas/index';
import { routePermission } from '../../schemas/roles';
import { AREAS, MENU_ITEMS, screenPath } from '../../src/app/areas';
import { defineArea } from '../../src/components/area';
import { EntityListPage } from '../../src/components/entity/EntityListPage';

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

  it('finds the manifests of the features, each area once, sorted by their unique order', () => {
    const orders = AREAS.map((area) => area.order);
    expect(orders.filter((order, i) => orders.indexOf(order) !== i)).toEqual([]);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    // lists/area.tsx holds two areas.
    expect(AREAS.map((area) => area.id)).toEqual(expect.arrayContaining(['users', 'lists', 'organisations', 'jobs', 'clients', 'help']));
  });

  it('lists the menu entries in the order of the areas, then of their menus (the sidebar groups them)', () => {
    // These areas' entries in their order (product.md §2 "Shell"); an area added later may stand
    // anywhere among them.
    const entries = [
      'users',
      'chngpas',
      'organisations',
      'lists',
      'audit',
      'spList',
      'services',
      'verify',
      'rejected',
      'addSp',
      'jobs',
      'addJob',
      'clientList',
      'addClient',
      'referrals',
      'reports',
      'help',
    ];
    expect(MENU_ITEMS.map((item) => item.id).filter((id) => entries.includes(id))).toEqual(entries);
  });

  it('draws a screen that names only its list with the shared list screen, titled after its area', async () => {
    const area = defineArea({
      id: 'probe',
      order: 0,
      base: '/probe',
      guard: null,
      screens: [
        { list: { entity: job, columns: ['title'] } },
        { path: 'other', list: { entity: job, columns: ['title'] }, titleId: 'x.y' },
      ],
    });
    expect(area.screens).toEqual([
      { path: undefined, permission: undefined, list: { entity: job, columns: ['title'] } },
      { path: 'other', permission: undefined, list: { entity: job, columns: ['title'] } },
    ]);
    const [first, second] = await area.load();
    for (const [element, titleId] of [
      [first, 'screens.probe'],
      [second, 'x.y'],
    ] as const) {
      expect(isValidElement(element) && element.type).toBe(EntityListPage);
      expect(isValidElement(element) && element.props).toEqual({ list: { entity: job, columns: ['title'] }, titleId });
    }
  });
});
