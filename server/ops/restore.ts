// `npm run restore -- <file> [--force]` (scripts/restore.ts): a backup of `npm run backup` back
// into the database the server uses (docs/adr/0037-backups.md "Backups").
// Before anything changes, the schema version is read from the file's content (a renamed file
// cannot lie) and a backup holding a migration this code does not know is refused; a target
// that holds data is replaced only with --force. An older backup is restored as it is: the
// server migrates it forward at its next start.
// - PostgreSQL: the public schema is dropped and made again, then pg_restore fills it in one
//   transaction. Other sessions on the database (a running server) are a refusal.
// - The embedded database: the tarball is loaded into a folder beside DATA_DIR, then takes its
//   place; an existing folder is moved aside (`<DATA_DIR>.before-restore-<time>`), never deleted.
// Either way the restore is marked (ops/restoreMark.ts): every session signed before it ends.
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { openDb, type Db, type DbOptions } from '../db/index';
import { LOCK_FILE, holdDataDir } from '../lib/dataDirLock';
import { privateTree } from '../lib/privateFiles';
import {
  codeVersion,
  describeCounts,
  dumpMigrations,
  latestMigration,
  recordCounts,
  refuseUnknownMigrations,
  storedMigrations,
  tablesWithRows,
  utcStamp,
  backupKindOf,
  kindOfContent,
  notABackup,
  type BackupKind,
  type RecordCounts,
} from './backupFile';
import { embeddedFolder, holdFolder, holdsDatabase, queryableOf } from './embedded';
import { damaged, decryptStream, type RestoreKey } from './encryption';
import { oneLine, OperatorError } from './errors';
import { connectionFor, findTool, runTool } from './pgTools';
import { markRestore, OPS_SCHEMA } from './restoreMark';

export interface RestoreOptions {
  /** Replace a database that holds data. */
  force?: boolean;
  /** The restore's time, in the name of the folder moved aside (tests); now by default. */
  now?: Date;
  /** What opens an encrypted backup (BACKUP_KEY, BACKUP_IDENTITY). */
  key?: RestoreKey;
}

export interface RestoreResult {
  kind: BackupKind;
  encrypted: boolean;
  file: string;
  /** Where it went: 'PostgreSQL database icrs on db.example.org' or the data folder. */
  into: string;
  /** The last migration in the backup, and the code's. */
  version: string;
  codeVersion: string;
  counts: RecordCounts;
  /** Restored through DATABASE_OWNER_URL: the app's role is granted the tables at the next migration. */
  asOwner?: boolean;
  /** The embedded database's previous folder, kept (with --force, or when it held no data). */
  movedAside?: string;
  seconds: number;
}

/** Restores `file` into the database `target` names (DATABASE_URL, else the embedded one in DATA_DIR). */
export async function restore(target: DbOptions, file: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const started = performance.now();
  const format = await backupKindOf(file);
  const name = path.basename(file);
  // The content, decrypted when the file is encrypted: a stream, never the whole file at once
  // (a PostgreSQL dump can be large). The first one also tells the kind, then is read on.
  const content = (): Promise<Readable> =>
    format === 'age' ? decryptStream(createReadStream(file), options.key ?? {}, name) : Promise.resolve(createReadStream(file));
  let first: Readable | undefined;
  let kind: BackupKind;
  if (format === 'age') {
    first = await content();
    const found = kindOfContent(await peek(first, 5, name));
    if (!found) {
      first.destroy();
      throw notABackup(file);
    }
    kind = found;
  } else kind = format;
  const stream = async () => {
    const next = first ?? (await content());
    first = undefined;
    return next;
  };
  try {
    return await restoreKind(target, file, kind, format === 'age' ? stream : undefined, options, started);
  } finally {
    (first as Readable | undefined)?.destroy();
  }
}

