// The audit log holds against the server itself (docs/security.md "Audit log"), on a real
// database: on PostgreSQL the server runs as an app role that owns nothing (DATABASE_URL) beside
// the owner role that migrates (DATABASE_OWNER_URL), both made for this file; on PGlite there is
// one superuser. As the app's connection: no session setting opens the audit tables, a trigger
// can be neither dropped nor disabled, the purge goes only as far as the owner's retention, and
// a client's values go only when its profile row is marked erased.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import type { Queryable } from '../../server/db/index';
import { coreMigrations } from '../../server/db/migrations';
import { purgeAudit } from '../../server/plugins/audit/retention';
import { backends, createScratchDatabase, queryAs } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
type Body = Record<string, unknown>;

describe.each(backends)('audit log against the server itself on %s', (backend) => {
  let t: TestServer;
  let token: string;
  const postgres = backend === 'postgres';
  /** With two roles the app's role lacks the privilege; on PGlite the guards refuse. */
  const refused = postgres ? /permission denied|must be owner/ : /append-only/;
  const ok = (status: number) => (r: { status: number; body: unknown }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r;
  };
  const count = async (sql: string, params: unknown[] = []) =>
    (await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]?.n ?? -1;
  const valuesOf = (client: string) => count('"audit_values" WHERE "clientId" = $1', [client]);

  /** A client of organisation A, changed once so that the log holds its values. */
  async function client(): Promise<string> {
    const body: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC'), firstName: 'Amani' };
    ok(201)(await t.api('POST', '/profile/', { token, body }));
    const id = String(body.prof_Id);
    const row = (await t.api('GET', `/profile/${id}`, { token })).body as Body;
    ok(200)(await t.api('PUT', `/profile/${id}`, { token, body: { middleName: 'Amanison', updatedAt: row.updatedAt } }));
    expect(await valuesOf(id)).toBeGreaterThan(0);
    return id;
  }

  beforeAll(async () => {
    t = await startTestServer({ backend, roles: 'two', config: { auditRetentionDays: 30 } });
    await ensureOrganisations(t.server.db);
    await t.createUser({ userName: 'roles-a3', password: 'password-a3', role: 3, location: A });
    token = await t.login('roles-a3', 'password-a3');
  }, 120_000);
  afterAll(() => t?.close());

  it('runs as a role that owns no table and is no superuser (PostgreSQL)', async () => {
    if (!postgres) return;
    const [role] = await t.server.db.query<{ super: boolean; owns: number }>(
      `SELECT r."rolsuper" AS super, (SELECT count(*)::int FROM pg_tables WHERE "tableowner" = current_user) AS owns
       FROM pg_roles r WHERE r."rolname" = current_user`,
    );
    expect(role).toEqual({ super: false, owns: 0 });
    const [owner] = await t.asOwner<{ owner: string; me: string }>(
      `SELECT pg_get_userbyid(c."relowner") AS owner, current_user AS me FROM pg_class c WHERE c."oid" = '"audit_log"'::regclass`,
    );
    expect(owner?.owner).toBe(owner?.me);
  });

  it('deletes nothing after set_config, of the log or of a client value', async () => {
    const id = await client();
    const entries = await count('"audit_log"');
    const values = await count('"audit_values"');
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('icrs.retention_days', '0', true)");
        await tx.query('DELETE FROM "audit_log"');
      }),
    ).rejects.toThrow(refused);
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('icrs.retention_days', '-1', true)");
        await tx.query('DELETE FROM "audit_values"');
      }),
    ).rejects.toThrow(refused);
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('icrs.erasing', $1, true)", [id]);
        await tx.query('DELETE FROM "audit_values" WHERE "clientId" = $1', [id]);
      }),
    ).rejects.toThrow(refused);
    // Nor through the erasure's own function, for a client whose row is not marked erased.
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query('SELECT icrs_audit_erase($1, $2)', [id, 'a reason']);
        await tx.query('DELETE FROM "audit_values" WHERE "clientId" = $1', [id]);
      }),
    ).rejects.toThrow(refused);
    expect(await count('"audit_log"')).toBe(entries);
    expect(await count('"audit_values"')).toBe(values);
  });

  it('lets no one but the owner drop, disable or get past a trigger (PostgreSQL; on PGlite the server is a superuser)', async () => {
    if (!postgres) return;
    const entries = await count('"audit_log"');
    for (const statement of [
      'DROP TRIGGER "audit_log_append_only" ON "audit_log"',
      'ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_append_only"',
      'ALTER TABLE "audit_values" DISABLE TRIGGER ALL',
      'ALTER TABLE "tbl_profiles" DISABLE TRIGGER "tbl_profiles_audit"',
      'TRUNCATE "audit_log" CASCADE',
      'TRUNCATE "audit_values"',
      'ALTER TABLE "audit_log" OWNER TO CURRENT_USER',
      'CREATE TRIGGER "x" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION icrs_audit_append_only()',
      `CREATE OR REPLACE FUNCTION icrs_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$`,
      `UPDATE "audit_settings" SET "value" = '1'`,
      "SET session_replication_role = 'replica'",
    ])
      await expect(t.server.db.query(statement), statement).rejects.toThrow(/permission denied|must be owner/);
    // A grant to itself grants nothing (a warning, not an error): the delete is still refused.
    await t.server.db.query('GRANT DELETE ON "audit_log" TO CURRENT_USER').catch(() => undefined);
    await expect(t.server.db.query('DELETE FROM "audit_log"')).rejects.toThrow(refused);
    // The owner's marker, imitated by the app's role, opens nothing.
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query(`CREATE TEMP TABLE icrs_audit_unlock ("what" text NOT NULL) ON COMMIT DROP`);
        await tx.query(`INSERT INTO pg_temp.icrs_audit_unlock VALUES ('purge')`);
        await tx.query('DELETE FROM "audit_log"');
      }),
    ).rejects.toThrow(refused);
    // The scrub runs only as the trigger of an erased profile row.
    await expect(t.server.db.query('SELECT icrs_audit_scrub()')).rejects.toThrow(/trigger/);
    expect(await count('"audit_log"')).toBe(entries);
  });

  it("purges as the app's role only what the owner's retention allows", async () => {
    const aged = async (days: number, client: string) => {
      const [entry] = await t.server.db.query<{ id: string }>(
        `INSERT INTO "audit_log" ("at", "userName", "action", "entity", "recordId", "clientId")
         VALUES (now() - make_interval(days => $1), 'old', 'update', 'profile', $2, $2) RETURNING "id"::text AS id`,
        [days, client],
      );
      await t.server.db.query('INSERT INTO "audit_values" ("entryId", "clientId", "note") VALUES ($1, $2, $3)', [
        entry?.id,
        client,
        'a value',
      ]);
      return entry?.id;
    };
    const old = await aged(40, 'purge-old');
    const recent = await aged(10, 'purge-recent');
    const entries = await count('"audit_log"');
    // AUDIT_RETENTION_DAYS=30, written by the owner at start; the app's setting changes nothing.
    const gone = await t.server.db.transaction(async (tx) => {
      await tx.query("SELECT set_config('icrs.retention_days', '1', true)");
      return purgeAudit(tx);
    });
    expect(gone).toBe(1);
    expect(await count('"audit_log"')).toBe(entries - 1);
    expect(await count('"audit_log" WHERE "id" = ANY($1::bigint[])', [[old, recent]])).toBe(1);
    expect(await valuesOf('purge-old')).toBe(0);
    expect(await valuesOf('purge-recent')).toBe(1);
    expect(await purgeAudit(t.server.db)).toBe(0);
  });

  it("scrubs a client's values when, and only when, its profile row is marked erased", async () => {
    const living = await client();
    const before = await valuesOf(living);
    // Labelled as an erasure, a living client's change still keeps its values in the log.
    await t.server.db.transaction(async (tx) => {
      await tx.query('SELECT icrs_audit_erase($1, $2)', [living, 'not really']);
      await tx.query(`UPDATE "tbl_profiles" SET "middleName" = 'Changed' WHERE "prof_Id" = $1`, [living]);
    });
    expect(await valuesOf(living)).toBe(before + 1);
    const [last] = await t.server.db.query<Body>(`SELECT "action" FROM "audit_log" WHERE "recordId" = $1 ORDER BY "id" DESC LIMIT 1`, [
      living,
    ]);
    expect(last?.action).toBe('update');
    await expect(t.server.db.query('SELECT icrs_audit_erase($1, $2)', ['no-such-client', 'x'])).rejects.toThrow(/no client/);

    // The erasure (as server/plugins/audit/handover.ts makes it): values gone, the entry says why.
    const erased = await client();
    await t.server.db.transaction(async (tx) => {
      await tx.query('SELECT icrs_audit_erase($1, $2)', [erased, 'asked in writing']);
      await tx.query(`UPDATE "tbl_profiles" SET "firstName" = '-', "middleName" = NULL, "erasedAt" = now() WHERE "prof_Id" = $1`, [erased]);
    });
    expect(await valuesOf(erased)).toBe(0);
    const [entry] = await t.server.db.query<Body>(
      `SELECT a."action", a."note", v."entryId" FROM "audit_log" a LEFT JOIN "audit_values" v ON v."entryId" = a."id"
       WHERE a."recordId" = $1 ORDER BY a."id" DESC LIMIT 1`,
      [erased],
    );
    expect(entry).toEqual({ action: 'erase', note: 'asked in writing', entryId: null });
    expect(await valuesOf(living)).toBe(before + 1); // another client's values stay
    // And over HTTP, as the route erases: the values go, the entries stay, as the app's role.
    const byRoute = await client();
    const adminToken = await t.login(t.admin.userName, t.admin.password);
    ok(200)(
      await t.api('POST', `/profile/${byRoute}/erase`, {
        token: adminToken,
        body: { reasonCode: 'clientRequest', note: 'asked at the office', password: t.admin.password },
      }),
    );
    expect(await valuesOf(byRoute)).toBe(0);
    expect(await count(`"audit_log" WHERE "recordId" = $1 AND "action" = 'erase'`, [byRoute])).toBe(1);
    expect(await count(`"audit_log" WHERE "recordId" = $1 AND "action" = 'update'`, [byRoute])).toBe(1);
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query('SELECT icrs_audit_erase($1, $2)', [erased, 'again']);
      }),
    ).rejects.toThrow(/no client/);
  });

  it('is dumped whole by pg_dump as the owner role (backups, PostgreSQL)', async () => {
    if (!postgres || !t.config.databaseOwnerUrl) return;
    const dump = spawnSync('pg_dump', ['--schema-only', `--dbname=${t.config.databaseOwnerUrl}`], { encoding: 'utf8', timeout: 60_000 });
    expect(dump.status, dump.stderr).toBe(0);
    expect(dump.stdout).toContain('CREATE FUNCTION public.icrs_audit_purge()');
    expect(dump.stdout).toMatch(/CREATE TRIGGER audit_log_append_only/);
  });
});

