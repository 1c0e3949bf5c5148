// The organisation scope (ADR-0007), the one rule beside the role matrix (./roles.ts): the
// matrix says which roles may read or write an entity; the scope says which of its records.
// Pure data and functions, used by the server (every route, list, count, statistic, image
// and the sync feed) and by the client.
//
// - Client data (profiles, their sub-records and images, referrals, job referrals) belongs to
//   the organisation of the user who created it: a user with an organisation reads and
//   writes only its own.
// - Providers, services, jobs and their children are read by every role the matrix allows,
//   and changed, deleted or verified only by their own organisation.
// - Role 1 reads and writes everything. Roles 3-7 need an organisation (ADR-0007: the user
//   routes refuse one without, ORGANISATION_ROLES). A user without an organisation (location
//   0: role 2, or an account older than that rule) reads and writes no client data at all,
//   reads the shared records its role allows, and changes only those of no organisation.
//   Failing closed: a missing organisation never widens what a user sees.
// A record outside the scope does not exist for the user: 404, as if it were not there.
//
// Whose a record is comes from its entity's `owner` declaration (schemas/define.ts), never
// from a list of routes: a root names its owner field, a child is owned through its parent.
import type { EntityShape } from './define.ts';
import { getEntity, serverEntities } from './index.ts';
import { can } from './roles.ts';

/** The user a rule is about: the signed-in user of a request, or a session on the device. */
export interface Actor {
  role: number;
  /** Organisation (lookup item id of the `organisation` list); 0 = none. */
  location: number;
}

export const NO_ORGANISATION = 0;

/** The roles whose users must belong to an organisation (ADR-0007): they work on one
 * organisation's clients and records. Role 1 sees everything; role 2 (reports) no client data. */
export const ORGANISATION_ROLES: readonly number[] = [3, 4, 5, 6, 7];

/** True when a user of `role` at `location` lacks the organisation its role needs. */
export const lacksOrganisation = (user: Actor): boolean => ORGANISATION_ROLES.includes(user.role) && user.location === NO_ORGANISATION;

export type ScopeMode = 'read' | 'write';

/** The owner of a root entity: its owner field and who reads it. */
export interface OwnerRoot {
  readonly entity: EntityShape;
  readonly field: string;
  readonly reads: 'own' | 'all';
}

/** One step from a child to its parent: the child's field holding the parent's key. */
export interface OwnerStep {
  readonly entity: EntityShape;
  readonly parentField: string;
  readonly parent: EntityShape;
}

/** How a record of `entity` finds its owner: the steps up to the root, and the root. Undefined
 * for entities that are not organisation data (owner: null). */
export interface OwnerPath {
  readonly steps: readonly OwnerStep[];
  readonly root: OwnerRoot;
}

const MAX_DEPTH = 5;

export function ownerPath(entity: EntityShape): OwnerPath | undefined {
  const steps: OwnerStep[] = [];
  let current = entity;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const owner = current.owner;
    if (!owner) return undefined;
    if ('field' in owner) return { steps, root: { entity: current, field: owner.field, reads: owner.reads } };
    const parent = current.parent && getEntity(current.parent.entity);
    if (!current.parent || !parent) throw new Error(`${current.name}: owner via a parent it does not have`);
    steps.push({ entity: current, parentField: current.parent.field, parent });
    current = parent;
  }
  throw new Error(`${entity.name}: owner path deeper than ${MAX_DEPTH}`);
}

/**
 * The column of a sub-record (an entity owned through its parent) holding its organisation: a
 * copy of its root's owner that the server keeps (server/lib/records/organisation.ts), so that
 * the scope, the pull feed and its first page read it from the row's own index instead of
 * through its parents (docs/adr/0016-subrecord-organisation.md "Sub-records carry their organisation"). Not a
 * declared field: never shown, exported, audited or taken from a client.
 */
export const ORGANISATION_COLUMN = 'organisation';

/** True for a sub-record: owned through a parent, so it carries ORGANISATION_COLUMN. */
export const carriesOrganisation = (entity: EntityShape): boolean => (ownerPath(entity)?.steps.length ?? 0) > 0;

/** The column of `entity`'s own rows that names their organisation: a root's owner field, a
 * sub-record's ORGANISATION_COLUMN; undefined for entities that are not organisation data. */
export function ownerColumn(entity: EntityShape): string | undefined {
  const path = ownerPath(entity);
  if (!path) return undefined;
  return path.steps.length ? ORGANISATION_COLUMN : path.root.field;
}

/** True when the entity's records belong to an organisation. */
export const isOwned = (entity: EntityShape): boolean => ownerPath(entity) !== undefined;

/** True when the entity is client data: only its organisation reads it. */
export const isPrivate = (entity: EntityShape): boolean => ownerPath(entity)?.root.reads === 'own';

