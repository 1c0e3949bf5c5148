// The restore drill (issue 29): a database filled like a programme's (demo records, their audit
// entries, image bytes) is backed up with the functions `npm run backup` uses, dropped, restored
// with those of `npm run restore`, and every table comes back byte for byte. The refusals
// (a backup newer than the code, a target that holds data, a running server) change nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { LOCK_FILE } from '../../server/lib/dataDirLock';
import { TokenService } from '../../server/lib/tokens';
import { backup, type BackupResult } from '../../server/ops/backup';
import { backupFileName, codeVersion, migrationsFromScript } from '../../server/ops/backupFile';
import { restore, restoreReport } from '../../server/ops/restore';
import { backends } from '../helpers/db';
import {
  drillDatabase,
  fillDatabase,
  imageHashes,
  tableHashes,
  withDb,
  type DrillDatabase,
  type Filled,
  type TableHash,
} from '../helpers/backup';

/** A PGlite restore and the look at its result: seconds, a minute on a busy machine. */
const DRILL_MS = 60_000;
const work = mkdtempSync(path.join(tmpdir(), 'icrs-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('backup files (no database)', () => {
  it('are named with the UTC time to the second and the schema version', () => {
    const at = new Date(Date.UTC(2026, 10, 27, 20, 30, 0, 456));
    expect(backupFileName('postgres', '0020-audit-log', at)).toBe('icrs-20261127T203000Z-0020-audit-log.dump');
    expect(backupFileName('pglite', '0020-audit-log', at)).toBe('icrs-20261127T203000Z-0020-audit-log.tar.gz');
  });

  it('give their migrations through the COPY data pg_restore writes', () => {
    const script = [
      '-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: icrs',
      '',
      'COPY public.schema_migrations ("appliedAt", id) FROM stdin;',
      '2026-11-27 20:30:00+00\t0001-entities',
      '2026-11-27 20:30:00+00\t0002-tab\\there',
      '\\.',
      '',
    ].join('\n');
    expect(migrationsFromScript(script)).toEqual(['0001-entities', '0002-tab\there']);
    expect(migrationsFromScript('-- no data\n')).toBeNull();
  });

  it('tell, once restored, that an older one is migrated forward at the next start', () => {
    const report = restoreReport({
      kind: 'pglite',
      file: '/b/icrs-x.tar.gz',
      into: 'the embedded database in /d',
      version: '0018-password-failures',
      codeVersion: codeVersion(),
      counts: { users: 1, clients: 2, providers: 3, services: 4, jobs: 5, referrals: 6, 'job referrals': 7, 'images and files': 8 },
      movedAside: '/d.before-restore-x',
      seconds: 1.2,
    });
    expect(report).toContain(
      'Restored icrs-x.tar.gz (schema 0018-password-failures) into the embedded database in /d in 1.2 s: users 1, clients 2, providers 3',
    );
    expect(report).toContain('The previous data folder was moved to /d.before-restore-x');
    expect(report).toContain('Every session signed in before the restore is over');
    expect(report).toContain(`older than this code's (${codeVersion()}): the server migrates it forward at its next start`);
  });
});

