// Client data sealed at rest (ADR-0020, src/lib/store/sealedStorage.ts): what IndexedDB holds of a
// client is its key, its parent's key, its sync state and sort key, and one AES-GCM `sealed`
// field; the lists' search, filters, sorts and counts still answer from it; another key, or none,
// reads nothing. The real Dexie storage over fake-indexeddb.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { newestFirstKey } from '../../schemas/derive/rxdb';
import { uuidv7 } from '../../schemas/ids';
import { profile, profileImage, serviceProvider, skills } from '../../schemas/index';
import { mangoOf, selectorOf, countOf } from '../../src/lib/data/query';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { warmOpened } from '../../src/lib/store/warmCache';
import { lockVault, openWithKey, vaultSealer, VaultLockedError } from '../../src/lib/vault/vault';
import { localClientDoc } from '../helpers/pending';
import { openTestDb, openTestVault } from '../helpers/rxdb';

void IDBKeyRange;
let db: IcrsDatabase | undefined;
beforeEach(() => openTestVault());
afterEach(async () => {
  await db?.close();
  db = undefined;
  lockVault();
  await openTestVault();
});

const PHOTO = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=='.repeat(20);

function client(firstName: string, lastName: string, phone: string, extra: Record<string, unknown> = {}) {
  return localClientDoc({ firstName, lastName, phone, sex: 'F', birthDate: '1990-01-01', territory: 1, ...extra });
}

/** Every value IndexedDB holds in every database of this process, as text. */
async function everythingStored(): Promise<string> {
  const parts: string[] = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    for (const store of Array.from(database.objectStoreNames)) {
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const request = database.transaction(store, 'readonly').objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      parts.push(JSON.stringify(rows));
    }
    database.close();
  }
  return parts.join('\n');
}

const list = (entity: EntityShape, query: Parameters<typeof mangoOf>[1]) => collectionOf(db!, entity).find(mangoOf(entity, query)).exec();

