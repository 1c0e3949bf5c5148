// Server-only entities: staff users and lookup lists (product.md §D3). Not RxDB collections:
// the open-core limit is the 13 collections of product.md §3; the client caches the signed-in user
// and the lists under the `user` and `lists` storage keys instead.

import { defineEntity, f, MAX_INT } from '../define.ts';
import { ROLES } from '../roles.ts';
import { email, phone } from './common.ts';

export const user = defineEntity({
  name: 'user',
  table: 'users',
  key: 'userId',
  rest: '/users',
  access: { read: 'users.manage', write: 'users.manage' },
  owner: null, // users: scoped by server/plugins/users/scope.ts (role 7 manages its organisation's staff)
  list: {
    filters: ['role', 'location', 'active'],
    search: ['userName', 'fullName', 'email'],
    defaultSort: { field: 'userName', dir: 'asc' },
  },
  fields: {
    userId: f.id({ required: true }),
    userName: f.string({ required: true, unique: true, minLength: 3, maxLength: 50, pattern: '^[A-Za-z0-9._@-]+$', example: 'jdoe' }),
    /** The clear password of a create body (product.md §7); never stored nor returned. */
    password: f.string({ required: true, writeOnly: true, minLength: 8, maxLength: 128 }),
    /** Its argon2id hash, the column the server checks sign-ins against. */
    passwordHash: f.string({ required: true, hidden: true, maxLength: 500 }),
    role: f.enum({ required: true, values: ROLES }),
    /** Organisation (lookup item id); 0 = none, as for the super admin (product.md §5). */
    location: f.lookup({ required: true, list: 'organisation', allowNone: true, default: 0 }),
    fullName: f.string({ required: true, minLength: 2, maxLength: 120 }),
    email: email(),
    phone: phone(),
    active: f.boolean({ required: true, default: true }),
    /** The territories (items of the `territory` list) whose clients the user's device mirrors
     * besides those assigned to them (docs/product.md §6.5.1); none: only those. */
    territories: f.json<number[]>()({
      itemsOf: 'territory',
      schema: { type: 'array', maxItems: 50, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: MAX_INT } },
    }),
    /** A temporary password given by an administrator (ADR-0003): the app sends the user to
     * Change Password until they choose their own; cleared by that change. An admin reset sets
     * it unless the body says otherwise (server/plugins/users/update.ts). */
    mustChangePassword: f.boolean({ required: true, default: false }),
    /** The last successful sign-in, for the user list (set by POST /login). */
    lastSignInAt: f.dateTime({ readOnly: true }),
    /** Raised by a password change or reset and by a deactivation: every session token carries
     * the version it was signed with, and an older one is refused (server/lib/tokens.ts). */
    tokenVersion: f.integer({ required: true, hidden: true, minimum: 0, maximum: MAX_INT, default: 0 }),
    /** 32 random bytes (base64url) the user's devices unwrap their local data key with after a
     * reload while online (ADR-0020): given only by GET /api/session/device, made at its first
     * call, never changed by a password change or reset (server/plugins/session.ts). */
    deviceSecret: f.string({ hidden: true, maxLength: 100 }),
  },
});

/** One item of a lookup list. `abbr` is the organisation abbreviation that prefixes
 * registration numbers (product.md §5); `parent` links an item to one of another list (a service
 * type to its main category) for the "by category main" statistics. */
export interface LookupItem {
  id: number;
  fr: string;
  en: string;
  active: boolean;
  abbr?: string;
  parent?: number;
  /** Territories: their centre, for the map and the demo data. */
  lat?: number;
  lng?: number;
}

const itemsSchema = {
  type: 'array',
  maxItems: 5000,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'fr', 'en', 'active'],
    properties: {
      id: { type: 'integer', minimum: 1, maximum: MAX_INT },
      fr: { type: 'string', minLength: 1, maxLength: 200 },
      en: { type: 'string', minLength: 1, maxLength: 200 },
      active: { type: 'boolean' },
      abbr: { type: 'string', pattern: '^[A-Z0-9]{1,12}$', maxLength: 12 },
      parent: { type: 'integer', minimum: 1, maximum: MAX_INT },
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lng: { type: 'number', minimum: -180, maximum: 180 },
    },
  },
} as const;

export const list = defineEntity({
  name: 'list',
  table: 'lists',
  key: 'id',
  rest: '/lists',
  access: { read: 'lists.read', write: 'lists.write' },
  owner: null, // lookup lists are shared by every organisation
  list: { filters: [], search: ['key'], defaultSort: { field: 'key', dir: 'asc' } },
  fields: {
    id: f.id({ required: true }),
    /** territory, category, serviceType, … (define.ts LOOKUP_KEYS). */
    key: f.string({ required: true, unique: true, minLength: 2, maxLength: 40, pattern: '^[a-z][A-Za-z0-9]*$', example: 'territory' }),
    items: f.json<LookupItem[]>()({ required: true, schema: itemsSchema }),
  },
});
