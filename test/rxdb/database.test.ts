// The icrs_db store: the 13 collections of spec §3 on Dexie, and schema migration without loss.
import { afterEach, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { docFromRow } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { offlineCollections, serviceProvider } from '../../schemas/index';
import { collectionOf, type IcrsDatabase } from '../../src/lib/db/database';
import { openTestDb } from '../helpers/rxdb';

describe('icrs_db', () => {
  let db: IcrsDatabase | undefined;
  afterEach(async () => { await db?.close(); db = undefined; });

  it('has exactly the 13 collections of spec §3', async () => {
    db = await openTestDb();
    expect(Object.keys(db.collections).sort()).toEqual(offlineCollections.map((t) => t.replace(/-/g, '_')).sort());
    expect(offlineCollections).toHaveLength(13);
  });

  it('migrates stored records to a new schema version without losing one', async () => {
    const name = `icrs_migration_${Date.now()}`;
    db = await openTestDb({ name });
    const rows: Record<string, unknown>[] = Array.from({ length: 25 }, () => ({ ...sampleBody(serviceProvider), createdAt: new Date().toISOString() }));
    await collectionOf(db, serviceProvider).bulkInsert(rows.map((r) => docFromRow(serviceProvider, r)));
    await db.close();

    // Version 1 of the provider schema: a step that upper-cases names, as a real change would transform data.
    const bumped = (e: EntityShape): EntityShape => (e === serviceProvider ? { ...e, rxVersion: 1 } : e);
    const migrationSteps = { [serviceProvider.table]: { 1: (doc: Record<string, unknown>) => ({ ...doc, sp_Name: String(doc.sp_Name).toUpperCase() }) } };
    db = await openTestDb({ name, schemaOverride: bumped, migrationSteps });
    const migrated = await collectionOf(db, serviceProvider).find().exec();
    expect(migrated).toHaveLength(25);
    expect(migrated.every((d) => d.sp_Name === String(d.sp_Name).toUpperCase())).toBe(true);
    expect(migrated.map((d) => d.sp_Id).sort()).toEqual(rows.map((r) => r.sp_Id).sort());
  });
});
