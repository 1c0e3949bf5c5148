// The organisation scope in SQL (schemas/scope.ts says who may see what): who reads or writes
// (Access), the condition keeping a table's rows to a scope, and the check that a record points
// only at records its writer may reach.
import type { EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { getEntity } from '../../../schemas/index';
import { ownerColumn, ownerPath, recordScope, type Actor, type RecordScope, type ScopeMode } from '../../../schemas/scope';
import type { Queryable } from '../../db/index';
import { HttpError } from '../errors';
import { Conditions } from './conditions';

/**
 * Who reads or writes a record: the signed-in user and what they do, or `'system'` for the
 * server's own bookkeeping. Every read and write of an entity with an owner (schemas/scope.ts)
 * says which: forgetting it throws, so no route can skip the organisation scope.
 */
export type Access = { readonly actor: Actor; readonly mode: ScopeMode } | 'system';

export const reading = (actor: Actor): Access => ({ actor, mode: 'read' });
export const writing = (actor: Actor): Access => ({ actor, mode: 'write' });

/**
 * The SQL condition keeping the rows of `e` (as `alias`, the table's own name by default) to
 * `scope`: the row's own owner column, a root's owner field or a sub-record's server-kept copy
 * of it (schemas/scope.ts ownerColumn), so that an index on it serves the scope. Undefined when
 * nothing is excluded. A NULL column is a record of no organisation, as 0 (rows older than
 * that rule): only the scope of no organisation takes it in (docs/adr/0016-subrecord-organisation.md "Sub-records
 * carry their organisation").
 */
export function scopeSql(e: EntityShape, scope: RecordScope, where: Conditions, alias = `${ident(e.table)}.`): string | undefined {
  const column = ownerColumn(e);
  if (scope === 'all' || !column) return undefined;
  if (scope === 'none') return 'false';
  const owner = `${alias}${ident(column)}`;
  return scope.organisation === 0 ? `COALESCE(${owner}, 0) = 0` : `${owner} = ${where.param(scope.organisation)}`;
}

/** The scope condition of `access` for `e`, added to `where`. */
export function addScope(e: EntityShape, access: Access | undefined, where: Conditions, alias?: string): Conditions {
  if (!ownerPath(e)) return where;
  if (!access) throw new Error(`${e.name}: read or write without an organisation scope`);
  if (access === 'system') return where;
  const condition = scopeSql(e, recordScope(access.actor, e, access.mode), where, alias);
  return condition ? where.add(condition) : where;
}

/**
 * A record may only point at parents it may write (a referral at its own organisation's
 * client, a service at its own provider) and at other records it may read. One outside the
 * scope is answered like a missing one: 400 'parent missing', nothing stored.
 */
export async function assertRefsInScope(
  db: Queryable,
  e: EntityShape,
  values: Readonly<Record<string, unknown>>,
  access: Access | undefined,
): Promise<void> {
  if (!access || access === 'system') {
    if (ownerPath(e) && !access) throw new Error(`${e.name}: write without an organisation scope`);
    return;
  }
  // Client data by a user without an organisation (ADR-0007): nothing is stored.
  if (recordScope(access.actor, e, access.mode) === 'none') throw new HttpError(403, 'scope.noOrganisation');
  const known = KNOWN_IN_SCOPE.get(db);
  for (const ref of refChecks(e, access)) {
    const value = values[ref.name];
    if (value === undefined || value === null || known?.has(refKey(ref, value))) continue;
    const where = new Conditions();
    const condition = ref.condition(where);
    const found = await db.query(
      `SELECT 1 FROM ${ident(ref.target.table)} WHERE ${ident(ref.target.keyFields[0])} = ${where.param(value)} AND ${condition}`,
      where.params,
    );
    if (!found.length) throw new HttpError(400, 'http.parentMissing');
  }
  await assertNotErased(db, e, values);
}

/**
 * A write naming an erased client is refused, 410 `http.clientErased` (docs/security.md "Erased
 * means gone"): the client's data would otherwise come back after its erasure, and a second
 * erasure finds no client to erase. What names a client: a reference to it (sub-records,
 * photos, referrals), or its own key (a profile created again). Asked after the scope, so that
 * another organisation's client stays unknown (400 'parent missing'), erased or not.
 */
async function assertNotErased(db: Queryable, e: EntityShape, values: Readonly<Record<string, unknown>>): Promise<void> {
  const known = KNOWN_LIVE.get(db);
  for (const { name, target } of erasableRefs(e)) {
    const value = values[name];
    if (value === undefined || value === null || value === '' || known?.has(liveKey(target, value))) continue;
    const found = await db.query(
      `SELECT 1 FROM ${ident(target.table)} WHERE ${ident(target.keyFields[0])} = $1 AND "erasedAt" IS NOT NULL`,
      [value],
    );
    if (found.length) throw new HttpError(410, 'http.clientErased');
  }
}

/** The fields of `e` that name a record that can be erased (a client): its references to one,
 * and its own key when `e` is the client. */
function erasableRefs(e: EntityShape): { name: string; target: EntityShape }[] {
  const refs = Object.entries(e.fields).flatMap(([name, field]) => {
    const target = field.kind === 'id' && field.ref ? getEntity(field.ref) : undefined;
    return target?.fields.erasedAt ? [{ name, target }] : [];
  });
  if (e.fields.erasedAt && e.keyFields.length === 1) refs.push({ name: e.keyFields[0], target: e });
  return refs;
}

const liveKey = (target: EntityShape, value: unknown) => `${target.table}\u0000${String(value)}`;

/** Clients found not erased within one batch's transaction (prefetchRefsInScope). */
const KNOWN_LIVE = new WeakMap<Queryable, Set<string>>();

/** An `id` field of `e` that refers to a record of `target`, and the scope that record must be in
 * (`write` for the parent, `read` for the others); fields whose target has no scope are left out. */
interface RefCheck {
  name: string;
  target: EntityShape;
  mode: ScopeMode;
  condition: (where: Conditions) => string | undefined;
}

function refChecks(e: EntityShape, access: Exclude<Access, 'system'>): RefCheck[] {
  return Object.entries(e.fields).flatMap(([name, field]): RefCheck[] => {
    const target = field.kind === 'id' && field.ref ? getEntity(field.ref) : undefined;
    if (!target) return [];
    const mode: ScopeMode = name === e.parent?.field ? 'write' : 'read';
    const scope = recordScope(access.actor, target, mode);
    if (!scopeSql(target, scope, new Conditions())) return [];
    return [{ name, target, mode, condition: (where) => scopeSql(target, scope, where) }];
  });
}

const refKey = (ref: RefCheck, value: unknown) => `${ref.target.table}\u0000${ref.mode}\u0000${String(value)}`;

/** References found in scope within one transaction of one user (a batch), by the store that
 * transaction's writes go through: assertRefsInScope asks no more about them. */
const KNOWN_IN_SCOPE = new WeakMap<Queryable, Set<string>>();

/**
 * A batch's references checked together (server/plugins/sync/push.ts): for each reference field,
 * one query for every value the records carry, instead of one per record. The ones found in
 * scope are remembered for `db` (the batch's transaction: the same user, and rows of other kinds
 * than the batch's, which its records do not delete or move); each record's own check then asks
 * only about the others, so a missing or out-of-scope reference is refused exactly as before.
 */
export async function prefetchRefsInScope(
  db: Queryable,
  e: EntityShape,
  valuesList: readonly Readonly<Record<string, unknown>>[],
  access: Access,
): Promise<void> {
  if (access === 'system') return;
  await prefetchLive(db, e, valuesList);
  const known = KNOWN_IN_SCOPE.get(db) ?? new Set<string>();
  KNOWN_IN_SCOPE.set(db, known);
  for (const ref of refChecks(e, access)) {
    const wanted = [...new Set(valuesList.map((values) => values[ref.name]).filter((v) => typeof v === 'string' && v !== ''))] as string[];
    if (!wanted.length) continue;
    const where = new Conditions();
    const list = where.param(wanted);
    const key = ident(ref.target.keyFields[0]);
    const condition = ref.condition(where);
    const rows = await db.query<{ key: string }>(
      `SELECT ${key} AS key FROM ${ident(ref.target.table)} WHERE ${key} = ANY(${list}::text[]) AND ${condition}`,
      where.params,
    );
    for (const row of rows) known.add(refKey(ref, row.key));
  }
}

/** The clients a batch's records name, found not erased (assertNotErased asks only about the others). */
async function prefetchLive(db: Queryable, e: EntityShape, valuesList: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const live = KNOWN_LIVE.get(db) ?? new Set<string>();
  KNOWN_LIVE.set(db, live);
  for (const { name, target } of erasableRefs(e)) {
    const wanted = [...new Set(valuesList.map((values) => values[name]).filter((v) => typeof v === 'string' && v !== ''))] as string[];
    if (!wanted.length) continue;
    const key = ident(target.keyFields[0]);
    // The erased ones among them; every other (a new client of the batch, a missing one that the
    // scope check or the foreign key refuses) names no erased client.
    const erased = await db.query<{ key: string }>(
      `SELECT ${key} AS key FROM ${ident(target.table)} WHERE ${key} = ANY($1::text[]) AND "erasedAt" IS NOT NULL`,
      [wanted],
    );
    const gone = new Set(erased.map((row) => row.key));
    for (const value of wanted) if (!gone.has(value)) live.add(liveKey(target, value));
  }
}
