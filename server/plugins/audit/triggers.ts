// The audit log's tables and triggers (ADR-0036). Every write of an entity table leaves its
// entry from a row trigger, so in the same transaction as the change, whatever route made it: a
// rolled-back write (a refused record of a batch, a failed request) leaves none, and no route
// can forget one. Who made the change comes from the transaction's `icrs.actor` setting
// (./context.ts), else from the row's `updatedBy`, else it is the server itself.
//
// The log is append-only: triggers refuse UPDATE, DELETE and TRUNCATE of it. A client's values
// (what a field held before and after, a reason, a file name) are kept apart, in
// `audit_values`, which refuses UPDATE and TRUNCATE and lets a row go only in that client's
// erasure (./handover.ts), which the log itself records (docs/security.md "Audit log").
//
// Rows go only through two functions of the tables' owner (SECURITY DEFINER): the retention
// purge (icrs_audit_purge) and the scrub of a client's values when its profile row is marked
// erased (icrs_audit_scrub, a trigger of that row). They unlock the guards with a marker no
// session setting can make: a temporary table of the owner's, made and dropped within the call,
// checked with current_user. On PostgreSQL with two roles (server/db/roles.ts) the app's role
// owns nothing, so it can neither make that marker nor drop or disable a trigger.
import { generatedKey, type EntityShape } from '../../../schemas/define';
import { ident } from '../../../schemas/derive/sql';
import { profile } from '../../../schemas/index';
import { AUDIT_LOG, carriesOrganisation, isPrivate, ORGANISATION_COLUMN, ownerPath } from '../../../schemas/scope';
import { CHANGE_CHANNEL, ownerExpression } from '../sync/changes';
import { actionSql, noteSql } from './actions';

export const AUDIT_TABLE = AUDIT_LOG;
export const AUDIT_VALUES_TABLE = 'audit_values';

/** Columns every row has that say when and by whom, not what: they are the entry itself. */
const BOOKKEEPING = ['createdAt', 'updatedAt', 'createdBy', 'updatedBy'];
/** Server-kept session state: a change of these alone is the trace of another entry (a sign-out,
 * a password change, a first device unlock), not a change of its own. */
const QUIET = ['tokenVersion', 'deviceSecret'];
/** Columns the server keeps for itself on some tables (a sub-record's copy of its client's
 * organisation, server/lib/records/organisation.ts): never a field of the record, so never in
 * an entry; a change of it alone (its client moved, whose own entry says so) leaves none. */
const serverKept = (entity: EntityShape): string[] => (carriesOrganisation(entity) ? [ORGANISATION_COLUMN] : []);

/** Where the owner's connection writes the retention at start (server/db/roles.ts): the app's
 * role may read it only, so it cannot lower the retention the purge applies. */
export const AUDIT_SETTINGS_TABLE = 'audit_settings';
/** The marker of the audit functions (a temporary table, for the span of one call). */
const UNLOCK = 'pg_temp.icrs_audit_unlock';
/** The functions run with this search path: no object of the caller's can stand in for ours. */
const DEFINER = 'SECURITY DEFINER SET search_path = public, pg_temp';
const unlockSql = (what: string) => `CREATE TEMP TABLE icrs_audit_unlock ("what" text NOT NULL) ON COMMIT DROP;
  INSERT INTO ${UNLOCK} ("what") VALUES (${what});`;