/** The first `bytes` bytes of `stream`, left in it to be read again. */
async function peek(stream: Readable, bytes: number, name: string): Promise<Buffer> {
  let head = Buffer.alloc(0);
  for (;;) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      head = Buffer.concat([head, chunk]);
      if (head.length >= bytes) break;
      continue;
    }
    if (stream.readableEnded || stream.destroyed) break;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done).off('end', done).off('error', failed);
        resolve();
      };
      const failed = (error: Error) => {
        stream.off('readable', done).off('end', done);
        reject(error);
      };
      stream.once('readable', done).once('end', done).once('error', failed);
    });
  }
  if (!head.length) throw damaged(name, 'no content');
  stream.unshift(head);
  return head.subarray(0, bytes);
}

async function restoreKind(
  target: DbOptions,
  file: string,
  kind: BackupKind,
  decrypted: (() => Promise<Readable>) | undefined,
  options: RestoreOptions,
  started: number,
): Promise<RestoreResult> {
  if (kind === 'pglite' && target.databaseUrl) {
    throw new OperatorError(
      `${path.basename(file)} is a backup of the embedded database (PGlite), and DATABASE_URL names a PostgreSQL server: unset DATABASE_URL to restore it into DATA_DIR`,
    );
  }
  if (kind === 'postgres' && !target.databaseUrl) {
    throw new OperatorError(`${path.basename(file)} is a PostgreSQL backup (pg_dump): set DATABASE_URL to the database to restore it into`);
  }
  const force = options.force ?? false;
  const done = target.databaseUrl
    ? await restorePostgres(target, target.databaseUrl, file, force, decrypted)
    : await restoreEmbedded(target.dataDir, file, force, options.now ?? new Date(), decrypted);
  return {
    kind,
    encrypted: decrypted !== undefined,
    file: path.resolve(file),
    codeVersion: codeVersion(),
    ...done,
    seconds: (performance.now() - started) / 1000,
  };
}

/** What `npm run restore` prints when it is done. */
export function restoreReport(result: RestoreResult): string {
  const lines = [
    `Restored ${path.basename(result.file)} (schema ${result.version}) into ${result.into} in ${result.seconds.toFixed(1)} s: ${describeCounts(result.counts)}.`,
  ];
  lines.push('Every session signed in before the restore is over: everyone signs in again (on the accounts as the backup holds them).');
  if (result.asOwner)
    lines.push(
      "Restored as DATABASE_OWNER_URL's role: start the server with DATABASE_OWNER_URL set, or run `npm run migrate` first, so that DATABASE_URL's role is granted the restored tables.",
    );
  if (result.movedAside)
    lines.push(`The previous data folder was moved to ${result.movedAside}: delete it once you have checked the restored data.`);
  if (result.version !== result.codeVersion) {
    lines.push(
      `The backup's schema (${result.version}) is older than this code's (${result.codeVersion}): the server migrates it forward at its next start.`,
    );
  }
  return lines.join('\n');
}

const gunzipAsync = promisify(gunzip);

type Restored = Pick<RestoreResult, 'into' | 'version' | 'counts' | 'movedAside'>;

