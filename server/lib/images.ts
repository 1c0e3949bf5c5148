// Image and file bytes in the `images` table, written in the same transaction as their record.
import type { Queryable } from '../db/index';
import { extensionOf, type UploadedFile } from './uploads';

export interface StoredImage {
  ownerTable: string;
  ownerId: string;
  slot: string;
  name: string;
  mime: string;
  size: number;
  data: Buffer;
}

/** A fresh name per upload, so a replaced image never hides behind a cached old one. */
export function storedName(slot: string, mime: string): string {
  return `${slot}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.${extensionOf(mime)}`;
}

/** Stores (or replaces) the file of one slot; answers the stored name. */
export async function putImage(
  db: Queryable,
  owner: { table: string; id: string },
  slot: string,
  file: UploadedFile,
  userId: string,
  name = storedName(slot, file.mime),
): Promise<string> {
  await db.query(
    `INSERT INTO "images" ("ownerTable", "ownerId", "slot", "name", "mime", "size", "data", "createdBy")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT ("ownerTable", "ownerId", "slot") DO UPDATE SET "name" = EXCLUDED."name", "mime" = EXCLUDED."mime",
       "size" = EXCLUDED."size", "data" = EXCLUDED."data", "createdAt" = now(), "createdBy" = EXCLUDED."createdBy"`,
    [owner.table, owner.id, slot, name, file.mime, file.data.length, file.data, userId],
  );
  return name;
}

/** Deletes the stored bytes of emptied slots: an image removed from a record is gone, not
 * merely unnamed (docs/security.md "Removed images"). */
export async function deleteImages(db: Queryable, owner: { table: string; id: string }, slots: readonly string[]): Promise<void> {
  if (!slots.length) return;
  await db.query('DELETE FROM "images" WHERE "ownerTable" = $1 AND "ownerId" = $2 AND "slot" = ANY($3::text[])', [
    owner.table,
    owner.id,
    [...slots],
  ]);
}

export async function findImage(
  db: Queryable,
  ownerTables: readonly string[],
  ownerId: string,
  name: string,
): Promise<StoredImage | undefined> {
  const rows = await db.query<StoredImage & Record<string, unknown>>(
    `SELECT * FROM "images" WHERE "ownerId" = $1 AND "name" = $2 AND "ownerTable" = ANY($3::text[]) LIMIT 1`,
    [ownerId, name, [...ownerTables]],
  );
  const row = rows[0];
  return row && { ...row, data: Buffer.from(row.data) };
}
