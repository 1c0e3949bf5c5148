// The one role matrix of the product, used by the client (routes, menus, tiles) and by the
// server (every endpoint). Source: product.md §2 route table and §6; where the spec gives two
// readings, product.md §D4 chooses (user management for roles 1 and 7, lists for role 1).

export const ROLES = [1, 2, 3, 4, 5, 6, 7] as const;
export type Role = (typeof ROLES)[number];

const ALL: readonly Role[] = ROLES;
const except = (...excluded: Role[]): readonly Role[] => ROLES.filter((r) => !excluded.includes(r));

/** Who records service providers: the roles that edit them, field workers included, because
 * providers are found in the field, offline (docs/adr/0005-role-matrix.md "Who adds service providers"). The add menu, the
 * add screen, the data layer and POST /sproviers/ all follow this one list. */
const PROVIDER_EDITORS: readonly Role[] = [1, 3, 4, 5, 6, 7];

/** Who may do what. A key missing here is denied to everyone ("unknown keys are hidden"). */
export const PERMISSIONS = {
  // Routes (product.md §2 route table).
  'route.home': ALL,
  'route.offlinehp': ALL,
  'route.users': ALL,
  'route.lists': ALL,
  // The organisations' own screen (their list, edited apart from List Management).
  'route.organisations': [1],
  'route.serviceproviders': [1, 3, 4, 5, 6, 7],
  'route.availablejobs': [1, 3, 4, 5, 6, 7],
  'route.profiles': [1, 3, 4, 5],
  'route.referral': [1, 3, 4, 5],
  'route.reports': [1, 2],
  'route.testing': ALL,
  'route.audit': [1, 7],

  // Sidebar menus (product.md §6).
  'menu.administration': [1, 7],
  'menu.userManagement': [1, 7],
  'menu.listManagement': [1],
  'menu.organisations': [1],
  'menu.changePassword': ALL,
  'menu.serviceProviders': except(2),
  'menu.services': except(2),
  'menu.verify': except(2, 6),
  'menu.pendingBadge': [1, 7],
  'menu.rejected': [1, 6, 7],
  'menu.addServiceProvider': PROVIDER_EDITORS,
  'menu.employers': except(2),
  'menu.clients': except(2, 6, 7),
  'menu.referrals': except(2, 6, 7),
  // The offline home's client figures (product.md §6 "offline clients").
  'offline.clients': except(2, 6, 7),
  'menu.reports': [1, 2],
  'menu.help': ALL,
  'menu.audit': [1, 7],

  // Dashboard tiles (product.md §6). Their 'More info' links follow the route of their target
  // (canOpen below): product.md §6 also lists the Clients and Referrals links for role 7, whose
  // routes it refuses, and a link must never lead to the 403 page.
  'tile.clients': except(6),
  'tile.referrals': except(6),

  // Server actions (product.md §D4): what a screen hides, the API refuses.
  'users.manage': [1, 7],
  'users.createAny': [1],
  'lists.read': ALL,
  'lists.write': [1],
  'stats.read': ALL,
  // Programme-wide figures: counts, charts and reports of every organisation, whatever the
  // user's own organisation (schemas/scope.ts figuresScope; docs/adr/0041-programme-wide-readers.md "Programme-wide
  // readers"). Figures only: role 2 reads no client record (profiles.read, referrals.read).
  'stats.programme': [1, 2],
  'serviceProviders.read': [1, 3, 4, 5, 6, 7],
  'serviceProviders.write': PROVIDER_EDITORS,
  'serviceProviders.create': PROVIDER_EDITORS,
  'services.verify': except(2, 6),
  'jobs.read': [1, 3, 4, 5, 6, 7],
  'jobs.write': [1, 3, 4, 5, 6, 7],
  'profiles.read': [1, 3, 4, 5],
  'profiles.write': [1, 3, 4, 5],
  // Who assigns clients to workers (docs/product.md §6.5.1): the roles managing clients,
  // and role 7 for its organisation (the scope, schemas/scope.ts recordScope 'write').
  'profiles.assign': [1, 4, 5, 7],
  // Who lists the workers a client may be assigned to (GET /api/caseload/workers): those who
  // read clients (the client list's filter) and those who assign them (profiles.read and
  // profiles.assign), role 7 moving a leaving worker's caseload from the user page
  // (docs/adr/0017-caseload.md "Role 7 moves a worker's caseload").
  'caseload.workers': [1, 3, 4, 5, 7],
  'referrals.read': [1, 3, 4, 5],
  'referrals.write': [1, 3, 4, 5],
  'reports.read': [1, 2],
  // ADR-0036: the audit log (role 7: its own organisation's entries), and a client's data
  // handed over (export) or erased, for role 1 and, in its own organisation, role 7.
  'audit.read': [1, 7],
  'clients.handover': [1, 7],
  // ADR-0038: the server's metrics (GET /api/metrics), else only to the scrape token.
  'metrics.read': [1],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** The roles a role 7 may create and manage in its own organisation: its field staff. Not 1
 * or 7 (an organisation admin must not make or edit its peers or the super admins), and not
 * 2: reports span every organisation, so granting them is a programme decision (role 1). */
export const STAFF_ROLES: readonly Role[] = [3, 4, 5, 6];

/** What a role may do, in the words the user form and the help use (`roleAbility.<key>`): the
 * permissions of the matrix that name a capability, in this order. A role's description is
 * read from the matrix, never written apart from it. */
export const ROLE_ABILITIES = [
  'stats.programme',
  'reports.read',
  'profiles.write',
  'referrals.write',
  'serviceProviders.write',
  'jobs.write',
  'services.verify',
  'users.manage',
  'lists.write',
  'audit.read',
] as const satisfies readonly Permission[];

/** The abilities `role` holds (ROLE_ABILITIES), for the screens that describe a role. */
export function abilitiesOf(role: number | null | undefined): Permission[] {
  return ROLE_ABILITIES.filter((permission) => can(role, permission));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'number' && (ROLES as readonly number[]).includes(value);
}

/** True when `role` holds `permission`. Unknown permissions and roles are denied. */
export function can(role: number | null | undefined, permission: string): boolean {
  if (!isRole(role)) return false;
  const allowed = (PERMISSIONS as Record<string, readonly Role[] | undefined>)[permission];
  return allowed ? allowed.includes(role) : false;
}

/** The route permission guarding a top-level client path segment, if any. */
export function routePermission(segment: string): Permission | undefined {
  const key = `route.${segment || 'home'}`;
  return key in PERMISSIONS ? (key as Permission) : undefined;
}

/** True when `role` may open the client path `path` ('/profiles/add?x=1'): the route permission
 * of its first segment, when it has one. Links (dashboard tiles, menus) are shown only then, so
 * none leads to the 403 page. Screens under a route add their own key (menu.verify…), which the
 * menu entry leading there names too. */
export function canOpen(role: number | null | undefined, path: string): boolean {
  const segment = path.split(/[?#]/)[0]?.split('/').find(Boolean) ?? '';
  const permission = routePermission(segment);
  return permission ? can(role, permission) : isRole(role);
}
