// `npm run backup` (scripts/backup.ts): one file per backup, named with its UTC time and the
// schema version it holds (docs/adr/0037-backups.md "Backups"), encrypted with age under the operator's
// key unless --plain (ops/encryption.ts; docs/security.md "Operations").
// - PostgreSQL (DATABASE_URL): pg_dump's custom format, taken online from one snapshot while
//   servers run; the version in the name is read in that same snapshot. The secret tables' data
//   is left out (ops/secrets.ts).
// - The embedded database (DATA_DIR): a tarball of a copy made of the live rows only
//   (ops/liveCopy.ts), never the folder as it stands. Only one process may open the folder, so
//   the server must be stopped; the backup holds the folder meanwhile.
// The file is written under a `.partial` name, opened 0600 before its first byte, and renamed
// when complete: a file named icrs-…-<version>.dump[.age] or .tar.gz[.age] is always a whole backup.
import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { DbOptions } from '../db/index';
import { backupFileName, humanSize, latestMigration, storedMigrations, utcStamp, type BackupKind } from './backupFile';
import { embeddedFolder, holdFolder, holdsDatabase, queryableOf } from './embedded';
import { encryptStream, type BackupKey } from './encryption';
import { OperatorError } from './errors';
import { liveCopyTarball } from './liveCopy';
import { OPS_SCHEMA } from './restoreMark';
import { connectionFor, findTool, runTool } from './pgTools';
import { SECRET_TABLES } from './secrets';

export const DEFAULT_BACKUP_DIR = './backups';

export interface BackupOptions {
  /** Folder the file is written to (made when missing). */
  dir: string;
  /** The backup's time, in its name (tests); now by default. */
  now?: Date;
  /** The key it is encrypted under, or plain (--plain). */
  key: BackupKey;
}

export interface BackupResult {
  kind: BackupKind;
  encrypted: boolean;
  file: string;
  bytes: number;
  /** The last migration applied in the backed-up database. */
  version: string;
  seconds: number;
}

/** Backs up the database `target` names (DATABASE_URL, else the embedded one in DATA_DIR). */
export async function backup(target: DbOptions, options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const dir = path.resolve(options.dir);
  const { kind, file, version } = target.databaseUrl
    ? await backupPostgres(target.databaseUrl, dir, now, options.key)
    : await backupEmbedded(target.dataDir, dir, now, options.key);
  const encrypted = options.key.kind !== 'plain';
  return { kind, encrypted, file, version, bytes: (await stat(file)).size, seconds: (performance.now() - started) / 1000 };
}

/** What `npm run backup` prints when it is done. */
export function backupReport(result: BackupResult): string {
  const how = result.encrypted ? 'encrypted' : 'NOT encrypted (--plain): every client in clear';
  return `Backup written: ${result.file} (${humanSize(result.bytes)}, schema ${result.version}, ${how}) in ${result.seconds.toFixed(1)} s`;
}

type Written = Pick<BackupResult, 'kind' | 'file' | 'version'>;

/** Where a backup is written until it is complete: a name no complete backup has. */
const partialFile = (dir: string, now: Date) => path.join(dir, `icrs-${utcStamp(now)}-${process.pid}.partial`);

