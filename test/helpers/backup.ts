// Databases for the backup drill (test/api/backup-restore.test.ts) and its benchmark
// (bench/backup.bench.ts): one filled as a programme's would be (an administrator, the token
// secret, demo records with their audit entries, image bytes), and a fingerprint of everything
// it holds, to compare a restored copy with.
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ident } from '../../schemas/derive/sql';
import { ensureFirstAdmin, tokenSecret } from '../../server/bootstrap';
import { configFromEnv } from '../../server/config';
import { openDb, type Db, type DbOptions } from '../../server/db/index';
import { migrate } from '../../server/db/migrations';
import { putImage } from '../../server/lib/images';
import { seedDemo, type DemoSummary } from '../../server/seed/demo';
import { createScratchDatabase, type Backend } from './db';

/** A database a test or a benchmark makes, backs up, restores into, and drops. */
export interface DrillDatabase {
  /** What `backup` and `restore` take: DATABASE_URL, else DATA_DIR. */
  target: DbOptions;
  open(): Promise<Db>;
  drop(): Promise<void>;
}

/** A new database: an embedded one in `work/name` (not made yet), or an empty scratch PostgreSQL one. */
export async function drillDatabase(backend: Backend, work: string, name: string): Promise<DrillDatabase> {
  if (backend === 'pglite') {
    const target = { dataDir: path.join(work, name) };
    return { target, open: () => openDb(target), drop: async () => rmSync(target.dataDir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchDatabase();
  const target = { dataDir: 'memory://', databaseUrl: scratch.url };
  return { target, open: () => openDb(target), drop: () => scratch.drop() };
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export interface Filled {
  demo: DemoSummary;
  /** sha256 of each image's bytes, by "ownerTable/ownerId/slot". */
  images: Record<string, string>;
  imageBytes: number;
}

/**
 * Migrates `db` and fills it: the first administrator and the stored token secret (as a first
 * start makes them), the demo records at `scale` (their audit entries come with them), and
 * `images` images of `imageKb` KB of random bytes, each starting with every byte value 0..255.
 */
export async function fillDatabase(db: Db, options: { scale: number; images?: number; imageKb?: number }): Promise<Filled> {
  await migrate(db);
  const config = { ...configFromEnv({}), dataDir: 'memory://', adminPassword: 'admin-password-1' };
  await ensureFirstAdmin(db, config);
  await tokenSecret(db, config);
  const [admin] = await db.query<{ userId: string }>(`SELECT "userId" FROM "users" WHERE "role" = 1`);
  const demo = await seedDemo(db, { scale: options.scale, createdBy: admin?.userId ?? null, seed: 29 });
  const providers = await db.query<{ id: string }>(`SELECT "sp_Id" AS id FROM "tbl_serviceprovider" ORDER BY "sp_Id" LIMIT $1`, [
    options.images ?? 0,
  ]);
  const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const images: Record<string, string> = {};
  let imageBytes = 0;
  for (const { id } of providers) {
    const data = Buffer.concat([everyByte, randomBytes((options.imageKb ?? 64) * 1024 - everyByte.length)]);
    await putImage(
      db,
      { table: 'tbl_serviceprovider', id },
      'sp_img1',
      { field: 'sp_img1', fileName: 'photo.jpg', mime: 'image/jpeg', data },
      admin?.userId ?? '',
    );
    images[`tbl_serviceprovider/${id}/sp_img1`] = sha256(data);
    imageBytes += data.length;
  }
  return { demo, images, imageBytes };
}

export interface TableHash {
  rows: number;
  sha256: string;
}

/**
 * The fingerprint of every table of the public schema (and every sequence's position): the
 * sha256 of its rows rendered as text (bytea as hex, times in UTC), sorted, so that the order
 * rows come back in does not matter. Equal fingerprints: the same rows, byte for byte.
 */
export async function tableHashes(db: Db): Promise<Record<string, TableHash>> {
  return db.transaction(
    async (tx) => {
      const hashes: Record<string, TableHash> = {};
      const tables = await tx.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
      );
      for (const { name } of tables) {
        const rows = (await tx.query<{ row: string }>(`SELECT t::text AS "row" FROM ${ident(name)} t`)).map((r) => r.row).sort();
        hashes[name] = { rows: rows.length, sha256: sha256(rows.join('\n')) };
      }
      const sequences = await tx.query<{ name: string }>(
        `SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = 'public'`,
      );
      for (const { name } of sequences) {
        const [position] = await tx.query<{ row: string }>(`SELECT (last_value, is_called)::text AS "row" FROM ${ident(name)}`);
        hashes[`sequence ${name}`] = { rows: 1, sha256: sha256(position?.row ?? '') };
      }
      return hashes;
    },
    { TimeZone: 'UTC', bytea_output: 'hex' },
  );
}

/** sha256 of each stored image's bytes, by "ownerTable/ownerId/slot". */
export async function imageHashes(db: Db): Promise<Record<string, string>> {
  const rows = await db.query<{ key: string; data: Uint8Array }>(
    `SELECT "ownerTable" || '/' || "ownerId" || '/' || "slot" AS "key", "data" FROM "images"`,
  );
  return Object.fromEntries(rows.map((row) => [row.key, sha256(row.data)]));
}

/** Runs `work` on an open connection to `database`, closed after. */
export async function withDb<T>(database: DrillDatabase, work: (db: Db) => Promise<T>): Promise<T> {
  const db = await database.open();
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