describe('sealed client collections', () => {
  it('keeps no name, phone or photo of a client in clear in IndexedDB; directory data stays readable', async () => {
    db = await openTestDb();
    const amina = client('Aminatou', 'Zawadisky', '+243811223344');
    await collectionOf(db, profile).insert(amina);
    await collectionOf(db, skills).insert({
      prof_Id: amina.prof_Id,
      syncState: 'pending',
      syncOp: 'create',
      syncAttempts: 0,
      sortDesc: newestFirstKey(Date.now(), amina.prof_Id),
      otherSkills: 'Weaving by Zawadisky',
    });
    await collectionOf(db, profileImage).insert({
      pk: `${amina.prof_Id}|photo`,
      prof_Id: amina.prof_Id,
      img_for: 'photo',
      name: 'Zawadisky.png',
      type: 'image/png',
      size: 100,
      data: PHOTO,
      syncState: 'pending',
      syncOp: 'create',
      syncAttempts: 0,
      sortDesc: newestFirstKey(Date.now(), `${amina.prof_Id}|photo`),
    });
    const sp_Id = uuidv7();
    await collectionOf(db, serviceProvider).insert({
      sp_Id,
      sp_Name: 'Open Directory Provider',
      sp_type: 1,
      territory: 1,
      syncState: 'pending',
      syncOp: 'create',
      syncAttempts: 0,
      sortDesc: newestFirstKey(Date.now(), sp_Id),
    });

    const secrets = ['Aminatou', 'Zawadisky', '+243811223344', amina.prof_Reg_No, PHOTO.slice(0, 60), 'Weaving'];
    const found = (stored: string) => secrets.filter((secret) => stored.includes(secret));
    const stored = await everythingStored();
    expect(found(stored)).toEqual([]);
    expect(stored).toContain(amina.prof_Id); // keys stay in clear, for IndexedDB's indexes
    expect(stored).toContain('Open Directory Provider');

    // A write that keeps the photo (the upload's state) seals the rest only.
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    try {
      await (await collectionOf(db, profileImage).findOne(`${amina.prof_Id}|photo`).exec())!.incrementalPatch({ syncAttempts: 1 });
      expect(encrypt.mock.calls.length).toBe(1);
    } finally {
      encrypt.mockRestore();
    }
    expect(found(await everythingStored())).toEqual([]);

    // The app reads them whole.
    expect((await collectionOf(db, profile).findOne(amina.prof_Id).exec())?.get('lastName')).toBe('Zawadisky');
    expect((await collectionOf(db, profileImage).findOne(`${amina.prof_Id}|photo`).exec())?.get('data')).toBe(PHOTO);
    expect(
      (
        await collectionOf(db, skills)
          .find({ selector: { prof_Id: amina.prof_Id } })
          .exec()
      ).map((d) => d.get('otherSkills')),
    ).toEqual(['Weaving by Zawadisky']);
  });

  it('searches, filters, sorts, pages and counts the client list over sealed fields, and follows later writes', async () => {
    db = await openTestDb();
    const profiles = collectionOf(db, profile);
    const names = ['Bahati', 'Amani', 'Chance', 'Dorcas', 'Esther', 'Furaha'];
    const docs = names.map((name, i) =>
      client(name, `Family${i}`, `+24381000000${i}`, {
        sex: i % 2 ? 'M' : 'F',
        sortDesc: newestFirstKey(1_700_000_000_000 + i * 1000, `k${i}`),
      }),
    );
    expect((await profiles.bulkInsert(docs)).error).toEqual([]);

    const byName = await list(profile, { sort: 'firstName', dir: 'asc', pageSize: 4 });
    expect(byName.map((d) => d.get('firstName'))).toEqual(['Amani', 'Bahati', 'Chance', 'Dorcas']);
    const page2 = await list(profile, { sort: 'firstName', dir: 'asc', pageSize: 4, page: 2 });
    expect(page2.map((d) => d.get('firstName'))).toEqual(['Esther', 'Furaha']);
    const newest = await list(profile, { pageSize: 10 });
    expect(newest.map((d) => d.get('firstName'))).toEqual([...names].reverse());
    expect((await list(profile, { q: 'family3' })).map((d) => d.get('firstName'))).toEqual(['Dorcas']);
    expect((await list(profile, { q: '+24381000000' })).length).toBe(6);
    const men = await list(profile, { filter: { sex: 'M' }, sort: 'lastName', dir: 'desc' });
    expect(men.map((d) => d.get('firstName'))).toEqual(['Furaha', 'Dorcas', 'Amani']);
    expect(await countOf(profiles, selectorOf(profile, { filter: { sex: 'M' } }))).toBe(3);
    expect(await countOf(profiles, selectorOf(profile, { q: 'Bahati' }))).toBe(1);
    // A condition on a clear field narrows the search in IndexedDB; the rest is checked in memory.
    const pendingDorcas = await profiles.find({ selector: { syncState: 'pending', syncOp: 'create', firstName: 'Dorcas' } }).exec();
    expect(pendingDorcas.map((d) => d.get('lastName'))).toEqual(['Family3']);
    expect(await countOf(profiles, { syncState: 'synced', firstName: 'Dorcas' })).toBe(0);

    // Later writes are seen: an edit, a removal, a new client.
    await (await profiles.findOne(docs[0].prof_Id).exec())!.incrementalPatch({ firstName: 'Zuri' });
    await (await profiles.findOne(docs[1].prof_Id).exec())!.remove();
    await profiles.insert(client('Aaron', 'Newcomer', '+243899999999'));
    expect((await list(profile, { sort: 'firstName', dir: 'asc', pageSize: 10 })).map((d) => d.get('firstName'))).toEqual([
      'Aaron',
      'Chance',
      'Dorcas',
      'Esther',
      'Furaha',
      'Zuri',
    ]);
    expect(await countOf(profiles, selectorOf(profile, { q: 'Bahati' }))).toBe(0);
    expect(await countOf(profiles, selectorOf(profile, { q: 'Zuri' }))).toBe(1);
  });

  it('opens only the rows of the page for an unfiltered list and its count (no search over every client)', async () => {
    const name = `icrs_sealed_count_${process.pid}_${Date.now()}`;
    db = await openTestDb({ name });
    expect(
      (await collectionOf(db, profile).bulkInsert(Array.from({ length: 40 }, (_, i) => client(`Name${i}`, `Family${i}`, '+243810000000'))))
        .error,
    ).toEqual([]);
    await db.close();
    db = await openTestDb({ name }); // a fresh page: nothing opened yet
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    try {
      const profiles = collectionOf(db, profile);
      expect((await list(profile, { pageSize: 10 })).length).toBe(10);
      expect(await countOf(profiles, selectorOf(profile, {}))).toBe(40);
      expect(decrypt.mock.calls.length).toBeLessThanOrEqual(10);
    } finally {
      decrypt.mockRestore();
    }
  });

  it('opens the clients ahead when the list asks, so that the search after it opens none', async () => {
    const name = `icrs_sealed_warm_${process.pid}_${Date.now()}`;
    db = await openTestDb({ name });
    const clients = Array.from({ length: 31 }, (_, i) =>
      client(`Name${i}`, i === 7 || i === 30 ? 'Kavirambali' : `Family${i}`, '+243810000000'),
    );
    expect((await collectionOf(db, profile).bulkInsert(clients)).error).toEqual([]);
    await (await collectionOf(db, profile).findOne(clients[30]!.prof_Id).exec())!.remove(); // a removed one is not read
    await db.close();
    db = await openTestDb({ name }); // a fresh page: nothing opened yet
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    try {
      await warmOpened(collectionOf(db, serviceProvider)); // not sealed: nothing to open
      expect(decrypt).not.toHaveBeenCalled();
      await warmOpened(collectionOf(db, profile));
      expect(decrypt).toHaveBeenCalledTimes(30);
      const found = await list(profile, { q: 'kavira' });
      expect(found.map((d) => d.get('firstName'))).toEqual(['Name7']);
      expect(await countOf(collectionOf(db, profile), selectorOf(profile, { q: 'kavira' }))).toBe(1);
      expect(decrypt).toHaveBeenCalledTimes(30);
    } finally {
      decrypt.mockRestore();
    }
  });

  it('reads nothing without the key that sealed it, or with the vault locked', async () => {
    const name = `icrs_sealed_${process.pid}_${Date.now()}`;
    db = await openTestDb({ name });
    const amina = client('Aminatou', 'Zawadisky', '+243811223344');
    await collectionOf(db, profile).insert(amina);
    await db.close();

    lockVault();
    openWithKey('someone-else', await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
    db = await openTestDb({ name });
    await expect(collectionOf(db, profile).findOne(amina.prof_Id).exec()).rejects.toThrow();
    await db.close();

    lockVault();
    const { createIcrsDb } = await import('../../src/lib/store/database');
    const { fakeIndexedDbStorage } = await import('../helpers/rxdb');
    db = await createIcrsDb({ storage: fakeIndexedDbStorage(), name, sealer: vaultSealer });
    await expect(collectionOf(db, profile).findOne(amina.prof_Id).exec()).rejects.toBeInstanceOf(VaultLockedError);
  });
});
