// One ordered list of migrations for both databases, applied at start inside one
// transaction under an advisory lock, so several server processes may start together. An entity
// declared after a database was made gets its table from its declaration, with no migration of
// its own (docs/adr/0050-a-new-entity.md "Tables of a new entity").
import type { EntityShape } from '../../schemas/define';
import { serverEntities } from '../../schemas/index';
import { columnSql, createIndexesSql, ident, indexColumns, indexName, liveOnlyIndex, schemaSql } from '../../schemas/derive/sql';
import { jobReferral, profile, profileImage, referral, user } from '../../schemas/index';
import { softDeleteFields } from '../../schemas/define';
import { statsIndexes } from '../plugins/stats/indexes';
import { CHANGE_CHANNEL, changeFunctionSql, changeTriggerSql, hasOwnedEvents, signedOutTriggerSql } from '../plugins/sync/changes';
import { TICKETS_TABLE_SQL } from '../plugins/sync/tickets';
import { THROTTLE_TABLE_SQL } from '../lib/throttle';
import { AUDIT_FUNCTIONS_SQL, AUDIT_GUARDS_SQL, AUDIT_TABLES_SQL, auditTriggerSql } from '../plugins/audit/triggers';
import { AUDIT_LIST_INDEXES, orderIndexes, searchIndexes } from '../lib/records/listIndexes';
import {
  backfillSql,
  DEPARTURES_TABLE_SQL,
  organisationColumnSql,
  organisationIndexesSql,
  organisationTriggersSql,
  subRecordEntities,
} from '../lib/records/organisation';
import { ASSIGNED_BACKFILL_SQL, ASSIGNED_DEFAULT_SQL, CASELOAD_TABLES_SQL, USER_CASELOAD_TRIGGER_SQL } from '../lib/records/caseload';
import { DIRECTORY_TABLES_SQL, userCaseloadTriggerSql } from '../lib/records/directory';
import type { Db, Queryable } from './index';

export interface Migration {
  id: string;
  up: (tx: Queryable) => Promise<void>;
}

const sql = (text: string) => async (tx: Queryable) => {
  for (const statement of text
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean))
    await tx.query(statement);
};

/** The migration making the entity tables of a new database. */
const ENTITIES = '0001-entities';