describe.each(backends)('backup and restore on %s', (backend) => {
  const dir = path.join(work, backend, 'backups');
  const databases: DrillDatabase[] = [];
  const made = async (name: string) => {
    const database = await drillDatabase(backend, path.join(work, backend), name);
    databases.push(database);
    return database;
  };
  let source: DrillDatabase;
  let target: DrillDatabase;
  let filled: Filled;
  let before: Record<string, TableHash>;
  let good: BackupResult;
  let future: BackupResult;
  const hashesOf = (database: DrillDatabase) => withDb(database, tableHashes);

  beforeAll(async () => {
    source = await made('source');
    [filled, before] = await withDb(source, async (db) => {
      const result = await fillDatabase(db, { scale: 0.2, images: 6, imageKb: 96 });
      return [result, await tableHashes(db)] as const;
    });
    good = await backup(source.target, { dir });
    // The same database as a newer release would leave it: one migration this code does not know.
    await withDb(source, (db) => db.query(`INSERT INTO "schema_migrations" ("id") VALUES ('9999-future')`));
    future = await backup(source.target, { dir });
    await source.drop();
  }, 120_000);
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('writes one complete file, named with its UTC time and schema version', () => {
    const extension = backend === 'postgres' ? '.dump' : '.tar.gz';
    expect(path.basename(good.file)).toMatch(new RegExp(`^icrs-\\d{8}T\\d{6}Z-${codeVersion()}${extension.replace('.', '\\.')}$`));
    expect(path.basename(future.file)).toMatch(/^icrs-\d{8}T\d{6}Z-9999-future\./);
    expect(good).toMatchObject({ kind: backend, version: codeVersion() });
    // Random image bytes do not compress: the file holds them all.
    expect(good.bytes).toBeGreaterThan(filled.imageBytes);
    expect(readdirSync(dir).sort()).toEqual([path.basename(good.file), path.basename(future.file)].sort());
  });

  it('the drill data is what it should be: demo records, every byte value, a few hundred KB of images', () => {
    expect(filled.demo.profile).toBe(40);
    expect(filled.imageBytes).toBeGreaterThanOrEqual(500 * 1024);
    expect(Object.keys(filled.images)).toHaveLength(6);
    expect(before.images?.rows).toBe(6);
    expect(before.users?.rows).toBe(1);
    expect(before.audit_log?.rows).toBeGreaterThan(200);
  });

  it(
    'restores every table, byte for byte, into a new empty database',
    async () => {
      target = await made('target');
      const restored = await restore(target.target, good.file);
      expect(restored).toMatchObject({ kind: backend, version: codeVersion() });
      expect(restored.movedAside).toBeUndefined();
      expect(restored.counts).toMatchObject({ users: 1, clients: 40, providers: 10, 'images and files': 6 });
      const after = await hashesOf(target);
      expect(Object.keys(after).length).toBeGreaterThan(20);
      expect(after).toEqual(before);
      expect(await withDb(target, imageHashes)).toEqual(filled.images);
    },
    DRILL_MS,
  );

  it(
    'refuses a backup newer than the code, naming both versions, and changes nothing',
    async () => {
      await expect(restore(target.target, future.file, { force: true })).rejects.toThrow(
        new RegExp(`newer than the code: its schema version is 9999-future, this ICRS knows up to ${codeVersion()}`),
      );
      expect(await hashesOf(target)).toEqual(before);
      expect(readdirSync(path.join(work, backend)).filter((name) => /restoring|before-restore/.test(name))).toEqual([]);
    },
    DRILL_MS,
  );

  it(
    'refuses to overwrite a database that holds data without --force, and changes nothing',
    async () => {
      await expect(restore(target.target, good.file)).rejects.toThrow(/holds data \(rows in .*\): the restore would replace it.*--force/);
      expect(await hashesOf(target)).toEqual(before);
    },
    DRILL_MS,
  );

  it(
    'replaces it with --force',
    async () => {
      await withDb(target, (db) => db.query(`INSERT INTO "settings" ("key", "value") VALUES ('after-the-backup', 'x')`));
      const restored = await restore(target.target, good.file, { force: true, now: new Date(Date.UTC(2026, 10, 27, 20, 30)) });
      expect(await hashesOf(target)).toEqual(before);
      if (backend === 'pglite') {
        // The old folder is kept aside, whole, and holds no lock of this process.
        expect(restored.movedAside).toBe(`${path.resolve(target.target.dataDir)}.before-restore-20261127T203000Z`);
        expect(existsSync(path.join(restored.movedAside as string, 'PG_VERSION'))).toBe(true);
        expect(existsSync(path.join(restored.movedAside as string, LOCK_FILE))).toBe(false);
        expect(existsSync(path.join(target.target.dataDir, LOCK_FILE))).toBe(false);
      }
    },
    DRILL_MS,
  );

  it(
    "ends every session signed before the restore, and only those; the restored tables stay the backup's",
    async () => {
      const [secret, admin] = await withDb(
        target,
        async (db) =>
          [
            (await db.query<{ value: string }>(`SELECT "value" FROM "settings" WHERE "key" = 'jwtSecret'`))[0]?.value as string,
            (await db.query<{ userId: string; tokenVersion: number }>(`SELECT "userId", "tokenVersion" FROM "users" WHERE "role" = 1`))[0],
          ] as const,
      );
      const claims = { sub: admin?.userId as string, role: 1, ver: admin?.tokenVersion as number, sid: 'signed-in-before-the-restore' };
      const signedBefore = await new TokenService(secret, 3600).sign(claims);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // tokens carry their issue time in whole seconds
      await restore(target.target, good.file, { force: true });
      expect(await hashesOf(target)).toEqual(before);
      // The mark is rounded up to its whole second (a token of that second is refused): sign the
      // new token after it.
      await new Promise((resolve) => setTimeout(resolve, 1_100));

      const server = await buildApp({ ...configFromEnv({}), ...target.target, jwtSecret: undefined, staticDir: null, logLevel: 'silent' });
      try {
        const ask = async (token: string) =>
          server.app.inject({ method: 'GET', url: '/api/lists', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
        const refused = await ask(signedBefore);
        expect([refused.statusCode, refused.json().message]).toEqual([
          401,
          "This session has ended: the server's data was restored from a backup. Please sign in again.",
        ]);
        expect((await ask(await server.tokens.sign({ ...claims, sid: 'signed-in-after-the-restore' }))).statusCode).toBe(200);
      } finally {
        await server.app.close();
      }
    },
    DRILL_MS,
  );

  if (backend === 'pglite') {
    it('refuses a backup folder inside the data folder', async () => {
      await expect(backup(target.target, { dir: path.join(target.target.dataDir, 'backups') })).rejects.toThrow(
        /is inside the data folder .*choose a folder outside it/,
      );
    });

    it('refuses to back up or restore the folder while a server holds it', async () => {
      const lock = path.join(target.target.dataDir, LOCK_FILE);
      // A live process that is not this one (the test runner's parent) holds the folder.
      writeFileSync(lock, JSON.stringify({ pid: process.ppid, holder: 'the ICRS server', since: new Date().toISOString() }));
      try {
        await expect(backup(target.target, { dir })).rejects.toThrow(
          /in use by the ICRS server \(process \d+.*stop the server first, or use PostgreSQL for online backups/,
        );
        await expect(restore(target.target, good.file, { force: true })).rejects.toThrow(
          /in use by the ICRS server .*stop the server first/,
        );
      } finally {
        rmSync(lock);
      }
    });
  } else {
    it('refuses to restore while another session uses the database', async () => {
      const other = new pg.Client({ connectionString: target.target.databaseUrl });
      await other.connect();
      try {
        await expect(restore(target.target, good.file, { force: true })).rejects.toThrow(
          /1 other session\(s\) are connected .*stop every ICRS server/,
        );
      } finally {
        await other.end();
      }
      expect(await hashesOf(target)).toEqual(before);
    });
  }
});

describe('npm run restore', () => {
  it('says so in one line, with exit code 1, when the file is missing', () => {
    const missing = path.join(work, 'no-such-backup.dump');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', missing], {
      env: { ...process.env, DATA_DIR: path.join(work, 'cli-data'), DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`Restore failed: No backup file at ${missing}`);
    expect(run.stdout).toBe('');
    expect(existsSync(path.join(work, 'cli-data'))).toBe(false);
  });
});
