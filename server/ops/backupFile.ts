// What a backup and a restore share: the file's name and kind, its schema version read from its
// content, the check against the migrations this code knows, and what "holds data" means.
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { entityByName, serverEntities } from '../../schemas/index';
import { ident } from '../../schemas/derive/sql';
import type { Queryable } from '../db/index';
import { coreMigrations, knownMigrationIds } from '../db/migrations';
import { AGE_MAGIC, ENCRYPTED_EXTENSION } from './encryption';
import { OperatorError } from './errors';
import { runTool } from './pgTools';

/** pg_dump's custom format (PostgreSQL) or PGlite's gzipped tarball of its data folder. */
export type BackupKind = 'postgres' | 'pglite';

export const EXTENSION: Record<BackupKind, string> = { postgres: '.dump', pglite: '.tar.gz' };

/** '20261127T203000Z': UTC, to the second, sortable, no character a file system refuses. */
export function utcStamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** icrs-20261127T203000Z-0020-audit-log.dump, or .dump.age when encrypted (ops/encryption.ts). */
export function backupFileName(kind: BackupKind, version: string, date = new Date(), encrypted = false): string {
  return `icrs-${utcStamp(date)}-${version}${EXTENSION[kind]}${encrypted ? ENCRYPTED_EXTENSION : ''}`;
}

/** The kind of backup whose content starts with `head`, if it is one. */
export function kindOfContent(head: Uint8Array): BackupKind | undefined {
  if (head.length >= 5 && Buffer.from(head.subarray(0, 5)).toString('latin1') === 'PGDMP') return 'postgres';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  return undefined;
}

/** What `file` is, from its first bytes (its name may have been changed): a plain backup of
 * either kind, or an encrypted one ('age'), whose kind its decrypted content tells. */
export async function backupKindOf(file: string): Promise<BackupKind | 'age'> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new OperatorError(`No backup file at ${path.resolve(file)}`);
    if (code === 'EISDIR') throw new OperatorError(`${path.resolve(file)} is a folder, not a backup file`);
    throw new OperatorError(`The backup file ${path.resolve(file)} cannot be read: ${(error as Error).message}`);
  }
  try {
    const head = Buffer.alloc(AGE_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead === AGE_MAGIC.length && head.toString('latin1') === AGE_MAGIC) return 'age';
    const kind = kindOfContent(head.subarray(0, bytesRead));
    if (kind) return kind;
  } finally {
    await handle.close();
  }
  throw notABackup(file);
}

export const notABackup = (file: string) =>
  new OperatorError(
    `${path.resolve(file)} is not an ICRS backup (neither a pg_dump custom-format file nor a gzipped PGlite tarball, encrypted with age or not)`,
  );

/** The newest of migration ids ('0020-audit-log'): they sort in the order they are applied. */
export function latestMigration(ids: readonly string[]): string {
  return [...ids].sort().at(-1) ?? 'none';
}

/** The latest migration this code knows. */
export const codeVersion = (): string => latestMigration(coreMigrations.map((m) => m.id));

/**
 * Refuses migrations this code does not know: the backup was made by a newer ICRS, whose
 * tables this code would misread, and which no migration here can bring back.
 */
export function refuseUnknownMigrations(ids: readonly string[], file: string): void {
  const known = new Set(knownMigrationIds());
  const unknown = ids.filter((id) => !known.has(id));
  if (!unknown.length) return;
  throw new OperatorError(
    `The backup ${path.basename(file)} is newer than the code: its schema version is ${latestMigration(ids)}, ` +
      `this ICRS knows up to ${codeVersion()} (unknown: ${unknown.join(', ')}). ` +
      'Install the ICRS version that made the backup, or a newer one, then restore.',
  );
}

/** The migration ids stored in a connected database, or null when it has no schema_migrations. */
export async function storedMigrations(db: Queryable): Promise<string[] | null> {
  const [{ present }] = await db.query<{ present: boolean }>(`SELECT to_regclass('public.schema_migrations') IS NOT NULL AS present`);
  if (!present) return null;
  return (await db.query<{ id: string }>('SELECT "id" FROM "schema_migrations" ORDER BY "id"')).map((row) => row.id);
}

/** One field of COPY's text format (backslash escapes; \N is NULL). */
function copyField(text: string): string | null {
  if (text === '\\N') return null;
  const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, code: string) => {
    if (code[0] === 'x') return String.fromCharCode(parseInt(code.slice(1), 16));
    if (/^[0-7]/.test(code)) return String.fromCharCode(parseInt(code, 8));
    return escapes[code] ?? code;
  });
}

/** The migration ids in the schema_migrations data of a pg_restore script, or null when it has none. */
export function migrationsFromScript(script: string): string[] | null {
  const lines = script.split('\n');
  const start = lines.findIndex((line) => /^COPY public\."?schema_migrations"? \(/.test(line));
  if (start < 0) return null;
  const columns = (/\((.*)\) FROM stdin;$/.exec(lines[start] as string)?.[1] ?? '').split(', ').map((name) => name.replace(/^"|"$/g, ''));
  const idColumn = columns.indexOf('id');
  if (idColumn < 0) return null;
  const ids: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    const id = copyField(line.split('\t')[idColumn] ?? '\\N');
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** The migration ids inside a pg_dump custom-format file, or its decrypted content as a stream
 * (its schema_migrations rows, through pg_restore); none when it has no such table. With
 * `whole`, the stream is read to its end, so that a file cut short fails here. */
export async function dumpMigrations(file: string | Readable, whole = false): Promise<string[]> {
  const args = ['--data-only', '--table=schema_migrations', '--file=-'];
  const { stdout } =
    typeof file === 'string'
      ? await runTool('pg_restore', [...args, file])
      : await runTool('pg_restore', args, process.env, { stdin: file, readAllInput: whole });
  return migrationsFromScript(stdout.toString('utf8')) ?? [];
}

/** Tables whose rows are the programme's data: every entity table (users and lookup lists among
 * them) and the image bytes. A freshly migrated database has none; a server that started once
 * has its first administrator. */
export const DATA_TABLES: readonly string[] = [...serverEntities.map((entity) => entity.table), 'images'];

/** The data tables of `db` that hold at least one row (a missing table holds none). */
export async function tablesWithRows(db: Queryable): Promise<string[]> {
  const present = await db.query<{ name: string }>(
    `SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass('public.' || quote_ident(name)) IS NOT NULL`,
    [DATA_TABLES],
  );
  const held: string[] = [];
  for (const { name } of present) {
    const [{ rows }] = await db.query<{ rows: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${ident(name)}) AS "rows"`);
    if (rows) held.push(name);
  }
  return held;
}

/** What a restore says it restored. */
const COUNTED = [
  ['users', entityByName.user.table],
  ['clients', entityByName.profile.table],
  ['providers', entityByName.serviceProvider.table],
  ['services', entityByName.service.table],
  ['jobs', entityByName.job.table],
  ['referrals', entityByName.referral.table],
  ['job referrals', entityByName.jobReferral.table],
  ['images and files', 'images'],
] as const;

export type RecordCounts = Record<(typeof COUNTED)[number][0], number>;

export async function recordCounts(db: Queryable): Promise<RecordCounts> {
  const select = COUNTED.map(([label, table]) => `(SELECT count(*) FROM ${ident(table)})::int AS ${ident(label)}`).join(', ');
  const [row] = await db.query<RecordCounts>(`SELECT ${select}`);
  return row as RecordCounts;
}

export const describeCounts = (counts: RecordCounts): string =>
  Object.entries(counts)
    .map(([label, n]) => `${label} ${n}`)
    .join(', ');

/** '4.6 MB' */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