export const coreMigrations: Migration[] = [
  {
    // Every entity table and index comes from its declaration in schemas/ (one idea, one place).
    id: ENTITIES,
    up: async (tx) => {
      await sql(`CREATE TABLE IF NOT EXISTS "settings" ("key" text PRIMARY KEY, "value" text NOT NULL)`)(tx);
      await sql(schemaSql(serverEntities))(tx);
      // Sign-in ignores the case of user names, so uniqueness must too.
      await tx.query('CREATE UNIQUE INDEX IF NOT EXISTS "users_userName_lower" ON "users" (lower("userName"))');
    },
  },
  {
    // Image and file bytes, kept in the database so server processes stay stateless. A slot is
    // an image field (sp_img1), a profile image kind (photo) or a referral attachment.
    id: '0002-images',
    up: sql(`
      CREATE TABLE IF NOT EXISTS "images" (
        "ownerTable" text NOT NULL,
        "ownerId" text NOT NULL,
        "slot" text NOT NULL,
        "name" text NOT NULL,
        "mime" text NOT NULL,
        "size" integer NOT NULL CHECK ("size" > 0),
        "data" bytea NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "createdBy" text,
        PRIMARY KEY ("ownerTable", "ownerId", "slot")
      );
      CREATE INDEX IF NOT EXISTS "images_ownerId_name_idx" ON "images" ("ownerId", "name");
    `),
  },
  {
    // Partial indexes the dashboard statistics need (pending/rejected badges, deleted providers).
    id: '0003-stats-indexes',
    up: async (tx) => {
      for (const statement of statsIndexes) await tx.query(statement);
    },
  },
  {
    // Live updates (product.md §D6): every entity table tells listeners when a write commits.
    id: '0004-change-triggers',
    up: async (tx) => {
      await tx.query(changeFunctionSql);
      for (const entity of serverEntities) for (const statement of changeTriggerSql(entity)) await tx.query(statement);
    },
  },
  {
    // ADR-0002: a token version per user, so that a password change, a reset or a
    // deactivation ends the older sessions (schemas/entities/users.ts tokenVersion).
    id: '0011-auth-token-version',
    up: sql(`ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "tokenVersion" integer NOT NULL DEFAULT 0
      CHECK ("tokenVersion" BETWEEN 0 AND 2147483647)`),
  },
  {
    // ADR-0028: a removed profile photo or document is marked deleted (its bytes are deleted),
    // so that the pull feed tells every device to forget it. New databases have the columns
    // from 0001; older ones get them here.
    id: '0012-profile-images-soft-delete',
    up: async (tx) => {
      for (const [name, field] of Object.entries(softDeleteFields)) {
        await tx.query(`ALTER TABLE ${ident(profileImage.table)} ADD COLUMN IF NOT EXISTS ${columnSql(name, field)}`);
      }
    },
  },
  {
    // ADR-0029: following a referral (the day of the last status change and the history of
    // who changed it when), and a job referral's note and follow-up date. New databases have
    // the columns from 0001; older ones get them here.
    id: '0013-referral-follow-up',
    up: async (tx) => {
      const added: [typeof referral | typeof jobReferral, string[]][] = [
        [referral, ['statusDate', 'history']],
        [jobReferral, ['note', 'followUpDate', 'statusDate', 'history']],
      ];
      for (const [entity, names] of added) {
        for (const name of names) {
          const field = (entity.fields as Record<string, Parameters<typeof columnSql>[1]>)[name];
          await tx.query(`ALTER TABLE ${ident(entity.table)} ADD COLUMN IF NOT EXISTS ${columnSql(name, field)}`);
        }
      }
    },
  },
  {
    // ADR-0030: the user list shows the last sign-in, and a temporary password set by an
    // administrator must be changed at the next sign-in. New databases have the columns from 0001.
    id: '0014-users-sign-in-and-temporary-password',
    up: async (tx) => {
      for (const name of ['mustChangePassword', 'lastSignInAt'] as const) {
        await tx.query(`ALTER TABLE ${ident(user.table)} ADD COLUMN IF NOT EXISTS ${columnSql(name, user.fields[name])}`);
      }
    },
  },
  {
    // ADR-0029: referral events name their organisation (row triggers), so the change stream
    // passes them only to users who may read it. New databases got these triggers from 0004.
    id: '0015-referral-change-events',
    up: async (tx) => {
      for (const entity of serverEntities.filter(hasOwnedEvents))
        for (const statement of changeTriggerSql(entity)) await tx.query(statement);
    },
  },
  {
    // ADR-0035: list filters of soft-delete entities index live rows only (schemas/derive/sql.ts
    // liveOnlyIndex), so a filtered list's count is an index-only scan. New databases got them
    // from 0001; older ones swap their whole-table filter indexes for them.
    id: '0016-live-filter-indexes',
    up: async (tx) => {
      for (const entity of serverEntities) {
        for (const cols of indexColumns(entity).filter((c) => liveOnlyIndex(entity, c))) {
          await tx.query(`DROP INDEX IF EXISTS ${ident(indexName(entity.table, cols))}`);
        }
        for (const statement of createIndexesSql(entity)) await tx.query(statement);
      }
    },
  },
  {
    // ADR-0020: the devices' unlock secret, hidden like the password hash; made for each user
    // at the first GET /api/session/device (server/plugins/users/store.ts deviceSecret). New
    // databases have the column from 0001.
    id: '0017-users-device-secret',
    up: async (tx) => {
      await tx.query(`ALTER TABLE ${ident(user.table)} ADD COLUMN IF NOT EXISTS ${columnSql('deviceSecret', user.fields.deviceSecret)}`);
    },
  },
  {
    // ADR-0002: failed password checks are counted in the database, so that every server
    // process counts the same tries (server/lib/throttle.ts).
    id: '0018-password-failures',
    up: async (tx) => {
      await tx.query(THROTTLE_TABLE_SQL);
    },
  },
  {
    // ADR-0002: sign-out ends its session (until the token's expiry), heard by every server
    // process as a change of the users table; the change stream opens with single-use tickets.
    id: '0019-signed-out-sessions-and-stream-tickets',
    up: async (tx) => {
      await tx.query(`CREATE TABLE IF NOT EXISTS "signed_out_sessions" (
        "sessionId" text PRIMARY KEY,
        "userId" text NOT NULL,
        "expiresAt" timestamptz NOT NULL
      )`);
      await tx.query('CREATE INDEX IF NOT EXISTS "signed_out_sessions_userId_idx" ON "signed_out_sessions" ("userId")');
      await tx.query(`CREATE OR REPLACE FUNCTION icrs_notify_users_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGE_CHANNEL}', 'users');
  RETURN NULL;
END
$$`);
      await tx.query('DROP TRIGGER IF EXISTS "signed_out_sessions_changed" ON "signed_out_sessions"');
      await tx.query(`CREATE TRIGGER "signed_out_sessions_changed" AFTER INSERT ON "signed_out_sessions"
        FOR EACH STATEMENT EXECUTE FUNCTION icrs_notify_users_change()`);
      await tx.query(TICKETS_TABLE_SQL);
    },
  },
  {
    // ADR-0036: the append-only audit log, written by a row trigger on every entity table in
    // the transaction of the change (server/plugins/audit/triggers.ts).
    id: '0020-audit-log',
    up: async (tx) => {
      for (const statement of AUDIT_TABLES_SQL) await tx.query(statement);
      // A client's erasure keeps its row, blanked (schemas/entities/profiles.ts erasedAt).
      await tx.query(`ALTER TABLE ${ident(profile.table)} ADD COLUMN IF NOT EXISTS ${columnSql('erasedAt', profile.fields.erasedAt)}`);
      for (const entity of serverEntities) for (const statement of auditTriggerSql(entity)) await tx.query(statement);
    },
  },
  {
    // The token-signing secret leaves "settings" for a table of its own, whose data no backup
    // holds (server/ops/secrets.ts, docs/security.md "Operations"). Moved, not made anew: the
    // sessions of the release before go on.
    id: '0021-secrets-apart',
    up: sql(`
      CREATE TABLE IF NOT EXISTS "server_secrets" ("key" text PRIMARY KEY, "value" text NOT NULL);
      INSERT INTO "server_secrets" ("key", "value") SELECT "key", "value" FROM "settings" WHERE "key" = 'jwtSecret' ON CONFLICT ("key") DO NOTHING;
      DELETE FROM "settings" WHERE "key" = 'jwtSecret'
    `),
  },
  {
    // ADR-0036: the audit log holds against the server itself. Its rows go only through the
    // owner's functions (the retention purge, the scrub of an erased client's values), which a
    // session setting no longer imitates; the retention is read from a table the app's role
    // cannot write (server/plugins/audit/triggers.ts, server/db/roles.ts).
    id: '0022-audit-roles',
    up: async (tx) => {
      for (const statement of [...AUDIT_GUARDS_SQL, ...AUDIT_FUNCTIONS_SQL]) await tx.query(statement);
      for (const entity of serverEntities) for (const statement of auditTriggerSql(entity)) await tx.query(statement);
    },
  },
  {
    // ADR-0021: the devices' unlock secret moves to a table of its own, whose data no backup
    // holds (server/ops), and is rotated (server/plugins/users/store.ts rotateDeviceSecret).
    // A secret given before is kept, so a device's keyring still opens, and so is an export file
    // sealed under it (the export secret starts as that same secret). The users column stays,
    // emptied, for the release before. No audit trigger: the table is no entity, and a
    // secret's value never reaches the log (docs/security.md "Shared and lost devices").
    id: '0023-device-secrets',
    up: async (tx) => {
      await tx.query(`CREATE TABLE IF NOT EXISTS "device_secrets" (
        "userId" text PRIMARY KEY,
        "secret" text NOT NULL,
        "rotatedAt" timestamptz NOT NULL DEFAULT now(),
        "previous" text[] NOT NULL DEFAULT '{}',
        "exportSecret" text NOT NULL
      )`);
      await tx.query(`INSERT INTO "device_secrets" ("userId", "secret", "exportSecret")
        SELECT "userId", "deviceSecret", "deviceSecret" FROM ${ident(user.table)} WHERE "deviceSecret" IS NOT NULL
        ON CONFLICT ("userId") DO NOTHING`);
      await tx.query(`UPDATE ${ident(user.table)} SET "deviceSecret" = NULL WHERE "deviceSecret" IS NOT NULL`);
    },
  },
  {
    // Sub-records carry their organisation (docs/adr/0016-subrecord-organisation.md "Sub-records carry their
    // organisation", server/lib/records/organisation.ts): the column, filled from the parent
    // chain (one UPDATE per table), the triggers keeping it, the departures a move leaves for the
    // devices of the organisation left, and the indexes of the scope and the pull feed. The
    // audit and change triggers of the sub-records read the column from now on.
    id: '0024-subrecord-organisation',
    up: async (tx) => {
      const subRecords = subRecordEntities();
      const statements = [
        ...DEPARTURES_TABLE_SQL,
        ...organisationColumnSql(),
        ...backfillSql(),
        ...organisationTriggersSql(),
        ...organisationIndexesSql(),
        ...subRecords.flatMap(auditTriggerSql),
        ...subRecords.flatMap(changeTriggerSql),
      ];
      for (const statement of statements) await tx.query(statement);
    },
  },
  {
    // Lists cost the same at any size (docs/performance.md "Lists at any size"): each list order
    // and search read from an index derived from the entity declarations, and the audit screen's
    // filters too (server/lib/records/listIndexes.ts).
    id: '0025-list-indexes',
    up: createListIndexes,
  },
  {
    // A client's disability is a yes/no question with three states (docs/adr/0045-three-state-booleans.md "Yes/no
    // questions have three states"): NULL is "not answered"; the rows stored keep their value.
    id: '0026-tri-state-answers',
    up: sql(`
      ALTER TABLE ${ident(profile.table)} ALTER COLUMN "disability" DROP NOT NULL;
      ALTER TABLE ${ident(profile.table)} ALTER COLUMN "disability" DROP DEFAULT
    `),
  },
  {
    // Change events name the organisation of every row of organisation data (a sub-record its
    // client's) and the user of a user's change, so that a stream wakes only for what its user
    // may read, and a sign-in only its own user's streams (docs/adr/0015-sync-and-pull.md "Change events name
    // their organisation"). New databases got the row triggers from 0004; this swaps the older ones.
    id: '0028-scoped-change-events',
    up: async (tx) => {
      for (const entity of serverEntities) for (const statement of changeTriggerSql(entity)) await tx.query(statement);
      for (const statement of signedOutTriggerSql) await tx.query(statement);
    },
  },
  {
    // The caseload (docs/product.md §6.5.1, server/lib/records/caseload.ts): each client
    // has an assigned worker (whoever registered them, for the clients of before), users may
    // have territories, workers pin clients; what each worker's devices were given, and what
    // left them, is kept per user. The profile's audit trigger learns the assignment's action.
    id: '0029-caseload',
    up: async (tx) => {
      const statements = [
        `ALTER TABLE ${ident(profile.table)} ADD COLUMN IF NOT EXISTS ${columnSql('assignedTo', profile.fields.assignedTo)}`,
        `ALTER TABLE ${ident(user.table)} ADD COLUMN IF NOT EXISTS ${columnSql('territories', user.fields.territories)}`,
        ...CASELOAD_TABLES_SQL,
        ...ASSIGNED_BACKFILL_SQL,
        ...ASSIGNED_DEFAULT_SQL,
        ...USER_CASELOAD_TRIGGER_SQL,
        ...auditTriggerSql(profile),
      ];
      for (const statement of statements) await tx.query(statement);
    },
  },
  {
    // The directory follows a field worker's territories (server/lib/records/directory.ts):
    // what each worker's devices were given of it is kept per user; a change of a user's
    // territories wakes the directory tables too.
    id: '0030-directory',
    up: async (tx) => {
      for (const statement of [...DIRECTORY_TABLES_SQL, ...userCaseloadTriggerSql(profile.table)]) await tx.query(statement);
    },
  },
];