/**
 * Which records of `entity` the actor may read or write, beyond what the role matrix allows:
 * `'all'`, `'none'`, or `{ organisation }`: only those whose owner is that organisation
 * (0 = records of no organisation).
 */
export type RecordScope = 'all' | 'none' | { readonly organisation: number };

export function recordScope(actor: Actor, entity: EntityShape, mode: ScopeMode): RecordScope {
  const path = ownerPath(entity);
  if (!path || actor.role === 1) return 'all';
  // Client data without an organisation: nothing (it used to be everything; ADR-0007).
  if (path.root.reads === 'own' && actor.location === NO_ORGANISATION) return 'none';
  if (mode === 'read' && path.root.reads === 'all') return 'all';
  return { organisation: actor.location };
}

/**
 * Which records of `entity` the actor's figures count (dashboard tiles, charts, reports): every
 * organisation's for a programme-wide reader (`stats.programme`: roles 1 and 2), else the
 * records the actor may read. A count is not a record: it never lets anyone read one
 * (docs/adr/0041-programme-wide-readers.md "Programme-wide readers").
 */
export function figuresScope(actor: Actor, entity: EntityShape): RecordScope {
  return can(actor.role, 'stats.programme') ? 'all' : recordScope(actor, entity, 'read');
}

/** True when `scope` takes in a record owned by `owner` (null: no organisation). */
export function inScope(scope: RecordScope, owner: number | null | undefined): boolean {
  if (scope === 'all' || scope === 'none') return scope === 'all';
  return scope.organisation === ownerOf(owner);
}

/**
 * What a device mirrors through the sync feed: its own organisation's records (a user without
 * one: the records of no organisation), everything for role 1 without an organisation. Always
 * within `recordScope(actor, entity, 'read')`, and a device holds only what it may change.
 */
export function mirrorScope(actor: Actor, entity: EntityShape): RecordScope {
  if (!ownerPath(entity) || (actor.role === 1 && actor.location === NO_ORGANISATION)) return 'all';
  if (recordScope(actor, entity, 'read') === 'none') return 'none';
  return { organisation: actor.location };
}

/** True when the device of `actor` mirrors a caseload instead of its organisation's window: the
 * field workers (role 3) of an organisation (docs/adr/0017-caseload.md "The caseload"). */
export const hasCaseload = (actor: Actor): boolean => actor.role === 3 && actor.location !== NO_ORGANISATION;

/**
 * True when `actor`'s device holds of `entity` only the members the server gave it (the
 * caseload's clients and their records, the directory of the worker's territories), not every
 * row it reads: a row read online is then written on the device only when the device holds it
 * already, since the server tells a device of the departures of its members only
 * (docs/offline-contract.md "The caseload"). Server tables with an owner, on a caseload device.
 */
export function mirrorsByMembers(actor: Actor, entity: EntityShape): boolean {
  return hasCaseload(actor) && entity.offline === true && entity.server !== false && ownerPath(entity) !== undefined;
}

/** The owner of a record as stored: null/absent means no organisation. */
export const ownerOf = (location: number | null | undefined): number => location ?? NO_ORGANISATION;

/** True when the actor may read (or write) a record of `entity` owned by `owner`, the role
 * matrix included: what a screen shows, the API allows. */
export function mayAccess(actor: Actor, entity: EntityShape, mode: ScopeMode, owner: number | null | undefined): boolean {
  if (!can(actor.role, mode === 'read' ? entity.access.read : entity.access.write)) return false;
  return inScope(recordScope(actor, entity, mode), owner);
}

/** The audit log's table name, as its change events name it. */
export const AUDIT_LOG = 'audit_log';

/**
 * Whose audit entries a user reads (ADR-0036): role 1 every entry, role 7 those of its own
 * organisation (the record's owner, or the acting user's organisation), no one else. Also the
 * scope of a client's hand-over (export, erasure). Failing closed: role 7 without an
 * organisation reads nothing.
 */
export function auditScope(actor: Actor): RecordScope {
  if (!can(actor.role, 'audit.read')) return 'none';
  if (actor.role === 1) return 'all';
  return actor.location === NO_ORGANISATION ? 'none' : { organisation: actor.location };
}

/** The tables whose change events a user may hear of: those it may read at all, and the audit
 * log for its readers. The events name only the table; the records come through the scoped
 * pull feed. */
export function readableTables(actor: Actor): Set<string> {
  const tables = serverEntities
    .filter((e) => can(actor.role, e.access.read) && recordScope(actor, e, 'read') !== 'none')
    .map((e) => e.table);
  if (auditScope(actor) !== 'none') tables.push(AUDIT_LOG);
  return new Set(tables);
}
