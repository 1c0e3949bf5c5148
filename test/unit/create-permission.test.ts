// @vitest-environment jsdom
// One rule for adding a service provider (ADR-0005): for every role, the sidebar's add entry,
// the add screen's route guard and the API's create permission (createPermission, which
// POST /sproviers/ checks: test/api/record-rules.test.ts) give the same answer.
import { describe, expect, it } from 'vitest';
import { createPermission } from '../../schemas/define';
import { serviceProvider } from '../../schemas/index';
import { ROLES, can } from '../../schemas/roles';
import { MENU_ITEMS } from '../../src/app/areas';
import { providersArea } from '../../src/features/providers/area';
import { menuFor } from '../../src/features/shell/menu';

const ADD_PATH = '/serviceproviders/add';

describe('adding a service provider', () => {
  it.each(ROLES.map((role) => [role] as const))('role %i: menu, screen and API agree', (role) => {
    const user = { userId: 'u', userName: 'u', role, location: 1, fullName: null };
    const inMenu = menuFor(MENU_ITEMS, user, 'en').some((group) => group.items.some((item) => item.to === ADD_PATH));
    const route = providersArea.screens.find((r) => r.path === 'add');
    if (!route?.permission) throw new Error('no guarded add route');
    const api = can(role, createPermission(serviceProvider));
    expect(inMenu).toBe(api);
    expect(can(role, route.permission)).toBe(api);
  });
});