/** The guards of the audit tables (docs/security.md "Audit log"). */
export const AUDIT_GUARDS_SQL = [
  // Whether one of the audit functions is running and unlocked `what` on table `guarded`: its
  // marker exists, and both the marker and the running statement are the owner's of `guarded`.
  // A session setting counts for nothing; another role's table of that name neither.
  `CREATE OR REPLACE FUNCTION icrs_audit_unlocked(guarded oid, what text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  marker regclass := to_regclass('${UNLOCK}');
  found boolean;
BEGIN
  IF marker IS NULL THEN RETURN false; END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_class m JOIN pg_class t ON t."relowner" = m."relowner"
                  WHERE m."oid" = marker AND t."oid" = guarded AND m."relowner" = (SELECT r."oid" FROM pg_roles r WHERE r."rolname" = current_user)) THEN
    RETURN false;
  END IF;
  EXECUTE 'SELECT EXISTS (SELECT 1 FROM ${UNLOCK} WHERE "what" = $1)' INTO found USING what;
  RETURN found;
END
$$`,
  `CREATE OR REPLACE FUNCTION icrs_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND icrs_audit_unlocked(TG_RELID, 'purge') THEN RETURN OLD; END IF;
  RAISE EXCEPTION 'the audit log is append-only: % refused on %', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$`,
  `CREATE OR REPLACE FUNCTION icrs_audit_values_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (icrs_audit_unlocked(TG_RELID, 'purge') OR icrs_audit_unlocked(TG_RELID, 'erase:' || OLD."clientId")) THEN RETURN OLD; END IF;
  RAISE EXCEPTION 'audit values are append-only: % refused on %', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$`,
  `DROP TRIGGER IF EXISTS "audit_log_append_only" ON "${AUDIT_LOG}"`,
  `CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "${AUDIT_LOG}" FOR EACH ROW EXECUTE FUNCTION icrs_audit_append_only()`,
  `DROP TRIGGER IF EXISTS "audit_log_no_truncate" ON "${AUDIT_LOG}"`,
  `CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "${AUDIT_LOG}" FOR EACH STATEMENT EXECUTE FUNCTION icrs_audit_append_only()`,
  `DROP TRIGGER IF EXISTS "audit_values_guard" ON "${AUDIT_VALUES_TABLE}"`,
  `CREATE TRIGGER "audit_values_guard" BEFORE UPDATE OR DELETE ON "${AUDIT_VALUES_TABLE}" FOR EACH ROW EXECUTE FUNCTION icrs_audit_values_guard()`,
  `DROP TRIGGER IF EXISTS "audit_values_no_truncate" ON "${AUDIT_VALUES_TABLE}"`,
  `CREATE TRIGGER "audit_values_no_truncate" BEFORE TRUNCATE ON "${AUDIT_VALUES_TABLE}" FOR EACH STATEMENT EXECUTE FUNCTION icrs_audit_append_only()`,
];

/** The functions that alone get past the guards, and the retention they read (migration
 * 0022-audit-roles; docs/security.md "Audit log"). */
