// `npm run backup` (scripts/backup.ts): one file per backup, named with its UTC time and the
// schema version it holds (docs/decisions.md "Backups").
// - PostgreSQL (DATABASE_URL): pg_dump's custom format, taken online from one snapshot while
//   servers run; the version in the name is read back from the written file.
// - The embedded database (DATA_DIR): PGlite's own tarball of its data folder. Only one process
//   may open the folder, so the server must be stopped; the backup holds the folder meanwhile.
// The file is written under a `.partial` name and renamed when complete: a file named
// icrs-…-<version>.dump or .tar.gz is always a whole backup.
import { chmod, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { DbOptions } from '../db/index';
import { backupFileName, dumpMigrations, humanSize, latestMigration, storedMigrations, utcStamp, type BackupKind } from './backupFile';
import { embeddedFolder, holdFolder, holdsDatabase, queryableOf } from './embedded';
import { OperatorError } from './errors';
import { OPS_SCHEMA } from './restoreMark';
import { connectionFor, findTool, runTool } from './pgTools';

export const DEFAULT_BACKUP_DIR = './backups';

export interface BackupOptions {
  /** Folder the file is written to (made when missing). */
  dir: string;
  /** The backup's time, in its name (tests); now by default. */
  now?: Date;
}

export interface BackupResult {
  kind: BackupKind;
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
    ? await backupPostgres(target.databaseUrl, dir, now)
    : await backupEmbedded(target.dataDir, dir, now);
  return { kind, file, version, bytes: (await stat(file)).size, seconds: (performance.now() - started) / 1000 };
}

/** What `npm run backup` prints when it is done. */
export function backupReport(result: BackupResult): string {
  return `Backup written: ${result.file} (${humanSize(result.bytes)}, schema ${result.version}) in ${result.seconds.toFixed(1)} s`;
}

type Written = Pick<BackupResult, 'kind' | 'file' | 'version'>;

/** Where a backup is written until it is complete: a name no complete backup has. */
const partialFile = (dir: string, now: Date) => path.join(dir, `icrs-${utcStamp(now)}-${process.pid}.partial`);

async function prepareFolder(dir: string): Promise<void> {
  // Backups hold the clients' personal data: a folder made here is the owner's only.
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Gives the complete file its name: `name`, or name-2, name-3… when a backup of the same second exists. */
async function complete(partial: string, dir: string, name: string): Promise<string> {
  await chmod(partial, 0o600);
  const [stem, extension] = name.endsWith('.tar.gz')
    ? [name.slice(0, -7), '.tar.gz']
    : [name.slice(0, -path.extname(name).length), path.extname(name)];
  let file = path.join(dir, name);
  for (let n = 2; existsSync(file); n += 1) file = path.join(dir, `${stem}-${n}${extension}`);
  await rename(partial, file);
  return file;
}

async function backupPostgres(databaseUrl: string, dir: string, now: Date): Promise<Written> {
  // Both programs before anything is written: the version is read back with pg_restore.
  findTool('pg_dump');
  findTool('pg_restore');
  await prepareFolder(dir);
  const partial = partialFile(dir, now);
  const { dbname, env } = connectionFor(databaseUrl);
  try {
    // The restore marks are the restored database's own, not data (ops/restoreMark.ts).
    await runTool('pg_dump', ['--format=custom', `--exclude-schema=${OPS_SCHEMA}`, `--file=${partial}`, `--dbname=${dbname}`], env);
    // The version the file holds, not the one the database had a moment before: a server of a
    // newer release may have migrated it in between.
    const ids = await dumpMigrations(partial);
    if (!ids.length)
      throw new OperatorError(
        'The database of DATABASE_URL holds no ICRS schema (no schema_migrations rows): is it the right database? Start the server once to make its tables.',
      );
    const version = latestMigration(ids);
    return { kind: 'postgres', version, file: await complete(partial, dir, backupFileName('postgres', version, now)) };
  } finally {
    await rm(partial, { force: true });
  }
}

async function backupEmbedded(dataDir: string, dir: string, now: Date): Promise<Written> {
  const folder = embeddedFolder(dataDir);
  if (!holdsDatabase(folder)) throw new OperatorError(`No embedded database in ${folder}: nothing to back up (DATA_DIR names its folder)`);
  const inside = path.relative(folder, dir);
  if (inside !== '..' && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside)) {
    // The tarball is the whole folder: each backup would hold the ones before, and a restore
    // moves them away with the folder it replaces.
    throw new OperatorError(
      `The backup folder ${dir} is inside the data folder ${folder}: choose a folder outside it (--dir or BACKUP_DIR)`,
    );
  }
  const release = holdFolder(folder, 'a backup', 'stop the server first, or use PostgreSQL for online backups');
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
      // Every change in the data files rather than only in the write-ahead log: the tarball then
      // opens without replaying it.
      await lite.query('CHECKPOINT');
      tarball = await lite.dumpDataDir('gzip');
    } finally {
      await lite.close();
    }
    await prepareFolder(dir);
    const partial = partialFile(dir, now);
    try {
      const handle = await open(partial, 'wx', 0o600);
      try {
        await handle.writeFile(Buffer.from(await tarball.arrayBuffer()));
        await handle.sync(); // on the disk before it takes the name of a complete backup
      } finally {
        await handle.close();
      }
      return { kind: 'pglite', version, file: await complete(partial, dir, backupFileName('pglite', version, now)) };
    } finally {
      await rm(partial, { force: true });
    }
  } finally {
    release();
  }
}