describe.runIf(backends.includes('postgres'))('PostgreSQL roles at start', () => {
  it('warns when the server runs as one role that owns the audit log, refuses an owner URL the app could act as, and starts as the app alone on migrated tables', async () => {
    const lines: string[] = [];
    const one = await startTestServer({
      backend: 'postgres',
      roles: 'one',
      logStream: { write: (line) => void lines.push(line) },
      config: { logLevel: 'warn' },
    });
    try {
      expect(lines.join('\n')).toMatch(/audit log is not protected against the server itself/);
    } finally {
      await one.close();
    }
    const scratch = await createScratchDatabase({ roles: 'two' });
    try {
      // The app's URL given as the owner's too: the same role on both sides.
      const { buildApp } = await import('../../server/app');
      const { configFromEnv } = await import('../../server/config');
      const config = { ...configFromEnv({}), dataDir: 'memory://', logLevel: 'silent', staticDir: null };
      await expect(buildApp({ ...config, databaseUrl: scratch.ownerUrl, databaseOwnerUrl: scratch.ownerUrl })).rejects.toThrow(
        /can act as/,
      );
      // Started once with two roles, the tables are the owner's: the app's role alone starts on
      // them, without warning (the owner's password kept out of the server), while no migration
      // is to apply; one more migration is refused, for `npm run migrate` to apply.
      const two = await buildApp({ ...config, databaseUrl: scratch.url, databaseOwnerUrl: scratch.ownerUrl });
      await two.app.close();
      const quiet: string[] = [];
      const alone = await buildApp(
        { ...config, logLevel: 'warn', databaseUrl: scratch.url },
        { logStream: { write: (line) => void quiet.push(line) } },
      );
      await alone.app.close();
      expect(quiet.join('\n')).not.toMatch(/not protected|AUDIT_RETENTION_DAYS/);
      const next = [...coreMigrations, { id: '9999-next-release', up: async () => undefined }];
      await expect(buildApp({ ...config, databaseUrl: scratch.url }, { migrations: next })).rejects.toThrow(/npm run migrate/);
      // So is the table of an entity declared since the database was made (docs/adr/0050-a-new-entity.md
      // "Tables of a new entity"): the owner's start makes it, and grants it to the app's role.
      await queryAs(scratch.ownerUrl as string, 'DROP TABLE "jobreferral" CASCADE');
      await expect(buildApp({ ...config, databaseUrl: scratch.url })).rejects.toThrow(/\(0001-entities\/jobreferral\).*npm run migrate/);
      const remade = await buildApp({ ...config, databaseUrl: scratch.url, databaseOwnerUrl: scratch.ownerUrl });
      try {
        expect(await remade.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "jobreferral"')).toEqual([{ n: 0 }]);
      } finally {
        await remade.app.close();
      }
      // After a restore (pg_restore --no-privileges) the app's role holds nothing: told to migrate.
      const appRole = new URL(scratch.url).username;
      await queryAs(scratch.ownerUrl as string, `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "${appRole}"`);
      await expect(buildApp({ ...config, databaseUrl: scratch.url })).rejects.toThrow(/was not granted them.*npm run migrate/);
      await (await buildApp({ ...config, databaseUrl: scratch.url, databaseOwnerUrl: scratch.ownerUrl })).app.close();
      // A retention the app's role cannot write is told at start, not applied.
      const lines: string[] = [];
      const other = await buildApp(
        { ...config, logLevel: 'warn', auditRetentionDays: 5, databaseUrl: scratch.url },
        { logStream: { write: (line) => void lines.push(line) } },
      );
      await other.app.close();
      expect(lines.join('\n')).toMatch(/AUDIT_RETENTION_DAYS is 5 but the owner stored 0/);
      // A later migration's table is granted to the app's role like the others.
      const later = [
        ...coreMigrations,
        {
          id: '9999-later-table',
          up: async (tx: Queryable) => void (await tx.query('CREATE TABLE "later_table" ("id" text PRIMARY KEY)')),
        },
      ];
      const upgraded = await buildApp({ ...config, databaseUrl: scratch.url, databaseOwnerUrl: scratch.ownerUrl }, { migrations: later });
      try {
        await upgraded.db.query(`INSERT INTO "later_table" VALUES ('x')`);
        await upgraded.db.query(`UPDATE "later_table" SET "id" = 'y'`);
        await upgraded.db.query(`DELETE FROM "later_table"`);
        await expect(upgraded.db.query('DROP TABLE "later_table"')).rejects.toThrow(/must be owner/);
      } finally {
        await upgraded.app.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 120_000);

  it("migrates without the requests' statement timeout, with one role or two, and the requests keep theirs", async () => {
    const { buildApp } = await import('../../server/app');
    const { configFromEnv } = await import('../../server/config');
    const config = { ...configFromEnv({}), dataDir: 'memory://', logLevel: 'silent', staticDir: null, statementTimeoutMs: 300 };
    // A migration longer than DB_STATEMENT_TIMEOUT_MS: a backfill of a large table.
    const slow = (id: string) => [...coreMigrations, { id, up: async (tx: Queryable) => void (await tx.query('SELECT pg_sleep(1)')) }];
    for (const roles of ['one', 'two'] as const) {
      const scratch = await createScratchDatabase({ roles });
      try {
        const urls = { databaseUrl: scratch.url, databaseOwnerUrl: scratch.ownerUrl };
        const started = await buildApp({ ...config, ...urls }, { migrations: slow('9999-slow-backfill') });
        try {
          const applied = await started.db.query<{ id: string }>(`SELECT "id" FROM "schema_migrations" WHERE "id" = '9999-slow-backfill'`);
          expect(applied).toHaveLength(1);
          await expect(started.db.query('SELECT pg_sleep(1)')).rejects.toThrow(/statement timeout/);
        } finally {
          await started.app.close();
        }
      } finally {
        await scratch.drop();
      }
    }
  }, 120_000);
});