export const AUDIT_FUNCTIONS_SQL = [
  `CREATE TABLE IF NOT EXISTS "${AUDIT_SETTINGS_TABLE}" ("key" text PRIMARY KEY, "value" text NOT NULL)`,
  // The retention purge: entries older than the retention the owner wrote (0: keep forever),
  // their values first. Answers how many entries went.
  `CREATE OR REPLACE FUNCTION icrs_audit_purge() RETURNS integer LANGUAGE plpgsql ${DEFINER} AS $$
DECLARE
  days integer;
  cutoff timestamptz;
  gone integer;
BEGIN
  SELECT nullif(s."value", '')::integer INTO days FROM "${AUDIT_SETTINGS_TABLE}" s WHERE s."key" = 'retentionDays';
  IF days IS NULL OR days <= 0 THEN RETURN 0; END IF;
  cutoff := now() - make_interval(days => days);
  ${unlockSql(`'purge'`)}
  DELETE FROM "${AUDIT_VALUES_TABLE}" v USING "${AUDIT_LOG}" a WHERE v."entryId" = a."id" AND a."at" < cutoff;
  DELETE FROM "${AUDIT_LOG}" WHERE "at" < cutoff;
  GET DIAGNOSTICS gone = ROW_COUNT;
  DROP TABLE ${UNLOCK};
  RETURN gone;
END
$$`,
  // The scrub: when a profile row is marked erased, that client's values go, in the same
  // statement. A trigger, so that nothing but the erasure of the row itself starts it.
  `CREATE OR REPLACE FUNCTION icrs_audit_scrub() RETURNS trigger LANGUAGE plpgsql ${DEFINER} AS $$
BEGIN
  ${unlockSql(`'erase:' || NEW."${profile.keyFields[0]}"`)}
  DELETE FROM "${AUDIT_VALUES_TABLE}" WHERE "clientId" = NEW."${profile.keyFields[0]}";
  DROP TABLE ${UNLOCK};
  RETURN NULL;
END
$$`,
  `DROP TRIGGER IF EXISTS ${ident(`${profile.table}_erased`)} ON ${ident(profile.table)}`,
  `CREATE TRIGGER ${ident(`${profile.table}_erased`)} AFTER UPDATE OF "erasedAt" ON ${ident(profile.table)} FOR EACH ROW
    WHEN (OLD."erasedAt" IS NULL AND NEW."erasedAt" IS NOT NULL) EXECUTE FUNCTION icrs_audit_scrub()`,
  // The start of an erasure (./handover.ts), before its rows are blanked: their entries say
  // "erase" and keep no value, the profile's with the reason. The labels are believed only for a
  // client whose profile row is marked erased (auditTriggerSql), so they hide nothing else.
  `CREATE OR REPLACE FUNCTION icrs_audit_erase(client text, reason text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ${ident(profile.table)} p WHERE p."${profile.keyFields[0]}" = client AND p."erasedAt" IS NULL) THEN
    RAISE EXCEPTION 'no client % to erase', client USING ERRCODE = 'no_data_found';
  END IF;
  PERFORM set_config('icrs.erasing', client, true), set_config('icrs.erase_reason', coalesce(reason, ''), true);
END
$$`,
];

export const AUDIT_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS "${AUDIT_TABLE}" (
    "id" bigserial PRIMARY KEY,
    "at" timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
    "deviceAt" timestamptz,
    "userId" text,
    "userName" text,
    "role" integer,
    "userLocation" integer,
    "location" integer,
    "action" text NOT NULL,
    "entity" text,
    "recordId" text,
    "clientId" text,
    "fields" jsonb NOT NULL DEFAULT '[]'::jsonb,
    "changes" jsonb,
    "note" text
  )`,
  `CREATE INDEX IF NOT EXISTS "audit_log_record_idx" ON "${AUDIT_TABLE}" ("entity", "recordId", "id")`,
  `CREATE INDEX IF NOT EXISTS "audit_log_client_idx" ON "${AUDIT_TABLE}" ("clientId", "id") WHERE "clientId" IS NOT NULL`,
  // No index on the organisation or the time: the audit screen pages newest first along the
  // key, and each index costs every write of the application (bench/audit.bench.ts).
  `CREATE TABLE IF NOT EXISTS "${AUDIT_VALUES_TABLE}" (
    "entryId" bigint PRIMARY KEY REFERENCES "${AUDIT_TABLE}" ("id"),
    "clientId" text NOT NULL,
    "changes" jsonb,
    "note" text
  )`,
  `CREATE INDEX IF NOT EXISTS "audit_values_client_idx" ON "${AUDIT_VALUES_TABLE}" ("clientId")`,
  ...AUDIT_GUARDS_SQL,
  // New entries are heard by the audit screen through the change stream, with their
  // organisation. The row triggers of entity tables notify themselves (one call less per row);
  // this one tells of the entries the server writes itself (sign-in failures, downloads…).
  `CREATE OR REPLACE FUNCTION icrs_notify_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', '${AUDIT_TABLE}:' || coalesce(NEW."location", 0)::text);
  RETURN NULL;
