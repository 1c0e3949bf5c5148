// The upload plan's keys (pendingKeys, src/lib/sync/upload/store.ts): read from the Dexie index alone,
// in the same order as the query of the pending documents (oldest first), whatever else the
// collection holds: server copies, removed documents, conflicts, records made at the same time.
import { afterEach, describe, expect, it } from 'vitest';
import { docFromRow, newestFirstKey } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { file, job, profileImage } from '../../schemas/index';
import type { EntityShape } from '../../schemas/define';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { collection, keysFromIndex, pendingKeys } from '../../src/lib/sync/upload/store';
import { openTestDb } from '../helpers/rxdb';

let db: IcrsDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** The keys as the query of whole documents gives them (the plan before session 8). */
async function keysByQuery(entity: EntityShape): Promise<string[]> {
  const docs = await collection(db as IcrsDatabase, entity)
    .find({ selector: { syncState: 'pending' }, sort: [{ sortDesc: 'asc' }] })
    .exec();
  return docs.map((d) => d.primary).reverse();
}

describe('the plan of an upload', () => {
  it('reads the pending keys from the index, oldest first, as the query of the documents does', async () => {
    db = await openTestDb();
    const jobs = collectionOf(db, job);
    const at = Date.now();
    const docs = Array.from({ length: 40 }, (_, i): Record<string, unknown> => {
      const body = sampleBody(job);
      const doc = docFromRow(job, { ...body, createdAt: new Date(at + (i % 7) * 1000).toISOString() }) as Record<string, unknown>;
      // Several made in the same millisecond: the key decides, as in RxDB's sort.
      doc.sortDesc = newestFirstKey(at + (i % 5), String(body.jb_Id));
      const state = i % 4 === 0 ? { syncState: 'synced' } : { syncState: 'pending', syncOp: 'create', syncAttempts: 0 };
      return { ...doc, ...state, ...(i % 9 === 0 ? { syncError: JSON.stringify({ conflict: true, message: 'conflict' }) } : {}) };
    });
    await jobs.bulkInsert(docs as never[]);
    await jobs.bulkRemove(docs.filter((_, i) => i % 6 === 1).map((d) => String(d.jb_Id)));
    const expected = await keysByQuery(job);
    expect(expected.length).toBeGreaterThan(10);
    expect(await keysFromIndex(jobs)).toEqual([...expected].reverse());
    expect(await pendingKeys(db, job)).toEqual(expected);
  });

  it('reads them for the kinds with two-part keys and for profile photos too, and nothing when none waits', async () => {
    db = await openTestDb();
    expect(await keysFromIndex(collection(db, profileImage))).toEqual([]);
    const photos = collectionOf(db, profileImage);
    const at = Date.now();
    await photos.bulkInsert(
      ['P1', 'P2', 'P3'].map((prof, i) => ({
        prof_Id: prof,
        img_for: 'photo',
        name: 'p.png',
        type: 'image/png',
        size: 4,
        data: 'AAAA',
        syncState: i === 1 ? 'synced' : 'pending',
        syncAttempts: 0,
        sortDesc: newestFirstKey(at + i, `${prof}|photo`),
      })) as never[],
    );
    expect(await pendingKeys(db, profileImage)).toEqual(await keysByQuery(profileImage));
    expect((await pendingKeys(db, profileImage)).length).toBe(2);
    expect(await keysFromIndex(collection(db, file))).toEqual([]);
  });
});
