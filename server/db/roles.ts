// The two PostgreSQL roles (README "Running against PostgreSQL", docs/security.md "Audit log").
// DATABASE_OWNER_URL's role owns every table: it runs the migrations at start (under their
// advisory lock), writes the audit retention, and then grants DATABASE_URL's role what the app
// needs: rows of the ordinary tables, the audit log to read and append to only, the retention to
// read only, and the audit purge to call. Owning nothing, the app's role can neither drop nor
// disable a trigger, nor get past the audit log's guards (server/plugins/audit/triggers.ts).
// The grants are checked after every migration run, so later migrations' tables are covered.
//
// Without DATABASE_OWNER_URL one role does everything, as before; the server then warns that the
// audit log is not protected against the server itself.
import type { Config } from '../config';
import { AUDIT_SETTINGS_TABLE, AUDIT_TABLE, AUDIT_VALUES_TABLE } from '../plugins/audit/triggers';
import { writeRetention } from '../plugins/audit/retention';
import { OPS_SCHEMA } from '../ops/restoreMark';
import { openDb, type Db, type Queryable } from './index';
import { coreMigrations, migrate, pendingMigrations, type Migration } from './migrations';

const ROW_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;
const ALL_PRIVILEGES = [...ROW_PRIVILEGES, 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const;
type Privilege = (typeof ALL_PRIVILEGES)[number];

/** What the app's role may do on each table that is not an ordinary one. */
const LIMITED: Readonly<Record<string, readonly Privilege[]>> = {
  [AUDIT_TABLE]: ['SELECT', 'INSERT'],
  [AUDIT_VALUES_TABLE]: ['SELECT', 'INSERT'],
  [AUDIT_SETTINGS_TABLE]: ['SELECT'],
  schema_migrations: ['SELECT'],
};

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const ROLES_HELP = 'README "Running against PostgreSQL"';

/** The role a connection acts as, and whether it is a superuser. */
async function roleOf(db: Queryable): Promise<{ name: string; superuser: boolean }> {
  const [row] = await db.query<{ name: string; superuser: boolean }>(
    'SELECT current_user AS name, r."rolsuper" AS superuser FROM pg_roles r WHERE r."rolname" = current_user',
  );
  if (!row) throw new Error('the database role of the connection was not found');
  return row;
}

/** Whether the connection's role can act as the owner of the audit log (owns it, is a member of
 * its owner, or is a superuser), and whether it was granted the log; undefined before the log
 * exists. Read from the catalogue, which answers without any privilege on the schema. */
async function auditOwnership(
  db: Queryable,
): Promise<{ owner: string; ownsIt: boolean; superuser: boolean; granted: boolean } | undefined> {
  const [row] = await db.query<{ owner: string; ownsIt: boolean; superuser: boolean; granted: boolean }>(
    `SELECT pg_get_userbyid(c."relowner") AS owner, pg_has_role(current_user, c."relowner", 'USAGE') AS "ownsIt",
       (SELECT r."rolsuper" FROM pg_roles r WHERE r."rolname" = current_user) AS superuser,
       has_schema_privilege(n."oid", 'USAGE') AND has_table_privilege(c."oid", 'INSERT') AS granted
     FROM pg_class c JOIN pg_namespace n ON n."oid" = c."relnamespace"
     WHERE n."nspname" = 'public' AND c."relname" = $1`,
    [AUDIT_TABLE],
  );
  return row;
}

/** Grants `app` exactly what it needs on the tables the connection's role owns (in `tx`, after
 * the migrations): missing privileges are granted, others revoked, nothing touched otherwise. */
export async function grantApp(tx: Queryable, app: string): Promise<void> {
  await tx.query(`GRANT USAGE ON SCHEMA ${quoted('public')} TO ${quoted(app)}`);
  const tables = await tx.query<{ name: string; held: Privilege[] }>(
    `SELECT c."relname" AS name,
       ARRAY(SELECT p FROM unnest($2::text[]) p WHERE has_table_privilege($1, c."oid", p)) AS held
     FROM pg_class c JOIN pg_namespace n ON n."oid" = c."relnamespace"
     WHERE n."nspname" = 'public' AND c."relkind" IN ('r', 'p') AND pg_has_role(c."relowner", current_user, 'USAGE') AND c."relowner" <> (SELECT "oid" FROM pg_roles WHERE "rolname" = $1)
     ORDER BY 1`,
    [app, ALL_PRIVILEGES],
  );
  for (const { name, held } of tables) {
    const wanted: readonly Privilege[] = LIMITED[name] ?? ROW_PRIVILEGES;
    const missing = wanted.filter((p) => !held.includes(p));
    const extra = held.filter((p) => !wanted.includes(p));
    if (missing.length) await tx.query(`GRANT ${missing.join(', ')} ON TABLE public.${quoted(name)} TO ${quoted(app)}`);
    if (extra.length) await tx.query(`REVOKE ${extra.join(', ')} ON TABLE public.${quoted(name)} FROM ${quoted(app)}`);
  }
  // bigserial keys (nextval needs USAGE); no setval.
  await tx.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${quoted(app)}`);
  // The purge is the app's to call (on schedule); nobody else's.
  await tx.query('REVOKE ALL ON FUNCTION icrs_audit_purge() FROM PUBLIC');
  await tx.query(`GRANT EXECUTE ON FUNCTION icrs_audit_purge() TO ${quoted(app)}`);
  // The restore's mark (server/ops/restoreMark.ts) is read at start.
  const [ops] = await tx.query<{ mine: boolean }>(
    `SELECT pg_has_role(n."nspowner", current_user, 'USAGE') AS mine FROM pg_namespace n WHERE n."nspname" = $1`,
    [OPS_SCHEMA],
  );
  if (ops?.mine) {
    await tx.query(`GRANT USAGE ON SCHEMA ${quoted(OPS_SCHEMA)} TO ${quoted(app)}`);
    await tx.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${quoted(OPS_SCHEMA)} TO ${quoted(app)}`);
  }
}