function refuseHeldData(where: string, tables: readonly string[]): never {
  const named = tables.length > 4 ? `${tables.slice(0, 4).join(', ')} and ${tables.length - 4} more tables` : tables.join(', ');
  throw new OperatorError(
    `${where} holds data (rows in ${named}): the restore would replace it. ` +
      'Check that it is the right target, back it up first (npm run backup), then restore again with --force.',
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// ---------------------------------------------------------------------------------------------
// PostgreSQL
// ---------------------------------------------------------------------------------------------

/** 'PostgreSQL database icrs on db.example.org:5432', never the password. */
function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `PostgreSQL database ${decodeURIComponent(url.pathname.slice(1)) || '(default)'} on ${url.host || 'the local server'}`;
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

async function connect(target: DbOptions, where: string): Promise<Db> {
  try {
    return await openDb(target);
  } catch (error) {
    throw new OperatorError(`Cannot connect to the ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Refuses while other sessions use the database: a server would keep serving from a schema
 * that is dropped under it, and its caches would outlive the restore. */
async function refuseOtherSessions(db: Db, where: string): Promise<void> {
  const [others] = await db.query<{ n: number; who: string | null }>(
    `SELECT count(*)::int AS n, string_agg(DISTINCT coalesce(nullif(application_name, ''), host(client_addr), 'a local process'), ', ') AS who
     FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  if (others.n > 0) {
    throw new OperatorError(
      `${others.n} other session(s) are connected to the ${where} (${others.who}): stop every ICRS server using it (and close other connections), then restore`,
    );
  }
}

/** Reads every block of a plain dump (pg_restore to /dev/null): a file cut short or damaged is
 * refused in one line before the database is touched. */
async function readWholeDump(file: string): Promise<void> {
  try {
    await runTool('pg_restore', ['--file=/dev/null', file]);
  } catch (error) {
    throw damaged(path.basename(file), oneLine(error).replace(/^pg_restore failed \([^)]*\): /, ''));
  }
}

async function restorePostgres(
  target: DbOptions,
  databaseUrl: string,
  file: string,
  force: boolean,
  decrypted: (() => Promise<Readable>) | undefined,
): Promise<Restored> {
  findTool('pg_restore');
  // The whole file is read before anything changes: a dump cut short would otherwise be found
  // only after the schema it replaces was dropped.
  if (!decrypted) await readWholeDump(file);
  const ids = await dumpMigrations(decrypted ? await decrypted() : file, true);
  if (!ids.length) throw new OperatorError(`${path.basename(file)} holds no ICRS schema (no schema_migrations rows): not an ICRS backup`);
  refuseUnknownMigrations(ids, file);
  const where = describeDatabase(databaseUrl);
  const db = await connect(target, where);
  try {
    await refuseOtherSessions(db, where);
    const held = await tablesWithRows(db);
    if (held.length && !force) refuseHeldData(capitalised(where), held);
    // An empty schema for the backup, whatever the database held: the tables of a newer
    // migration must not survive the restore of an older backup.
    await db.transaction(async (tx) => {
      await tx.query('DROP SCHEMA IF EXISTS public CASCADE');
      await tx.query(`DROP SCHEMA IF EXISTS "${OPS_SCHEMA}" CASCADE`); // marks of what it replaces
      await tx.query('CREATE SCHEMA public');
      // As PostgreSQL makes it: anyone may look up objects in it (their own rights still apply).
      await tx.query('GRANT USAGE ON SCHEMA public TO PUBLIC');
    });
  } finally {
    await db.close();
  }
  const { dbname, env } = connectionFor(databaseUrl);
  // Objects belong to the restoring user (the server's), rights as that user has them; one
  // transaction, so that a failure leaves the empty schema rather than half a database.
  const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`];
  // An encrypted dump is read from pg_restore's standard input, in the order it was written.
  if (decrypted) await runTool('pg_restore', args, env, { stdin: await decrypted() });
  else await runTool('pg_restore', [...args, file], env);
  const restored = await connect(target, where);
  try {
    await markRestore(restored);
    return { into: where, version: latestMigration(ids), counts: await recordCounts(restored) };
  } finally {
    await restored.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The embedded database
// ---------------------------------------------------------------------------------------------

/** Why the restored folder could not take the place of `folder`, in the operator's terms. */
function moveFailure(folder: string, error: unknown): OperatorError {
  const code = (error as NodeJS.ErrnoException).code;
  const hint =
    code === 'EXDEV' || code === 'EBUSY'
      ? ' Is the data folder a mount point? Set DATA_DIR to a folder inside the mount, or mount its parent folder.'
      : '';
  return new OperatorError(`The restored database could not take the place of ${folder}: ${(error as Error).message}.${hint}`);
}

function rmdirIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty after all, or gone: left as it is
  }
}

/** The tarball's content, unzipped here: zlib's complaint about a file cut short becomes one
 * line, where PGlite's own unzipping would end the process with an uncaught error. */
async function tarOf(file: string, decrypted: (() => Promise<Readable>) | undefined): Promise<Buffer> {
  const name = path.basename(file);
  let zipped: Buffer;
  if (decrypted) {
    const chunks: Buffer[] = [];
    for await (const chunk of await decrypted()) chunks.push(chunk as Buffer);
    zipped = Buffer.concat(chunks);
  } else zipped = await readFile(file);
  try {
    return await gunzipAsync(zipped);
  } catch (error) {
    throw damaged(name, (error as Error).message);
  }
}

async function restoreEmbedded(
  dataDir: string,
  file: string,
  force: boolean,
  now: Date,
  decrypted: (() => Promise<Readable>) | undefined,
): Promise<Restored> {
  const tar = await tarOf(file, decrypted);
  const folder = embeddedFolder(dataDir);
  const where = `the embedded database in ${folder}`;
  const existed = existsSync(folder);
  const release = await holdFolder(folder, 'a restore', 'stop the server first, then restore');
  // Beside the folder, so that it takes the folder's place with a rename (one file system).
  const staging = `${folder}.restoring-${process.pid}`;
  let placed = false;
  let releaseStaging: () => void = () => undefined;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    let lite: PGlite;
    try {
      lite = await PGlite.create(staging, { loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]) });
    } catch (error) {
      throw new OperatorError(
        `${path.basename(file)} could not be opened as a PGlite database: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let ids: string[] | null;
    let counts: RecordCounts | undefined;
    try {
      ids = await storedMigrations(queryableOf(lite));
      if (ids?.length) counts = await recordCounts(queryableOf(lite));
      // In the staging copy: it is deleted, mark and all, if the restore stops below.
      if (ids?.length) await markRestore(queryableOf(lite));
    } finally {
      await lite.close();
    }
    // The tarball's files carry PGlite's 0666: the server's user's only, whatever the umask.
    privateTree(staging);
    if (!ids?.length || !counts)
      throw new OperatorError(`${path.basename(file)} holds no ICRS schema (no schema_migrations): not an ICRS backup`);
    refuseUnknownMigrations(ids, file);

    if (!force && holdsDatabase(folder)) {
      const current = await connect({ dataDir: folder }, where);
      try {
        const held = await tablesWithRows(current);
        if (held.length) refuseHeldData(capitalised(where), held);
      } finally {
        await current.close();
      }
    }

    // The tarball carries the lock of the process that made it: the restored folder is held by
    // this one from the moment it takes its place.
    rmSync(path.join(staging, LOCK_FILE), { force: true });
    releaseStaging = await holdDataDir(staging, 'a restore');
    const kept = readdirSync(folder).filter((name) => name !== LOCK_FILE);
    let aside: string | undefined;
    if (kept.length) {
      aside = `${folder}.before-restore-${utcStamp(now)}`;
      for (let n = 2; existsSync(aside); n += 1) aside = `${folder}.before-restore-${utcStamp(now)}-${n}`;
      try {
        renameSync(folder, aside);
      } catch (error) {
        throw moveFailure(folder, error);
      }
    } else {
      try {
        unlinkSync(path.join(folder, LOCK_FILE));
        rmdirSync(folder);
      } catch (error) {
        throw moveFailure(folder, error);
      }
    }
    try {
      renameSync(staging, folder);
    } catch (error) {
      if (aside && !existsSync(folder)) renameSync(aside, folder); // as it was
      throw moveFailure(folder, error);
    }
    placed = true;
    if (aside) {
      rmSync(path.join(aside, LOCK_FILE), { force: true }); // this process's, moved along
      privateTree(aside); // kept for a while, with every client in it
    }
    return { into: where, version: latestMigration(ids), counts, movedAside: aside };
  } finally {
    if (!placed) rmSync(staging, { recursive: true, force: true });
    releaseStaging(); // named after the staging folder's path, which no server opens
    release(); // the restored folder's lock: this process's since the staging folder was held
    if (!placed && !existed) rmdirIfEmpty(folder); // made by holding it
  }
}
