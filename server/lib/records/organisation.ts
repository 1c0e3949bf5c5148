// Sub-records carry their organisation (docs/adr/0016-subrecord-organisation.md "Sub-records carry their
// organisation"): every entity owned through a parent (schemas/scope.ts carriesOrganisation)
// has a server-kept integer column ORGANISATION_COLUMN, a copy of its root's owner. Triggers
// keep it right whatever writes the row, and a row that changes organisation leaves a
// departure behind, which the pull feed turns into a removal on the old organisation's devices
// (docs/offline-contract.md "Leaving an organisation").
import type { EntityShape } from '../../../schemas/define';
import { COMPOSITE_SEPARATOR } from '../../../schemas/derive/rxdb';
import { ident } from '../../../schemas/derive/sql';
import { getEntity, serverEntities } from '../../../schemas/index';
import { carriesOrganisation, ORGANISATION_COLUMN, ownerColumn } from '../../../schemas/scope';

/** Rows that left an organisation: (table, key, organisation left, when). Kept while a device of
 * that organisation may still hold them; a row coming back removes its departure. */
export const DEPARTURES_TABLE = 'sync_departures';

/** The change notification channel (server/plugins/sync/changes.ts CHANGE_CHANNEL). */
const CHANNEL = 'icrs_changes';

/** The time a row's write takes (server/lib/records/rows.ts): its transaction's start, in ms. */
const NOW_MS = "date_trunc('milliseconds', now())";

/** The key as one text, as the device stores it (composite keys joined like RxDB's `pk`). */
export function keyExpression(e: EntityShape, alias = ''): string {
  const column = (name: string) => `${alias}${ident(name)}`;
  return e.keyFields.length === 1 ? `${column(e.keyFields[0])}::text` : e.keyFields.map(column).join(` || '${COMPOSITE_SEPARATOR}' || `);
}

/** The key fields of `e` out of a key text made by keyExpression, as `[field, sql]` pairs. */
export function keyFieldsOf(e: EntityShape, keyText: string): [string, string][] {
  if (e.keyFields.length === 1) return [[e.keyFields[0], keyText]];
  return e.keyFields.map((name, i) => [name, `split_part(${keyText}, '${COMPOSITE_SEPARATOR}', ${i + 1})`]);
}

/** Entities carrying ORGANISATION_COLUMN, parents before children (schemas/index.ts order). */
export const subRecordEntities = (): EntityShape[] => serverEntities.filter(carriesOrganisation);

/** Entities whose rows name an organisation (roots and sub-records). */
const ownedEntities = (): EntityShape[] => serverEntities.filter((e) => ownerColumn(e) !== undefined);

const parentOf = (e: EntityShape): EntityShape => {
  const parent = e.parent && getEntity(e.parent.entity);
  if (!e.parent || !parent) throw new Error(`${e.name}: a sub-record without a parent`);
  return parent;
};

const column = (e: EntityShape): string => ident(ownerColumn(e) as string);

/** The parent's organisation of the row `NEW` of sub-record `e`. */
function parentOwnerSql(e: EntityShape): string {
  const parent = parentOf(e);
  return `(SELECT p.${column(parent)} FROM ${ident(parent.table)} p WHERE p.${ident(parent.keyFields[0])} = NEW.${ident(e.parent?.field as string)})`;
}

/** The column, added to each sub-record table (empty until the backfill). */
export function organisationColumnSql(): string[] {
  return subRecordEntities().map((e) => `ALTER TABLE ${ident(e.table)} ADD COLUMN IF NOT EXISTS ${ident(ORGANISATION_COLUMN)} integer`);
}

/**
 * The column filled from the parent chain, one UPDATE per table, parents first (a service's
 * apprenticeships read the service's column, filled just before). The table's own triggers are
 * off meanwhile: it is bookkeeping, not a change of the record (no audit entry, no new time).
 */
export function backfillSql(): string[] {
  return subRecordEntities().flatMap((e) => {
    const parent = parentOf(e);
    const table = ident(e.table);
    const own = ident(ORGANISATION_COLUMN);
    return [
      `ALTER TABLE ${table} DISABLE TRIGGER USER`,
      `UPDATE ${table} c SET ${own} = p.${column(parent)} FROM ${ident(parent.table)} p
        WHERE p.${ident(parent.keyFields[0])} = c.${ident(e.parent?.field as string)} AND c.${own} IS DISTINCT FROM p.${column(parent)}`,
      `ALTER TABLE ${table} ENABLE TRIGGER USER`,
    ];
  });
}

export const DEPARTURES_TABLE_SQL = [
  `CREATE TABLE IF NOT EXISTS ${ident(DEPARTURES_TABLE)} (
    "table" text NOT NULL,
    "key" text NOT NULL,
    "organisation" integer NOT NULL,
    "updatedAt" timestamptz NOT NULL,
    PRIMARY KEY ("table", "organisation", "key")
  )`,
  `CREATE INDEX IF NOT EXISTS "sync_departures_feed" ON ${ident(DEPARTURES_TABLE)} ("table", "organisation", "updatedAt", "key")`,
];

