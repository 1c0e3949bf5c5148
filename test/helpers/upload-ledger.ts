// What an upload test put into a store, to check that the server ends with each record exactly
// once (ADR-0018): none lost, none doubled, every image. The tests under faults and with the pull
// replication keep theirs here.
import { expect } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { profileImage } from '../../schemas/index';
import type { Db } from '../../server/db/index';
import type { IcrsDatabase } from '../../src/lib/store/database';
import { bodyOf, photoBody, pngFor, refsTo, type UnitWriter } from './pending';
import { addPending, addPendingImage } from './rxdb';
import { PNG_1PX } from './records';

export class UploadLedger {
  /** Every key put into the store, by entity: the server must hold these and no others. */
  readonly keys = new Map<EntityShape, Set<string>>();
  /** The images (photos included) the server must hold. */
  images = 0;

  add(entity: EntityShape, key: string): void {
    this.keys.set(entity, (this.keys.get(entity) ?? new Set()).add(key));
  }

  /** Writes units into the store `db()` answers (distinct bytes per image, a 1-pixel photo), noting each record. */
  writer(db: () => IcrsDatabase): UnitWriter<string> {
    return {
      record: async (entity, parent) => {
        const key = await addPending(db(), entity, bodyOf(entity, refsTo(entity, parent)));
        this.add(entity, key);
        return key;
      },
      image: async (owner, key, slot) => {
        await addPendingImage(db(), owner, key, slot, pngFor(`${key}-${slot}`));
        this.images += 1;
      },
      photo: async (prof) => {
        this.add(profileImage, await addPending(db(), profileImage, photoBody(prof, PNG_1PX)));
        this.images += 1;
      },
    };
  }

  /** Lost: a record missing on the server; doubled: a row of `userId` beyond those noted. */
  async expectOnServer(sql: Db, userId: string, label = ''): Promise<void> {
    for (const [entity, keys] of this.keys) {
      if (entity === profileImage) continue; // keyed by profile and kind, counted with the images
      const key = entity.keyFields[0] as string;
      const [byKey] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}" WHERE "${key}" = ANY($1::text[])`, [
        [...keys],
      ]);
      expect(keys.size - (byKey?.n ?? 0), `${label}${entity.table} lost`).toBe(0);
      const [mine] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${entity.table}" WHERE "createdBy" = $1`, [userId]);
      expect((mine?.n ?? 0) - keys.size, `${label}${entity.table} doubled`).toBe(0);
    }
    const [images] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "images" WHERE "createdBy" = $1`, [userId]);
    expect(images?.n, `${label}images`).toBe(this.images);
  }
}
