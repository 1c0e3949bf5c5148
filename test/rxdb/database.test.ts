// The icrs_db store: the 13 collections of product.md §3 on Dexie, and schema migration without loss.
import { afterEach, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { docFromRow } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { job, offlineCollections, profile, service, serviceProvider } from '../../schemas/index';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { openTestDb } from '../helpers/rxdb';

describe('icrs_db', () => {
  let db: IcrsDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('has exactly the 13 collections of product.md §3', async () => {
    db = await openTestDb();
    expect(Object.keys(db.collections).sort()).toEqual(offlineCollections.map((t) => t.replace(/-/g, '_')).sort());
    expect(offlineCollections).toHaveLength(13);
  });

  it("sets up the first screen's collection first, in a step of its own, readable before the others are set up", async () => {
    const name = `icrs_first_${Date.now()}`;
    db = await openTestDb({ name });
    const rows = Array.from({ length: 3 }, () => docFromRow(profile, { ...sampleBody(profile), createdAt: new Date().toISOString() }));
    await collectionOf(db, profile).bulkInsert(rows);
    await db.close();

    const steps: string[][] = [];
    let readAtFirstStep: Promise<unknown[]> | undefined;
    db = await openTestDb({
      name,
      first: [profile],
      onCollections: (opening) => {
        steps.push(Object.keys(opening.collections).sort());
        readAtFirstStep ??= collectionOf(opening, profile).find().exec();
      },
    });
    expect(steps[0]).toEqual(['tbl_profiles']);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.at(-1)).toHaveLength(13);
    expect(await readAtFirstStep).toHaveLength(3);
  });

  it('migrates stored records to a new schema version without losing one', async () => {
    const name = `icrs_migration_${Date.now()}`;
    db = await openTestDb({ name });
    const rows: Record<string, unknown>[] = Array.from({ length: 25 }, () => ({
      ...sampleBody(serviceProvider),
      createdAt: new Date().toISOString(),
    }));
    await collectionOf(db, serviceProvider).bulkInsert(rows.map((r) => docFromRow(serviceProvider, r)));
    await db.close();

    // Version 1 of the provider schema: a step that upper-cases names, as a real change would transform data.
    const bumped = (e: EntityShape): EntityShape => (e === serviceProvider ? { ...e, rxVersion: 1 } : e);
    const migrationSteps = {
      [serviceProvider.table]: { 1: (doc: Record<string, unknown>) => ({ ...doc, sp_Name: String(doc.sp_Name).toUpperCase() }) },
    };
    db = await openTestDb({ name, schemaOverride: bumped, migrationSteps });
    const migrated = await collectionOf(db, serviceProvider).find().exec();
    expect(migrated).toHaveLength(25);
    expect(migrated.every((d) => d.sp_Name === String(d.sp_Name).toUpperCase())).toBe(true);
    expect(migrated.map((d) => d.sp_Id).sort()).toEqual(rows.map((r) => r.sp_Id).sort());
  });

  it('opens a store of the previous release (jobs and services at version 0) with every pending record intact', async () => {
    const name = `icrs_release_${Date.now()}`;
    // Version 0 of the jobs and services schemas: the same fields, no syncRemoveImages.
    const previous = (e: EntityShape): EntityShape => (e === job || e === service ? { ...e, rxVersion: 0, images: [] } : e);
    db = await openTestDb({ name, schemaOverride: previous });
    type Doc = Record<string, unknown>;
    const pending = (entity: EntityShape, body: Doc): Doc => ({
      ...(docFromRow(entity, { ...body, createdAt: new Date().toISOString() }) as Record<string, unknown>),
      syncState: 'pending',
      syncOp: 'update',
      syncBase: new Date().toISOString(),
    });
    const jobs = Array.from({ length: 10 }, () => pending(job, sampleBody(job)));
    const services = Array.from({ length: 10 }, () => pending(service, sampleBody(service)));
    await collectionOf(db, job).bulkInsert(jobs as never[]);
    await collectionOf(db, service).bulkInsert(services as never[]);
    await db.close();

    db = await openTestDb({ name });
    const migratedJobs = await collectionOf(db, job).find().exec();
    const migratedServices = await collectionOf(db, service).find().exec();
    const byKey = (a: Doc, b: Doc) => String(a.jb_Id).localeCompare(String(b.jb_Id));
    const stored = migratedJobs.map((d) => d.toJSON() as Doc).sort(byKey);
    expect(stored).toEqual([...jobs].sort(byKey).map((d) => expect.objectContaining(d)));
    expect(migratedServices.map((d) => d.sp_Detail_Id).sort()).toEqual(services.map((d) => String(d.sp_Detail_Id)).sort());
    expect(migratedServices.every((d) => d.syncState === 'pending' && d.syncOp === 'update')).toBe(true);
  });
});