END
$$`,
  `DROP TRIGGER IF EXISTS "audit_log_changed" ON "${AUDIT_TABLE}"`,
  `CREATE TRIGGER "audit_log_changed" AFTER INSERT ON "${AUDIT_TABLE}" FOR EACH ROW WHEN (pg_trigger_depth() < 1) EXECUTE FUNCTION icrs_notify_audit()`,
];

const sqlList = (names: readonly string[]) => `ARRAY[${names.map((n) => `'${n}'`).join(', ')}]::text[]`;
const hiddenFields = (entity: EntityShape) =>
  Object.entries(entity.fields)
    .filter(([, f]) => f.hidden)
    .map(([name]) => name);

/** The record's key as text (a composite key joins its parts with '|'). */
function keySql(entity: EntityShape): string {
  return entity.keyFields.map((name) => `(row_now->>'${name}')`).join(` || '|' || `);
}

/** The client a row belongs to (the key of its private root record), or NULL. */
function clientSql(entity: EntityShape): string {
  const path = ownerPath(entity);
  if (!path || !isPrivate(entity)) return 'NULL';
  if (!path.steps.length) return `(row_now->>'${entity.keyFields[0]}')`;
  if (path.steps.length > 1) throw new Error(`${entity.name}: the audit finds clients one step up only`);
  return `(row_now->>'${path.steps[0]?.parentField}')`;
}

/** The organisation the entry belongs to: the record's owner, a user's own, else the actor's. */
function locationSql(entity: EntityShape): string {
  if (ownerPath(entity))
    return `CASE TG_OP WHEN 'DELETE' THEN ${ownerExpression(entity, 'OLD')} ELSE ${ownerExpression(entity, 'NEW')} END`;
  if (entity.fields.location) return `(row_now->>'location')::int`;
  return 'NULL';
}

export const auditFunction = (entity: EntityShape) => ident(`icrs_audit_${entity.table}`);

/** The row trigger of one entity table: one entry per row changed. */
export function auditTriggerSql(entity: EntityShape): string[] {
  const hidden = sqlList(hiddenFields(entity));
  const client = clientSql(entity) !== 'NULL';
  const isRoot = client && !entity.parent;
  const trigger = ident(`${entity.table}_audit`);
  const madeOnDevice = generatedKey(entity);
  const kept = serverKept(entity);
  // Written for speed (it runs for every row written): C-level jsonb operators where it can,
  // the row as jsonb once, and the users table read only when nobody said who is acting.
  return [
    `CREATE OR REPLACE FUNCTION ${auditFunction(entity)}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := nullif(current_setting('icrs.actor', true), '')::jsonb;
  old_row jsonb;
  new_row jsonb;
  row_now jsonb;
  changed text[];
  diff jsonb;
  act text;
  note text;
  entry bigint;
  client text;
  erasing boolean;
  place integer;
  device_at timestamptz;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    old_row := to_jsonb(OLD);
    new_row := to_jsonb(NEW);
    SELECT coalesce(array_agg(n.key ORDER BY n.key), '{}'),
           jsonb_object_agg(n.key, jsonb_build_object('before', old_row->n.key, 'after', n.value)) FILTER (WHERE n.key <> ALL(${hidden}))
      INTO changed, diff
      FROM jsonb_each(new_row - ${sqlList([...BOOKKEEPING, ...kept])}) n
     WHERE n.value IS DISTINCT FROM old_row->n.key;
    IF changed <@ ${sqlList(QUIET)} AND cardinality(changed) > 0 THEN RETURN NULL; END IF;${
      kept.length
        ? `
    IF cardinality(changed) = 0 AND (old_row->'${ORGANISATION_COLUMN}') IS DISTINCT FROM (new_row->'${ORGANISATION_COLUMN}') THEN RETURN NULL; END IF;`
        : ''
    }
  ELSIF TG_OP = 'INSERT' THEN
    new_row := to_jsonb(NEW);
    changed := ARRAY(SELECT jsonb_object_keys(jsonb_strip_nulls(new_row) - ${sqlList([...BOOKKEEPING, ...QUIET, ...kept])}) ORDER BY 1);
  ELSE
    old_row := to_jsonb(OLD);
    changed := '{}';
  END IF;
  row_now := coalesce(new_row, old_row);
  client := ${clientSql(entity)};
  erasing := coalesce(client = nullif(current_setting('icrs.erasing', true), ''), false);
  IF erasing THEN
    -- Believed only for a client marked erased (icrs_audit_erase): a label set on a living one
    -- would hide the values of its changes.
    erasing := ${
      isRoot
        ? `(row_now->>'erasedAt') IS NOT NULL`
        : `EXISTS (SELECT 1 FROM ${ident(profile.table)} p WHERE p."${profile.keyFields[0]}" = client AND p."erasedAt" IS NOT NULL)`
    };
  END IF;
  act := ${actionSql(entity)};
  note := ${noteSql(entity)};
  IF erasing THEN
    -- The erasure of this client (./handover.ts): what happened and why, no value at all.
    act := 'erase';
    diff := NULL;
    note := ${isRoot ? `nullif(current_setting('icrs.erase_reason', true), '')` : 'NULL'};
  END IF;
  IF act = 'signin' THEN
    actor := jsonb_build_object('userId', row_now->>'userId');
  END IF;
  IF actor IS NULL OR NOT actor ? 'role' THEN
    SELECT jsonb_build_object('userId', u."userId", 'userName', u."userName", 'role', u."role", 'location', u."location") || coalesce(actor - 'userId', '{}')
      INTO actor FROM "users" u
     WHERE u."userId" = coalesce(actor->>'userId', CASE WHEN TG_OP = 'INSERT' THEN new_row->>'createdBy' ELSE row_now->>'updatedBy' END);
  END IF;
  device_at := (actor->>'deviceAt')::timestamptz;
  ${
    madeOnDevice
      ? `-- An uploaded new record's key was made on the device (UUIDv7): its time is the device's.
  IF device_at IS NULL AND TG_OP = 'INSERT' AND actor->>'upload' = 'true' AND substr(row_now->>'${madeOnDevice}', 15, 1) = '7' THEN
    device_at := to_timestamp((('x' || substr(replace(row_now->>'${madeOnDevice}', '-', ''), 1, 12))::bit(48)::bigint) / 1000.0);
  END IF;`
      : ''
  }
  place := coalesce(${locationSql(entity)}, (actor->>'location')::int);
  INSERT INTO "${AUDIT_TABLE}" ("deviceAt", "userId", "userName", "role", "userLocation", "location", "action", "entity", "recordId", "clientId", "fields", "changes", "note")
  VALUES (device_at, actor->>'userId', coalesce(actor->>'userName', 'system'), (actor->>'role')::int, (actor->>'location')::int,
          place, act, '${entity.name}', ${keySql(entity)}, client, to_jsonb(changed),
          ${client ? 'NULL' : `CASE WHEN TG_OP = 'UPDATE' THEN diff END`}, ${client ? 'CASE WHEN erasing THEN note END' : 'note'})
  RETURNING "id" INTO entry;
  ${
    client
      ? `IF NOT erasing AND ((TG_OP = 'UPDATE' AND diff IS NOT NULL) OR note IS NOT NULL) THEN
    INSERT INTO "${AUDIT_VALUES_TABLE}" ("entryId", "clientId", "changes", "note") VALUES (entry, client, CASE WHEN TG_OP = 'UPDATE' THEN diff END, note);
  END IF;`
      : ''
  }
  -- The audit screen hears of it (identical events of one transaction are delivered once).
  PERFORM pg_notify('${CHANGE_CHANNEL}', '${AUDIT_TABLE}:' || coalesce(place, 0)::text);
  RETURN NULL;
END
$$`,
    `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(entity.table)}`,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(entity.table)} FOR EACH ROW EXECUTE FUNCTION ${auditFunction(entity)}()`,
  ];
}