/** A row's BEFORE trigger about its organisation: the function doing `body` then answering the
 * row, made again with its trigger on `events`, for each row `when` it holds (when given). */
function organisationTriggerSql(e: EntityShape, body: string, events: string, when?: string): string[] {
  const fn = ident(`icrs_organisation_${e.table}`);
  const trigger = ident(`${e.table}_organisation`);
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${body}
  RETURN NEW;
END
$$`,
    `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(e.table)}`,
    `CREATE TRIGGER ${trigger} BEFORE ${events} ON ${ident(e.table)}
      FOR EACH ROW ${when ? `WHEN (${when}) ` : ''}EXECUTE FUNCTION ${fn}()`,
  ];
}

/** The BEFORE trigger of a sub-record: its organisation is its parent's, whatever the writer
 * sent; a change of it is a change of the row (a new updatedAt, which the pull feed follows). */
function keepTriggerSql(e: EntityShape): string[] {
  const own = ident(ORGANISATION_COLUMN);
  return organisationTriggerSql(
    e,
    `  NEW.${own} := ${parentOwnerSql(e)};
  IF TG_OP = 'UPDATE' AND NEW.${own} IS DISTINCT FROM OLD.${own} THEN
    NEW."updatedAt" := ${NOW_MS};
  END IF;`,
    `INSERT OR UPDATE OF ${ident(e.parent?.field as string)}, ${own}`,
  );
}

/** The BEFORE trigger of a root: a change of its owner is a change of the row (a new updatedAt). */
function rootTouchSql(e: EntityShape): string[] {
  const own = column(e);
  return organisationTriggerSql(e, `  NEW."updatedAt" := ${NOW_MS};`, `UPDATE OF ${own}`, `OLD.${own} IS DISTINCT FROM NEW.${own}`);
}

/**
 * The AFTER trigger of a row changing organisation, in the same transaction: its departure from
 * the old one is recorded (and one into the new one forgotten), the old organisation's streams
 * hear of it, and its sub-records follow (their own BEFORE trigger copies the new value).
 */
function movedTriggerSql(e: EntityShape): string[] {
  const fn = ident(`icrs_moved_${e.table}`);
  const trigger = ident(`${e.table}_moved`);
  const own = column(e);
  const key = keyExpression(e, 'NEW.');
  const children = subRecordEntities().filter((c) => c.parent?.entity === e.name);
  const follow = children.map(
    (c) =>
      `UPDATE ${ident(c.table)} SET ${ident(ORGANISATION_COLUMN)} = NEW.${own}
     WHERE ${ident(c.parent?.field as string)} = NEW.${ident(e.keyFields[0])} AND ${ident(ORGANISATION_COLUMN)} IS DISTINCT FROM NEW.${own};`,
  );
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${ident(DEPARTURES_TABLE)} ("table", "key", "organisation", "updatedAt")
    VALUES (TG_TABLE_NAME, ${key}, coalesce(OLD.${own}, 0), NEW."updatedAt")
    ON CONFLICT ("table", "organisation", "key") DO UPDATE SET "updatedAt" = EXCLUDED."updatedAt";
  DELETE FROM ${ident(DEPARTURES_TABLE)} WHERE "table" = TG_TABLE_NAME AND "organisation" = coalesce(NEW.${own}, 0) AND "key" = ${key};
  PERFORM pg_notify('${CHANNEL}', TG_TABLE_NAME || ':' || coalesce(OLD.${own}, 0)::text);
  ${follow.join('\n  ')}
  RETURN NULL;
END
$$`,
    `DROP TRIGGER IF EXISTS ${trigger} ON ${ident(e.table)}`,
    `CREATE TRIGGER ${trigger} AFTER UPDATE OF ${own} ON ${ident(e.table)}
      FOR EACH ROW WHEN (OLD.${own} IS DISTINCT FROM NEW.${own}) EXECUTE FUNCTION ${fn}()`,
  ];
}

/** Every trigger keeping the organisation of rows right. */
export function organisationTriggersSql(): string[] {
  return ownedEntities().flatMap((e) => [...(carriesOrganisation(e) ? keepTriggerSql(e) : rootTouchSql(e)), ...movedTriggerSql(e)]);
}

/**
 * The index of each owned table serving its organisation's rows in the pull feed's order
 * (updatedAt, key): the scope, the feed's pages and the first pull's start are lookups in it.
 */
export function organisationIndexesSql(): string[] {
  return ownedEntities().map((e) => {
    const key = e.keyFields.length === 1 ? ident(e.keyFields[0]) : `(${keyExpression(e)})`;
    return `CREATE INDEX IF NOT EXISTS ${ident(`${e.table}_org_feed`)} ON ${ident(e.table)} (${column(e)}, "updatedAt", ${key})`;
  });
}