/** The start as the app's role alone, on tables another role owns and migrated: refused while a
 * migration is to apply; warned when the stored retention is not AUDIT_RETENTION_DAYS (the app's
 * role cannot write it). */
async function startWithoutOwner(db: Db, config: Config, migrations: Migration[], owner: string): Promise<string | undefined> {
  const pending = await pendingMigrations(db, migrations);
  if (pending.length)
    throw new Error(
      `the tables belong to the database role "${owner}" and ${pending.length} migration(s) are to apply (${pending.join(', ')}): run \`npm run migrate\` with DATABASE_OWNER_URL set to a connection as "${owner}", or start the server with it (${ROLES_HELP})`,
    );
  const [stored] = await db.query<{ value: string }>(`SELECT "value" FROM "${AUDIT_SETTINGS_TABLE}" WHERE "key" = 'retentionDays'`);
  const days = Number(stored?.value ?? 0);
  return days === config.auditRetentionDays
    ? undefined
    : `AUDIT_RETENTION_DAYS is ${config.auditRetentionDays} but the owner stored ${days} (0: forever), which the purge applies: run \`npm run migrate\` with this AUDIT_RETENTION_DAYS and DATABASE_OWNER_URL (${ROLES_HELP})`;
}

/**
 * A migration may rewrite every row of a large table (a backfill, an index): minutes on a
 * million rows. It runs on a connection without the requests' statement timeout, so that an
 * upgrade is not cancelled half-way and the server refused its start (docs/operations.md
 * "Upgrades"); the other limits stay.
 */
const MIGRATION_TIMEOUTS = { statementTimeoutMs: 0 } as const;

async function withMigrationConnection<T>(config: Config, databaseUrl: string | undefined, work: (db: Db) => Promise<T>): Promise<T> {
  const migrating = await openDb({ ...config, databaseUrl, ...MIGRATION_TIMEOUTS });
  try {
    return await work(migrating);
  } finally {
    await migrating.close();
  }
}

/**
 * Migrates the database of `db` (the app's connection) and answers a warning for the log, if
 * any. With DATABASE_OWNER_URL, the owner's connection migrates and grants, and the start is
 * refused when the app's role could act as the owner anyway (the separation would be void).
 */
export async function prepareDatabase(db: Db, config: Config, migrations: Migration[] = coreMigrations): Promise<string | undefined> {
  const retention = (tx: Queryable) => writeRetention(tx, config.auditRetentionDays);
  if (db.kind === 'pglite' || !config.databaseOwnerUrl) {
    if (db.kind === 'postgres') {
      const held = await auditOwnership(db);
      // The tables are another role's: migrated beforehand by `npm run migrate`, so that the
      // server never holds the owner's password (README "Running against PostgreSQL").
      if (held && !held.ownsIt) {
        if (!held.granted)
          throw new Error(
            `the tables belong to the database role "${held.owner}" and DATABASE_URL's role was not granted them (a restore, or never migrated with two roles): run \`npm run migrate\` with DATABASE_OWNER_URL set to a connection as "${held.owner}", or start the server with it (${ROLES_HELP})`,
          );
        return startWithoutOwner(db, config, migrations, held.owner);
      }
    }
    if (db.kind === 'pglite') {
      await migrate(db, migrations, retention);
      return undefined;
    }
    await withMigrationConnection(config, config.databaseUrl, (migrating) => migrate(migrating, migrations, retention));
    const held = await auditOwnership(db);
    const { name } = await roleOf(db);
    return held?.ownsIt
      ? `the database role "${name}" ${held.superuser ? 'is a superuser' : 'owns the audit tables'}: the audit log is not protected against the server itself; connect as a role of its own and set DATABASE_OWNER_URL to the owner (${ROLES_HELP})`
      : undefined;
  }
  const app = await roleOf(db);
  const ownerDb = await openDb({ ...config, databaseUrl: config.databaseOwnerUrl, ...MIGRATION_TIMEOUTS });
  try {
    const owner = await roleOf(ownerDb);
    const [member] = await db.query<{ is: boolean }>(`SELECT pg_has_role(current_user, $1, 'USAGE') AS "is"`, [owner.name]);
    if (app.superuser || member?.is)
      throw new Error(
        `DATABASE_URL's role "${app.name}" ${app.superuser ? 'is a superuser' : `can act as DATABASE_OWNER_URL's role "${owner.name}"`}: the audit log would not be protected against the server; connect the app as a role that is neither (${ROLES_HELP})`,
      );
    const held = await auditOwnership(ownerDb);
    if (held && !held.ownsIt)
      throw new Error(
        `the tables belong to the database role "${held.owner}", not to DATABASE_OWNER_URL's "${owner.name}": make "${held.owner}" the owner role, or give its tables to "${owner.name}" (REASSIGN OWNED, ${ROLES_HELP})`,
      );
    await migrate(ownerDb, migrations, async (tx) => {
      await retention(tx);
      await grantApp(tx, app.name);
    });
  } finally {
    await ownerDb.close();
  }
  return undefined;
}