/** The list indexes of `list`; the trigram ones only where pg_trgm can be created (a trusted
 * extension: the database's owner may; PGlite loads it, server/db/index.ts), else the search
 * reads the rows as before (docs/performance.md). */
export async function createListIndexes(tx: Queryable, list: readonly EntityShape[] = serverEntities): Promise<void> {
  for (const entity of list) for (const index of orderIndexes(entity)) await tx.query(index.sql);
  for (const index of AUDIT_LIST_INDEXES) await tx.query(index.sql);
  await tx.query('SAVEPOINT trigram');
  try {
    await tx.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch {
    await tx.query('ROLLBACK TO SAVEPOINT trigram');
    return;
  }
  for (const entity of list) for (const index of searchIndexes(entity)) await tx.query(index.sql);
}

/** The id a table made late is recorded under: 0001's part for that table. A backup holding it
 * is refused by an ICRS that does not declare the entity (server/ops/backupFile.ts). */
export const lateTableId = (entity: EntityShape): string => `${ENTITIES}/${entity.table}`;

/** Every id this code may find in "schema_migrations": its migrations', and its tables made late. */
export function knownMigrationIds(migrations: readonly Migration[] = coreMigrations): string[] {
  return [...migrations.map((m) => m.id), ...serverEntities.map(lateTableId)];
}

/** The server entities whose table a database made by 0001 lacks (declared after it was made),
 * parents first. */
async function lateEntities(tx: Queryable, done: ReadonlySet<string>): Promise<EntityShape[]> {
  if (!done.has(ENTITIES)) return []; // a new database: 0001 makes them all
  const tables = await tx.query<{ name: string }>(
    `SELECT c."relname" AS name FROM pg_class c JOIN pg_namespace n ON n."oid" = c."relnamespace"
      WHERE n."nspname" = 'public' AND c."relkind" IN ('r', 'p')`,
  );
  const present = new Set(tables.map((table) => table.name));
  return serverEntities.filter((entity) => !present.has(entity.table));
}

/** The ids of `migrations` not applied to the database yet, and of the tables it lacks. */
export async function pendingMigrations(db: Queryable, migrations: readonly Migration[] = coreMigrations): Promise<string[]> {
  const done = new Set((await db.query<{ id: string }>('SELECT "id" FROM "schema_migrations"')).map((row) => row.id));
  const late = await lateEntities(db, done);
  return [...late.map(lateTableId), ...migrations.filter((m) => !done.has(m.id)).map((m) => m.id)];
}

/**
 * The tables of entities declared after the database was made, as a new database has them
 * (docs/adr/0050-a-new-entity.md "Tables of a new entity"): first 0001's part, the table and its
 * indexes, before the migrations still to apply (those going over every entity then find it);
 * then, once they are applied, what the migrations before gave every entity table, from the same
 * declarations: the organisation column and triggers (0024), the change and audit triggers (0004,
 * 0020), the directory's trigger function (0030) and the list indexes (0025). A migration that
 * gives every entity table something new adds it here too: test/api/entity-tables.test.ts compares a
 * table made late with the same table of a new database.
 */
const lateTables = {
  async start(tx: Queryable, late: readonly EntityShape[]): Promise<void> {
    for (const entity of late) {
      await sql(schemaSql([entity]))(tx);
      await tx.query('INSERT INTO "schema_migrations" ("id") VALUES ($1)', [lateTableId(entity)]);
    }
  },
  async complete(tx: Queryable, late: readonly EntityShape[]): Promise<void> {
    if (!late.length) return;
    const statements = [
      // Whole lists, made again: a parent's triggers name its sub-records.
      ...organisationColumnSql(),
      ...organisationTriggersSql(),
      ...organisationIndexesSql(),
      ...late.flatMap(changeTriggerSql),
      ...late.flatMap(auditTriggerSql),
      ...userCaseloadTriggerSql(profile.table),
    ];
    for (const statement of statements) await tx.query(statement);
    await createListIndexes(tx, late);
  },
};

const MIGRATION_LOCK = 4242_0001;

/** Applies the migrations not applied yet, and makes the tables of entities declared since the
 * database was made (`lateTables`); `after` runs in the same transaction, under the same lock,
 * whether any was applied or not (server/db/roles.ts: the retention and the grants). */
export async function migrate(
  db: Pick<Db, 'transaction'>,
  migrations: Migration[] = coreMigrations,
  after?: (tx: Queryable) => Promise<void>,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS "schema_migrations" (
      "id" text PRIMARY KEY, "appliedAt" timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: string }>('SELECT "id" FROM "schema_migrations"')).map((r) => r.id));
    const late = await lateEntities(tx, done);
    await lateTables.start(tx, late);
    const applied: string[] = late.map(lateTableId);
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await migration.up(tx);
      await tx.query('INSERT INTO "schema_migrations" ("id") VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    await lateTables.complete(tx, late);
    await after?.(tx);
    return applied;
  });
}
