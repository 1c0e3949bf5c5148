// Removed images leave no bytes behind (src/lib/store/lightDeletes.ts): the tombstone of a removed
// image has no `data`, and what this store tells the other tabs (RxDB's BroadcastChannel, the
// same channel and message format as RxDB's own multi-instance support) is whole for inserts and
// updates and carries no bytes for removals. Messages from another tab still reach this store.
import { BroadcastChannel } from 'broadcast-channel'; // RxDB's own channel: native in browsers, sockets in Node
import { afterEach, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { newestFirstKey } from '../../schemas/derive/rxdb';
import { file, job } from '../../schemas/index';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { heavyFields } from '../../src/lib/store/lightDeletes';
import { openTestDb } from '../helpers/rxdb';

type Message = {
  collectionName: string;
  eventBulk: {
    events: {
      operation: string;
      documentId: string;
      documentData: Record<string, unknown>;
      previousDocumentData: Record<string, unknown> | null;
    }[];
  };
};

let db: IcrsDatabase | undefined;
const channels: BroadcastChannel<unknown>[] = [];
afterEach(async () => {
  for (const c of channels.splice(0)) await c.close();
  await db?.close();
  db = undefined;
});

/** A BroadcastChannel on the store's RxDB channel: what another tab hears and says. */
function otherTab(name: string): { heard: Message[]; say: (message: unknown) => void } {
  const channel = new BroadcastChannel<unknown>(`RxDB:|dexie|${name}`);
  channels.push(channel);
  const heard: Message[] = [];
  channel.onmessage = (message) => heard.push(message as Message);
  return { heard, say: (message) => void channel.postMessage(message) };
}

const BYTES = 'A'.repeat(40_000);
const image = (srcId: string, data = BYTES) => ({
  srcId,
  srcTable: job.table,
  imgNo: 1,
  name: 'a.png',
  type: 'image/png',
  size: 30_000,
  data,
  syncState: 'pending',
  syncAttempts: 0,
  sortDesc: newestFirstKey(Date.now(), `${srcId}|1`),
});
const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

describe('removed images without their bytes', () => {
  it('finds the image fields from the schemas', async () => {
    db = await openTestDb();
    expect(heavyFields(collectionOf(db, file).schema.jsonSchema as never)).toEqual(['data']);
    expect(heavyFields(collectionOf(db, job).schema.jsonSchema as never)).toEqual([]);
  });

  it('tells other tabs of inserts and updates whole and of removals without bytes; keeps no bytes in the tombstone', async () => {
    db = await openTestDb();
    const tab = otherTab(db.name);
    const files = collectionOf(db, file);
    const doc = await files.insert(image('JB1'));
    await eventually(() => tab.heard.some((m) => m.collectionName === 'files' && m.eventBulk.events.some((e) => e.operation === 'INSERT')));
    const inserted = tab.heard.flatMap((m) => m.eventBulk.events).find((e) => e.operation === 'INSERT');
    expect(inserted?.documentData.data).toBe(BYTES);

    const updated = await doc.incrementalPatch({ data: 'B'.repeat(40_000) });
    await eventually(() => tab.heard.some((m) => m.eventBulk.events.some((e) => e.operation === 'UPDATE')));
    const update = tab.heard.flatMap((m) => m.eventBulk.events).find((e) => e.operation === 'UPDATE');
    expect(update?.documentData.data).toBe('B'.repeat(40_000));

    await updated.remove();
    await eventually(() => tab.heard.some((m) => m.eventBulk.events.some((e) => e.operation === 'DELETE')));
    const removal = tab.heard.flatMap((m) => m.eventBulk.events).find((e) => e.operation === 'DELETE');
    expect(removal?.documentId).toBe('JB1|1');
    expect(removal?.documentData._deleted).toBe(true);
    expect(removal?.documentData.data).toBe('');
    expect(removal?.previousDocumentData?.data).toBe('');
    expect(removal?.previousDocumentData?.srcId).toBe('JB1');

    const [tombstone] = await files.storageInstance.findDocumentsById(['JB1|1'], true);
    expect(tombstone?._deleted).toBe(true);
    expect(tombstone?.data).toBe(''); // emptied, so the tombstone still fits the schema
    expect(await files.findOne('JB1|1').exec()).toBeNull();
    // The key is free again: a new image in the same slot is stored whole.
    await files.insert(image('JB1', 'C'.repeat(100)));
    expect((await files.findOne('JB1|1').exec())?.get('data')).toBe('C'.repeat(100));
  });

  it("hears the other tabs: their writes reach this store's live queries", async () => {
    db = await openTestDb();
    const tab = otherTab(db.name);
    const files = collectionOf(db, file);
    const seen: string[] = [];
    const subscription = files.$.subscribe((event) => seen.push(`${event.operation} ${event.documentId}`));
    const data = { ...image('JB2'), _deleted: false, _attachments: {}, _rev: '1-other', _meta: { lwt: Date.now() } };
    tab.say({
      storageName: 'dexie',
      databaseName: db.name,
      collectionName: 'files',
      version: files.schema.version,
      eventBulk: {
        id: 'other-bulk',
        checkpoint: { id: 'JB2|1', lwt: Date.now() },
        context: 'other-tab',
        events: [{ documentId: 'JB2|1', operation: 'INSERT', documentData: data, previousDocumentData: null }],
      },
    });
    await eventually(() => seen.includes('INSERT JB2|1'));
    subscription.unsubscribe();
  });

  it('migrates a collection holding removed images to a new schema version, the live images whole', async () => {
    const name = `icrs_light_${Date.now()}`;
    db = await openTestDb({ name });
    const files = collectionOf(db, file);
    await files.bulkInsert(['JB3', 'JB4', 'JB5'].map((key) => image(key)));
    await files.bulkRemove(['JB3|1', 'JB4|1']);
    await db.close();

    const bumped = (e: EntityShape): EntityShape => (e === file ? { ...e, rxVersion: e.rxVersion + 1 } : e);
    const steps = {
      [file.table]: { [file.rxVersion + 1]: (doc: Record<string, unknown>) => ({ ...doc, name: `v2-${String(doc.name)}` }) },
    };
    db = await openTestDb({ name, schemaOverride: bumped, migrationSteps: steps });
    const live = await collectionOf(db, file).find().exec();
    expect(live.map((d) => [d.primary, d.get('name'), d.get('data')])).toEqual([['JB5|1', 'v2-a.png', BYTES]]);
  });
});