async function prepareFolder(dir: string): Promise<void> {
  // Backups hold the clients' personal data: a folder made here is the owner's only.
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** The partial file, made 0600 before anything is written to it (an existing name is refused). */
const openPartial = (partial: string): Promise<FileHandle> => open(partial, 'wx', 0o600);

/** Writes `content` (plain) to `handle`, through the cipher unless the key is plain, and to the disk. */
async function writeSealed(handle: FileHandle, content: Readable, key: BackupKey): Promise<void> {
  const sealed = key.kind === 'plain' ? content : await encryptStream(content, key);
  for await (const chunk of sealed) await handle.write(chunk as Uint8Array);
  await handle.sync(); // on the disk before it takes the name of a complete backup
}

/** Gives the complete file its name: `name`, or name-2, name-3… when a backup of the same second exists. */
async function complete(partial: string, dir: string, name: string): Promise<string> {
  const extension = ['.tar.gz.age', '.dump.age', '.tar.gz', '.dump'].find((ending) => name.endsWith(ending)) ?? path.extname(name);
  const stem = name.slice(0, -extension.length);
  let file = path.join(dir, name);
  for (let n = 2; existsSync(file); n += 1) file = path.join(dir, `${stem}-${n}${extension}`);
  await rename(partial, file);
  return file;
}

async function backupPostgres(databaseUrl: string, dir: string, now: Date, key: BackupKey): Promise<Written> {
  findTool('pg_dump');
  await prepareFolder(dir);
  const partial = partialFile(dir, now);
  const { dbname, env } = connectionFor(databaseUrl);
  // One snapshot for the version and the dump: the version is the one the file holds, even when
  // a server of a newer release migrates the database meanwhile.
  const session = new pg.Client({ connectionString: databaseUrl, application_name: 'icrs backup' });
  session.on('error', () => undefined); // a lost connection fails the queries below, or pg_dump
  try {
    await session.connect();
  } catch (error) {
    throw new OperatorError(`Cannot connect to the database of DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    await session.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [{ snapshot }] = (await session.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot')).rows;
    const ids = await storedMigrations({
      query: async (sql, params) => (await session.query(sql, params ? [...params] : undefined)).rows as never,
    });
    if (!ids?.length)
      throw new OperatorError(
        'The database of DATABASE_URL holds no ICRS schema (no schema_migrations rows): is it the right database? Start the server once to make its tables.',
      );
    const version = latestMigration(ids);
    const args = [
      '--format=custom',
      `--snapshot=${snapshot}`,
      // The restore marks are the restored database's own, not data (ops/restoreMark.ts).
      `--exclude-schema=${OPS_SCHEMA}`,
      // The signing and device secrets: the tables come back empty (ops/secrets.ts).
      ...SECRET_TABLES.map((table) => `--exclude-table-data=public.${table}`),
      `--dbname=${dbname}`,
    ];
    const handle = await openPartial(partial);
    try {
      if (key.kind === 'plain') {
        // pg_dump writes into the file this process opened 0600: private from its first byte,
        // and seekable (the archive keeps its table of data offsets).
        await runTool('pg_dump', args, env, { stdout: handle.fd });
        await handle.sync();
      } else {
        await runTool('pg_dump', args, env, { stdout: (output) => writeSealed(handle, output, key) });
      }
    } finally {
      await handle.close();
    }
    await session.query('COMMIT');
    return {
      kind: 'postgres',
      version,
      file: await complete(partial, dir, backupFileName('postgres', version, now, key.kind !== 'plain')),
    };
  } finally {
    await session.end().catch(() => undefined);
    await rm(partial, { force: true });
  }
}

async function backupEmbedded(dataDir: string, dir: string, now: Date, key: BackupKey): Promise<Written> {
  const folder = embeddedFolder(dataDir);
  if (!holdsDatabase(folder)) throw new OperatorError(`No embedded database in ${folder}: nothing to back up (DATA_DIR names its folder)`);
  const inside = path.relative(folder, dir);
  if (inside !== '..' && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside)) {
    // A backup folder inside the data folder would be moved away with it by a restore.
    throw new OperatorError(
      `The backup folder ${dir} is inside the data folder ${folder}: choose a folder outside it (--dir or BACKUP_DIR)`,
    );
  }
  const release = await holdFolder(folder, 'a backup', 'stop the server first, or use PostgreSQL for online backups');
  try {
    const lite = await PGlite.create(folder);
    let tarball: Blob;
    let version: string;
    try {
      const ids = await storedMigrations(queryableOf(lite));
      if (!ids?.length)
        throw new OperatorError(
          `The embedded database in ${folder} holds no ICRS schema (no schema_migrations): start the server once to make its tables`,
        );
      version = latestMigration(ids);
      tarball = await liveCopyTarball(lite, ids, `The embedded database in ${folder}`);
    } finally {
      await lite.close();
    }
    await prepareFolder(dir);
    const partial = partialFile(dir, now);
    try {
      const handle = await openPartial(partial);
      try {
        await writeSealed(handle, Readable.from([Buffer.from(await tarball.arrayBuffer())]), key);
      } finally {
        await handle.close();
      }
      return { kind: 'pglite', version, file: await complete(partial, dir, backupFileName('pglite', version, now, key.kind !== 'plain')) };
    } finally {
      await rm(partial, { force: true });
    }
  } finally {
    release();
  }
}
