// The restore drill (ADR-0037): a database filled like a programme's (demo records, their audit
// entries, image bytes) is backed up with the functions `npm run backup` uses, dropped, restored
// with those of `npm run restore`, and every table comes back byte for byte, but for the secret
// tables, whose data no backup holds. The refusals (a backup newer than the code, a target that
// holds data, a running server, a wrong key, a file cut short) change nothing.
// Backups are encrypted (age) unless made plain on purpose; the embedded backup is a copy of the
// live rows only (docs/security.md "Operations").
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { Decrypter, generateIdentity, identityToRecipient } from 'age-encryption';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { configFromEnv } from '../../server/config';
import { LOCK_FILE, holdDataDir } from '../../server/lib/dataDirLock';
import { TokenService } from '../../server/lib/tokens';
import { backup, type BackupResult } from '../../server/ops/backup';
import { backupFileName, codeVersion, migrationsFromScript } from '../../server/ops/backupFile';
import { backupKeyFromEnv, decryptStream, encryptStream, restoreKeyFromEnv, type BackupKey } from '../../server/ops/encryption';
import { runTool } from '../../server/ops/pgTools';
import { restore, restoreReport } from '../../server/ops/restore';
import { SECRET_TABLES } from '../../server/ops/secrets';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer } from '../helpers/server';
import {
  drillDatabase,
  fillDatabase,
  imageHashes,
  sha256,
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

const PASSPHRASE = 'drill-passphrase-0123456789';
const KEY: BackupKey = { kind: 'passphrase', passphrase: PASSPHRASE };
const PLAIN: BackupKey = { kind: 'plain' };
/** A device secret put in the source: it must be in no backup. */
const DEVICE_SECRET = 'device-secret-that-no-backup-holds-0123';

const mode = (file: string) => statSync(file).mode & 0o777;

/** The fingerprint a restore from a backup gives: the secret tables come back empty. */
function withoutSecrets(hashes: Record<string, TableHash>): Record<string, TableHash> {
  const empty = { rows: 0, sha256: sha256('') };
  return Object.fromEntries(Object.entries(hashes).map(([table, hash]) => [table, SECRET_TABLES.includes(table) ? empty : hash]));
}

/** The plain content of a backup file (decrypted with the drill's passphrase when it is age). */
async function contentOf(file: string): Promise<Buffer> {
  const bytes = readFileSync(file);
  if (!bytes.subarray(0, 21).toString('latin1').startsWith('age-encryption.org/v1')) return bytes;
  const decrypter = new Decrypter();
  decrypter.addPassphrase(PASSPHRASE);
  return Buffer.from(await decrypter.decrypt(bytes));
}

/** The bytes a backup's data is in, to scan: the embedded one unzipped, a dump as pg_restore's SQL. */
async function scannable(file: string): Promise<Buffer> {
  const content = await contentOf(file);
  if (content[0] === 0x1f) return gunzipSync(content);
  const plain = path.join(work, `scan-${Date.now()}.dump`);
  writeFileSync(plain, content, { mode: 0o600 });
  try {
    return (await runTool('pg_restore', ['--file=-', plain])).stdout;
  } finally {
    rmSync(plain);
  }
}

/** A backup as releases before made them of the embedded database: its folder as it stands. */
async function rawTarball(dataDir: string, file: string): Promise<string> {
  const lite = await PGlite.create(dataDir);
  try {
    await lite.query('CHECKPOINT');
    writeFileSync(file, Buffer.from(await (await lite.dumpDataDir('gzip')).arrayBuffer()), { mode: 0o600 });
  } finally {
    await lite.close();
  }
  return file;
}

describe('backup files (no database)', () => {
  it('are named with the UTC time to the second and the schema version', () => {
    const at = new Date(Date.UTC(2026, 10, 27, 20, 30, 0, 456));
    expect(backupFileName('postgres', '0020-audit-log', at)).toBe('icrs-20261127T203000Z-0020-audit-log.dump');
    expect(backupFileName('pglite', '0020-audit-log', at)).toBe('icrs-20261127T203000Z-0020-audit-log.tar.gz');
    expect(backupFileName('postgres', '0020-audit-log', at, true)).toBe('icrs-20261127T203000Z-0020-audit-log.dump.age');
    expect(backupFileName('pglite', '0020-audit-log', at, true)).toBe('icrs-20261127T203000Z-0020-audit-log.tar.gz.age');
  });

  it('are encrypted for age recipients and opened by the identity file; keys are checked before anything is written', async () => {
    const identity = await generateIdentity();
    const recipient = await identityToRecipient(identity);
    const key = backupKeyFromEnv({ BACKUP_RECIPIENTS: `${recipient}, ${await identityToRecipient(await generateIdentity())}` }, false);
    expect(key).toMatchObject({ kind: 'recipients', recipients: [recipient, expect.stringMatching(/^age1/)] });
    const content = Buffer.concat([Buffer.from('PGDMP'), randomBytes(300_000)]);
    const sealed = Buffer.concat(
      await (await encryptStream(Readable.from([content]), key as Exclude<BackupKey, { kind: 'plain' }>)).toArray(),
    );
    expect(sealed.includes(content.subarray(0, 64))).toBe(false);
    const identityFile = path.join(work, 'backup.key');
    writeFileSync(identityFile, `# created: now\n# public key: ${recipient}\n${identity}\n`, { mode: 0o600 });
    const restoreKey = restoreKeyFromEnv({ BACKUP_IDENTITY: identityFile });
    expect(Buffer.concat(await (await decryptStream(Readable.from([sealed]), restoreKey, 'x.dump.age')).toArray()).equals(content)).toBe(
      true,
    );
    // Another identity, or a passphrase, does not open it.
    await expect(decryptStream(Readable.from([sealed]), { identities: [await generateIdentity()] }, 'x.dump.age')).rejects.toThrow(
      /^The key does not open x\.dump\.age/,
    );
    await expect(decryptStream(Readable.from([sealed]), {}, 'x.dump.age')).rejects.toThrow(/x\.dump\.age is encrypted: set BACKUP_KEY/);
    // Refusals, each before any file is made.
    expect(() => backupKeyFromEnv({}, false)).toThrow(/^No backup key: set BACKUP_KEY .* or give --plain/);
    expect(() => backupKeyFromEnv({ BACKUP_KEY: 'short' }, false)).toThrow(/shorter than 16 characters/);
    expect(() => backupKeyFromEnv({ BACKUP_RECIPIENTS: 'age1notakey' }, false)).toThrow(/is not an age X25519 public key/);
    expect(() => backupKeyFromEnv({ BACKUP_KEY: PASSPHRASE, BACKUP_RECIPIENTS: recipient }, false)).toThrow(/set only one/);
    expect(() => backupKeyFromEnv({ BACKUP_KEY: PASSPHRASE }, true)).toThrow(/--plain writes an unencrypted backup/);
    expect(backupKeyFromEnv({}, true)).toEqual({ kind: 'plain' });
    expect(() => restoreKeyFromEnv({ BACKUP_IDENTITY: path.join(work, 'no-such.key') })).toThrow(
      /BACKUP_IDENTITY names .* which cannot be read/,
    );
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
      encrypted: true,
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
  /** Encrypted under KEY, as `npm run backup` makes them. */
  let good: BackupResult;
  /** Unencrypted (--plain). */
  let plain: BackupResult;
  /** PGlite: a raw folder tarball, as releases before made them; PostgreSQL: a plain dump. Both
   * hold one migration this code does not know. */
  let future: { file: string };
  /** PGlite: the same raw tarball, without the future migration. */
  let raw: string;
  let secret: string;
  let futureRefusal: unknown;
  const hashesOf = (database: DrillDatabase) => withDb(database, tableHashes);
  const restoreKey = { passphrase: PASSPHRASE };

  beforeAll(async () => {
    source = await made('source');
    [filled, before, secret] = await withDb(source, async (db) => {
      const result = await fillDatabase(db, { scale: 0.2, images: 6, imageKb: 96 });
      const [admin] = await db.query<{ userId: string }>(`SELECT "userId" FROM "users" WHERE "role" = 1`);
      await db.query(`INSERT INTO "device_secrets" ("userId", "secret", "exportSecret") VALUES ($1, $2, $2)`, [
        admin?.userId,
        DEVICE_SECRET,
      ]);
      const [stored] = await db.query<{ value: string }>(`SELECT "value" FROM "server_secrets" WHERE "key" = 'jwtSecret'`);
      return [result, await tableHashes(db), stored?.value as string] as const;
    });
    good = await backup(source.target, { dir, key: KEY });
    plain = await backup(source.target, { dir, key: PLAIN });
    if (backend === 'pglite') raw = await rawTarball(source.target.dataDir, path.join(work, backend, 'raw-folder.tar.gz'));
    // The same database as a newer release would leave it: one migration this code does not know.
    await withDb(source, (db) => db.query(`INSERT INTO "schema_migrations" ("id") VALUES ('9999-future')`));
    if (backend === 'pglite') {
      futureRefusal = await backup(source.target, { dir, key: PLAIN }).catch((error: unknown) => error);
      future = { file: await rawTarball(source.target.dataDir, path.join(work, backend, 'icrs-raw-9999-future.tar.gz')) };
    } else future = await backup(source.target, { dir, key: PLAIN });
    await source.drop();
  }, 180_000);
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('writes one complete file, named with its UTC time, schema version and encryption, 0600 in a 0700 folder', () => {
    const extension = (backend === 'postgres' ? '.dump' : '.tar.gz').replace('.', '\\.');
    expect(path.basename(good.file)).toMatch(new RegExp(`^icrs-\\d{8}T\\d{6}Z-${codeVersion()}${extension}\\.age$`));
    expect(path.basename(plain.file)).toMatch(new RegExp(`^icrs-\\d{8}T\\d{6}Z-${codeVersion()}(-2)?${extension}$`));
    expect(good).toMatchObject({ kind: backend, version: codeVersion(), encrypted: true });
    expect(plain).toMatchObject({ kind: backend, version: codeVersion(), encrypted: false });
    expect(readFileSync(good.file).subarray(0, 22).toString('latin1')).toBe('age-encryption.org/v1\n');
    // Random image bytes do not compress: the file holds them all.
    expect(good.bytes).toBeGreaterThan(filled.imageBytes);
    const written = backend === 'postgres' ? [good, plain, future as BackupResult] : [good, plain];
    expect(readdirSync(dir).sort()).toEqual(written.map((b) => path.basename(b.file)).sort());
    for (const b of written) expect(mode(b.file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    if (backend === 'postgres') expect(path.basename(future.file)).toMatch(/^icrs-\d{8}T\d{6}Z-9999-future\.dump$/);
  });

  it('holds neither the signing secret nor a device secret, in either form', async () => {
    expect(secret).toMatch(/^[\w-]{40,}$/);
    for (const file of [good.file, plain.file]) {
      const bytes = await scannable(file);
      expect(bytes.length).toBeGreaterThan(100_000);
      expect(bytes.includes(Buffer.from('Administrator')), 'the scan sees the data').toBe(true);
      expect(bytes.includes(Buffer.from(secret)), `the signing secret in ${file}`).toBe(false);
      expect(bytes.includes(Buffer.from(DEVICE_SECRET)), `a device secret in ${file}`).toBe(false);
    }
    if (backend === 'pglite') expect(gunzipSync(readFileSync(raw)).includes(Buffer.from(secret)), 'the raw folder has it').toBe(true);
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
      const restored = await restore(target.target, good.file, { key: restoreKey });
      expect(restored).toMatchObject({ kind: backend, version: codeVersion(), encrypted: true });
      expect(restored.movedAside).toBeUndefined();
      expect(restored.counts).toMatchObject({ users: 1, clients: 40, providers: 10, 'images and files': 6 });
      const after = await hashesOf(target);
      expect(Object.keys(after).length).toBeGreaterThan(20);
      expect(after).toEqual(withoutSecrets(before));
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
      expect(await hashesOf(target)).toEqual(withoutSecrets(before));
      expect(readdirSync(path.join(work, backend)).filter((name) => /restoring|before-restore/.test(name))).toEqual([]);
    },
    DRILL_MS,
  );

  it(
    'refuses to overwrite a database that holds data without --force, and changes nothing',
    async () => {
      await expect(restore(target.target, good.file, { key: restoreKey })).rejects.toThrow(
        /holds data \(rows in .*\): the restore would replace it.*--force/,
      );
      expect(await hashesOf(target)).toEqual(withoutSecrets(before));
    },
    DRILL_MS,
  );

  it(
    'refuses a wrong key, a missing key and a file cut short, in one line each, and changes nothing',
    async () => {
      await expect(restore(target.target, good.file, { force: true, key: { passphrase: 'not-the-passphrase-at-all' } })).rejects.toThrow(
        /^The key does not open icrs-.*\.age: BACKUP_KEY or BACKUP_IDENTITY is not the one it was encrypted with$/,
      );
      await expect(restore(target.target, good.file, { force: true })).rejects.toThrow(
        /is encrypted: set BACKUP_KEY .* or BACKUP_IDENTITY/,
      );
      // Cut in the middle, and near the end (after the rows a first look reads): the whole file is
      // read before anything changes.
      for (const [name, from, kept] of [
        ['cut.age', good.file, 0.6],
        ['cut-late.age', good.file, 0.97],
        ['cut-plain', plain.file, 0.6],
        ['cut-plain-late', plain.file, 0.97],
      ] as const) {
        const cut = path.join(work, backend, name);
        const bytes = readFileSync(from);
        writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * kept)));
        const error = (await restore(target.target, cut, { force: true, key: restoreKey }).catch((e: unknown) => e)) as Error;
        expect(error.message, name).toMatch(new RegExp(`^${name.replace('.', '\\.')} is truncated or damaged`));
        expect(error.message).not.toContain('\n');
      }
      expect(await hashesOf(target)).toEqual(withoutSecrets(before));
    },
    DRILL_MS,
  );

  it(
    'replaces it with --force, from a plain backup, and on PGlite from a raw folder tarball of releases before',
    async () => {
      await withDb(target, (db) => db.query(`INSERT INTO "settings" ("key", "value") VALUES ('after-the-backup', 'x')`));
      const from = backend === 'pglite' ? raw : plain.file;
      const restored = await restore(target.target, from, { force: true, now: new Date(Date.UTC(2026, 10, 27, 20, 30)) });
      expect(restored.encrypted).toBe(false);
      // The raw folder holds the secrets as they were; a backup of this release does not.
      expect(await hashesOf(target)).toEqual(backend === 'pglite' ? before : withoutSecrets(before));
      if (backend === 'pglite') {
        // Restored folders are the server's user's only, the one moved aside too.
        for (const folder of [target.target.dataDir, restored.movedAside as string]) {
          expect(mode(folder), folder).toBe(0o700);
          for (const name of readdirSync(folder)) expect(mode(path.join(folder, name)) & 0o077, name).toBe(0);
        }
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
    "ends every session signed before the restore, with a new signing secret; the restored tables stay the backup's",
    async () => {
      const admin = await withDb(
        target,
        async (db) =>
          (await db.query<{ userId: string; tokenVersion: number }>(`SELECT "userId", "tokenVersion" FROM "users" WHERE "role" = 1`))[0],
      );
      const claims = { sub: admin?.userId as string, role: 1, ver: admin?.tokenVersion as number, sid: 'signed-in-before-the-restore' };
      // Signed with the secret the server had when the backup was taken.
      const signedBefore = await new TokenService(secret, 3600).sign(claims);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // tokens carry their issue time in whole seconds
      await restore(target.target, good.file, { force: true, key: restoreKey });
      expect(await hashesOf(target)).toEqual(withoutSecrets(before));
      // The mark is rounded up to its whole second (a token of that second is refused): sign the
      // new token after it.
      await new Promise((resolve) => setTimeout(resolve, 1_100));

      const server = await buildApp({ ...configFromEnv({}), ...target.target, jwtSecret: undefined, staticDir: null, logLevel: 'silent' });
      try {
        const ask = async (token: string) =>
          server.app.inject({ method: 'GET', url: '/api/lists', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
        const refused = await ask(signedBefore);
        expect(refused.statusCode).toBe(401);
        const [renewed] = await server.db.query<{ value: string }>(`SELECT "value" FROM "server_secrets" WHERE "key" = 'jwtSecret'`);
        expect(renewed?.value).toMatch(/^[\w-]{40,}$/);
        expect(renewed?.value).not.toBe(secret);
        expect((await ask(await server.tokens.sign({ ...claims, sid: 'signed-in-after-the-restore' }))).statusCode).toBe(200);
      } finally {
        await server.app.close();
      }
    },
    DRILL_MS,
  );

  if (backend === 'pglite') {
    it('refuses to back up a database a newer ICRS migrated (its schema cannot be made again here)', () => {
      expect(String(futureRefusal)).toMatch(
        /was migrated by a newer ICRS \(9999-future\): back it up with the ICRS version its server runs/,
      );
    });

    it('refuses a backup folder inside the data folder', async () => {
      await expect(backup(target.target, { dir: path.join(target.target.dataDir, 'backups'), key: PLAIN })).rejects.toThrow(
        /is inside the data folder .*choose a folder outside it/,
      );
    });

    it('refuses to back up or restore the folder while a server holds it', async () => {
      // Held as a server holds it (this very process: a second hold is refused all the same).
      const release = await holdDataDir(target.target.dataDir, 'the ICRS server');
      try {
        await expect(backup(target.target, { dir, key: PLAIN })).rejects.toThrow(
          /in use by the ICRS server \(process \d+.*stop the server first, or use PostgreSQL for online backups/,
        );
        await expect(restore(target.target, plain.file, { force: true })).rejects.toThrow(
          /in use by the ICRS server .*stop the server first/,
        );
      } finally {
        release();
      }
    });
  } else {
    it('gives pg_dump a file that is 0600 before its first byte, under umask 000, plain or encrypted', async () => {
      // A stand-in pg_dump on the PATH: it writes the mode of the backup's partial file as it
      // finds it when it starts, before it has written anything.
      const fake = path.join(work, 'fake-bin');
      const probe = path.join(work, 'probe-backups');
      mkdirSync(fake, { recursive: true });
      writeFileSync(path.join(fake, 'pg_dump'), `#!/bin/sh\nstat -c '%a' "${probe}"/*.partial\n`, { mode: 0o755 });
      const [path0, umask0] = [process.env.PATH, process.umask(0)];
      process.env.PATH = `${fake}:${path0}`;
      try {
        for (const key of [PLAIN, KEY]) {
          const made = await backup(target.target, { dir: probe, key });
          expect((await contentOf(made.file)).toString().trim(), key.kind).toBe('600');
          expect(mode(made.file)).toBe(0o600);
        }
        expect(mode(probe)).toBe(0o700);
      } finally {
        process.env.PATH = path0;
        process.umask(umask0);
      }
    });

    it('refuses to restore while another session uses the database', async () => {
      const other = new pg.Client({ connectionString: target.target.databaseUrl });
      await other.connect();
      try {
        await expect(restore(target.target, good.file, { force: true, key: restoreKey })).rejects.toThrow(
          /1 other session\(s\) are connected .*stop every ICRS server/,
        );
      } finally {
        await other.end();
      }
      // The server of the test before made a new signing secret: the rest is unchanged.
      expect(withoutSecrets(await hashesOf(target))).toEqual(withoutSecrets(before));
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

/** Runs `node --import tsx <script> <args>` as a shell would with `umask 000`: nothing in the
 * environment narrows what the process makes, only the process itself. */
function underUmask000(script: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync('sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, '--import', 'tsx', script, ...args], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** Every entry under `root` (itself included) that group or others may use, with its mode. */
function openEntries(root: string): string[] {
  const open: string[] = [];
  const walk = (entry: string) => {
    const stat = statSync(entry);
    if (stat.mode & 0o077) open.push(`${path.relative(root, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(root);
  return open;
}

describe('files only the server can read, under umask 000 (PGlite)', () => {
  const home = path.join(work, 'umask');
  const dataDir = path.join(home, 'data');
  const backups = path.join(home, 'backups');
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DATABASE_OWNER_URL: '',
    BACKUP_KEY: '',
    BACKUP_RECIPIENTS: '',
    BACKUP_IDENTITY: '',
    PORT: '0',
    HOST: '127.0.0.1',
    STATIC_DIR: '/nonexistent',
    ADMIN_PASSWORD: 'admin-password-1',
    LOG_LEVEL: 'info',
    ...extra,
  });
  /** The server as `npm start` runs it, under umask 000, until it says it is ready or exits. */
  const serve = () =>
    new Promise<{ ready: boolean; output: string }>((resolve) => {
      const child = spawn('sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, '--import', 'tsx', 'server/main.ts'], {
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      const heard = (chunk: Buffer) => {
        output += chunk.toString();
        if (/ICRS is ready/.test(output)) child.kill('SIGTERM');
      };
      child.stdout.on('data', heard);
      child.stderr.on('data', heard);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve({ ready: /ICRS is ready/.test(output), output });
      });
    });
  const KEY_ENV = { BACKUP_KEY: PASSPHRASE };

  it("a new data folder, every file in it, backups and restored folders are the server user's only; a readable folder is refused", async () => {
    const first = await serve();
    expect(first.ready, first.output).toBe(true);
    expect(mode(dataDir)).toBe(0o700);
    expect(readdirSync(dataDir).length).toBeGreaterThan(10);
    expect(openEntries(dataDir)).toEqual([]);

    const refused = underUmask000('scripts/backup.ts', ['--dir', backups], env());
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Backup failed: No backup key: set BACKUP_KEY (a passphrase) or BACKUP_RECIPIENTS (age public keys) to encrypt the backup, ' +
        'or give --plain to write it unencrypted (every client, in clear)',
    );
    expect(existsSync(backups)).toBe(false);

    const sealed = underUmask000('scripts/backup.ts', ['--dir', backups], env(KEY_ENV));
    expect(sealed.status, sealed.stderr).toBe(0);
    const plainRun = underUmask000('scripts/backup.ts', ['--dir', backups, '--plain'], env());
    expect(plainRun.status, plainRun.stderr).toBe(0);
    expect(plainRun.stdout).toMatch(/NOT encrypted \(--plain\)/);
    const files = readdirSync(backups);
    expect(files).toHaveLength(2);
    expect(openEntries(backups)).toEqual([]);
    const plainFile = path.join(backups, files.find((name) => name.endsWith('.tar.gz')) as string);
    const sealedFile = path.join(backups, files.find((name) => name.endsWith('.tar.gz.age')) as string);

    const restored = underUmask000('scripts/restore.ts', [sealedFile, '--force'], env(KEY_ENV));
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored icrs-.*\.tar\.gz\.age/);
    const aside = readdirSync(home).find((name) => name.startsWith('data.before-restore-'));
    expect(aside).toBeDefined();
    expect(openEntries(dataDir)).toEqual([]);
    expect(openEntries(path.join(home, aside as string))).toEqual([]);

    // A wrong key, and files cut short: one line each, exit code 1, nothing changed.
    const wrong = underUmask000('scripts/restore.ts', [sealedFile, '--force'], env({ BACKUP_KEY: 'a-wrong-passphrase-of-length' }));
    expect([wrong.status, wrong.stderr.trim().split('\n')]).toEqual([
      1,
      [
        `Restore failed: The key does not open ${path.basename(sealedFile)}: BACKUP_KEY or BACKUP_IDENTITY is not the one it was encrypted with`,
      ],
    ]);
    for (const [name, from] of [
      ['cut.tar.gz.age', sealedFile],
      ['cut.tar.gz', plainFile],
    ] as const) {
      const cut = path.join(home, name);
      const bytes = readFileSync(from);
      writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const run = underUmask000('scripts/restore.ts', [cut, '--force'], env(KEY_ENV));
      expect(run.status, name).toBe(1);
      expect(run.stderr.trim().split('\n'), name).toEqual([
        expect.stringMatching(new RegExp(`^Restore failed: ${name.replace(/\./g, '\\.')} is truncated or damaged`)),
      ]);
    }
    expect(readdirSync(home).filter((name) => name.startsWith('data.'))).toEqual([aside]);

    // A folder others can read: the server says how to fix it and stops.
    spawnSync('chmod', ['g+rx,o+rx', dataDir]);
    const open = await serve();
    expect(open.ready).toBe(false);
    expect(open.output).toContain(`The data folder ${dataDir} can be read by other users of this machine (${dataDir} (0755))`);
    expect(open.output).toContain(`\`chmod -R go-rwx ${dataDir}\``);
    spawnSync('chmod', ['-R', 'go-rwx', dataDir]);
    spawnSync('chmod', ['o+r', path.join(dataDir, 'PG_VERSION')]);
    const file = await serve();
    expect(file.ready).toBe(false);
    expect(file.output).toContain(`(${path.join(dataDir, 'PG_VERSION')} (0604))`);
  }, 400_000);
});

describe('an embedded backup after an erasure (PGlite)', () => {
  const dataDir = path.join(work, 'erased', 'data');
  const names = { first: 'Quelindrawe', last: 'Bosokomyela', phone: '+243 97 246 8135', needs: 'Quelindrawe sleeps at Zibambuka market' };
  let regNo: string;

  beforeAll(async () => {
    const t = await startTestServer({ config: { dataDir } });
    try {
      const admin = await t.login(t.admin.userName, t.admin.password);
      await ensureOrganisations(t.server.db);
      await t.createUser({ userName: 'field-a3', password: 'password-a3', role: 3, location: 2 });
      const token = await t.login('field-a3', 'password-a3');
      regNo = registrationNumber('ADC');
      const client: Record<string, unknown> = {
        ...sampleBody(entityByName.profile, {}),
        prof_Reg_No: regNo,
        firstName: names.first,
        lastName: names.last,
        phone: names.phone,
      };
      const created = await t.api('POST', '/profile/', { token, body: client });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = String(client.prof_Id);
      const social = await t.api('POST', '/profile/social/', {
        token,
        body: { prof_Id: id, maritalStatus: 'married', needs: names.needs },
      });
      expect(social.status, JSON.stringify(social.body)).toBe(201);
      const erased = await t.api('POST', `/profile/${id}/erase`, {
        token: admin,
        body: { reasonCode: 'clientRequest', password: t.admin.password },
      });
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);

  const needles = () => [names.first, names.last, '97 246 8135', names.needs, regNo].map((text) => Buffer.from(text));

  it("holds none of the erased client's values, where the data folder as it stands still does", async () => {
    const made = await backup({ dataDir }, { dir: path.join(work, 'erased', 'backups'), key: KEY });
    const bytes = await scannable(made.file);
    expect(bytes.includes(Buffer.from('Administrator')), 'the scan sees the data').toBe(true);
    for (const needle of needles()) expect(bytes.includes(needle), needle.toString()).toBe(false);
    // The same scan of the folder as it stands (the backup of releases before) finds them.
    const rawBytes = gunzipSync(readFileSync(await rawTarball(dataDir, path.join(work, 'erased', 'raw.tar.gz'))));
    expect(needles().filter((needle) => rawBytes.includes(needle)).length).toBeGreaterThan(0);
  }, 120_000);
});
