// The entity definitions (schemas/) against the spec, and every derivation against the real
// thing: DDL on PGlite, JSON schemas on ajv, RxDB schemas on RxDB's dev-mode checks and an
// in-memory RxDB database.

import { PGlite } from '@electric-sql/pglite';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { PERMISSIONS } from '../../schemas/roles.ts';
import { THING } from './thing-entity';
import {
  type CreateBodyOf,
  type DocOf,
  type EntityShape,
  type RowOf,
  type UpdateBodyOf,
  entities,
  entityByName,
  getEntity,
  getEntityByTable,
  defineEntity,
  f,
  recordTitle,
  offlineCollections,
  serverEntities,
  serverFields,
  serviceProvider,
  skills,
  profileImage,
  uploadOrder,
  user,
  UUID_PATTERN,
} from '../../schemas/index.ts';
import { createIndexesSql, createTableSql, indexColumns, indexName, schemaSql } from '../../schemas/derive/sql.ts';
import {
  PAGE_SIZES,
  createBodySchema,
  listQuerySchema,
  pageSchema,
  rowSchema,
  updateBodySchema,
} from '../../schemas/derive/json-schema.ts';
import { COMPOSITE_KEY, bodyFromDoc, docFromRow, newestFirstKey, rxSchema } from '../../schemas/derive/rxdb.ts';
import { sampleBody, sampleValue } from '../../schemas/derive/sample.ts';
import { translationKeys } from '../../schemas/derive/labels.ts';
import { SUPER_ADMIN_CANNOT_CREATE, isRegistrationNumber, registrationNumber, uuidv7, uuidv7Time } from '../../schemas/ids.ts';

const byTable = (table: string): EntityShape => {
  const e = getEntityByTable(table);
  if (!e) throw new Error(`no entity for ${table}`);
  return e;
};

// ---------------------------------------------------------------------------------------------
// The declarations against product.md §3, §4, §7, §8
// ---------------------------------------------------------------------------------------------

/** product.md §3 field names per table (kept exactly), plus product.md §D3's referral fields. */
const SPEC_FIELDS: Record<string, string[]> = {
  users: ['userId', 'userName', 'password', 'role', 'location'],
  lists: ['id', 'key', 'items'],
  tbl_serviceprovider: ['sp_Id', 'sp_Name', 'sp_type', 'sp_Address', 'lat', 'lng'],
  tbl_sp_detail: ['sp_Detail_Id', 'sp_Id', 'sp_img1', 'sp_img2', 'sp_img3', 'status', 'verifyComment', 'verifiedBy', 'verifiedAt'],
  tbl_apprship: ['appr_Id', 'sp_d_Id'],
  tbl_voc_train: ['voc_Id', 'sp_d_Id'],
  'available-jobs': ['jb_Id', 'jb_img1', 'jb_img2', 'jb_img3', 'lat', 'lng', 'open'],
  tbl_jobs_other: ['jb_oth_Id', 'jb_Id'],
  tbl_profiles: ['prof_Id', 'prof_Reg_No', 'BspData', 'location'],
  tbl_skills: ['prof_Id'],
  tbl_profiles_social: ['prof_Id'],
  tbl_profiles_sec: ['prof_Id'],
  tbl_profiles_bstart: ['prof_Id'],
  tbl_profiles_images: ['prof_Id', 'img_for', 'name', 'type', 'data'],
  referral: ['ref_Id', 'prof_Id', 'sp_Detail_Id', 'date', 'reason', 'status', 'feedback', 'followUpDate', 'attachments'],
  jobreferral: ['jref_Id', 'prof_Id', 'jb_Id', 'date', 'status', 'feedback'],
  files: ['srcId', 'imgNo'],
};

const KEYS: Record<string, string | string[]> = {
  users: 'userId',
  lists: 'id',
  tbl_serviceprovider: 'sp_Id',
  tbl_sp_detail: 'sp_Detail_Id',
  tbl_apprship: 'appr_Id',
  tbl_voc_train: 'voc_Id',
  'available-jobs': 'jb_Id',
  tbl_jobs_other: 'jb_oth_Id',
  tbl_profiles: 'prof_Id',
  tbl_skills: 'prof_Id',
  tbl_profiles_social: 'prof_Id',
  tbl_profiles_sec: 'prof_Id',
  tbl_profiles_bstart: 'prof_Id',
  tbl_profiles_images: ['prof_Id', 'img_for'],
  referral: 'ref_Id',
  jobreferral: 'jref_Id',
  files: ['srcId', 'imgNo'],
};

const PARENTS: Record<string, [string, string]> = {
  tbl_sp_detail: ['sp_Id', 'serviceProvider'],
  tbl_apprship: ['sp_d_Id', 'service'],
  tbl_voc_train: ['sp_d_Id', 'service'],
  tbl_jobs_other: ['jb_Id', 'job'],
  tbl_skills: ['prof_Id', 'profile'],
  tbl_profiles_social: ['prof_Id', 'profile'],
  tbl_profiles_sec: ['prof_Id', 'profile'],
  tbl_profiles_bstart: ['prof_Id', 'profile'],
  tbl_profiles_images: ['prof_Id', 'profile'],
  referral: ['prof_Id', 'profile'],
  jobreferral: ['prof_Id', 'profile'],
};

/** product.md §7 base paths (spelling kept: sproviers). */
const REST: Record<string, string> = {
  users: '/users',
  lists: '/lists',
  tbl_serviceprovider: '/sproviers',
  tbl_sp_detail: '/spDetail',
  tbl_apprship: '/appr',
  tbl_voc_train: '/vocTrain',
  'available-jobs': '/jobs',
  tbl_jobs_other: '/jobsother',
  tbl_profiles: '/profile',
  tbl_skills: '/profile/skprofile',
  tbl_profiles_social: '/profile/social',
  tbl_profiles_sec: '/profile/security',
  tbl_profiles_bstart: '/profile/Bstart',
  tbl_profiles_images: '/profile/images',
  referral: '/referral',
  jobreferral: '/jobreferral',
};

/** product.md §4 upload order with product.md §8 titles. */
const UPLOAD: [string, string][] = [
  ['available-jobs', 'JAALL Error'],
  ['tbl_jobs_other', 'OtJob Error'],
  ['tbl_serviceprovider', 'SaveSP Error'],
  ['tbl_sp_detail', 'SPD Error'],
  ['tbl_apprship', 'SP_App Error'],
  ['tbl_voc_train', 'SpVOC Error'],
  ['tbl_profiles', 'Save Prof basic Error'],
  ['tbl_skills', 'Save Prof skill Error'],
  ['tbl_profiles_social', 'Save Prof Social Error'],
  ['tbl_profiles_sec', 'Save Prof Security Error'],
  ['tbl_profiles_bstart', 'Save Prof Business Error'],
  ['tbl_profiles_images', 'Profile Sync Error'],
];

const OFFLINE = [
  'files',
  'available-jobs',
  'tbl_jobs_other',
  'tbl_serviceprovider',
  'tbl_sp_detail',
  'tbl_apprship',
  'tbl_voc_train',
  'tbl_profiles',
  'tbl_skills',
  'tbl_profiles_social',
  'tbl_profiles_sec',
  'tbl_profiles_bstart',
  'tbl_profiles_images',
];

describe('entity declarations', () => {
  it('declare every table of product.md §3 and product.md §D3, once', () => {
    expect(entities.map((e) => e.table).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    expect(new Set(entities.map((e) => e.name)).size).toBe(entities.length);
  });

  it.each(Object.entries(SPEC_FIELDS))('%s keeps the spec field names exactly', (table, names) => {
    const e = byTable(table);
    const declared = Object.keys({ ...e.fields, ...e.systemFields });
    for (const name of names) expect(declared).toContain(name);
  });

  it.each(Object.entries(KEYS))('%s has key %j', (table, key) => {
    expect(byTable(table).key).toEqual(key);
  });

  it('name records by their title fields, and refuse a title that is not a field', () => {
    expect(recordTitle(serviceProvider, { sp_Name: 'Centre Amani' })).toBe('Centre Amani');
    expect(recordTitle(entityByName.profile, { prof_Reg_No: 'ICRSAB12CD34', firstName: 'Aline', lastName: '' })).toBe('ICRSAB12CD34 Aline');
    expect(recordTitle(user, { userName: 'x' })).toBe(''); // no title: callers show the key
    expect(() =>
      defineEntity({
        ...THING,
        owner: null,
        // @ts-expect-error the declaration's type refuses it too
        title: ['label'],
        fields: { id: f.id({ required: true }) },
      }),
    ).toThrow(/title field label is not a field/);
  });

  it('children name their parents', () => {
    for (const e of entities) {
      const expected = PARENTS[e.table];
      expect(e.parent ? [e.parent.field, e.parent.entity] : undefined, e.table).toEqual(expected);
    }
  });

  it('every parent is declared before its children', () => {
    const seen = new Set<string>();
    for (const e of entities) {
      for (const field of Object.values(e.fields)) {
        if (field.kind === 'id' && field.ref) expect(seen, `${e.name} → ${field.ref}`).toContain(field.ref);
      }
      seen.add(e.name);
    }
  });

  it('use the REST paths of product.md §7', () => {
    for (const e of entities) expect(e.rest, e.table).toBe(REST[e.table]);
  });

  it('upload in the order of product.md §4 with the titles of product.md §8', () => {
    expect(uploadOrder.map((e) => [e.table, e.upload?.errorTitle])).toEqual(UPLOAD);
  });

  it('keep exactly the 13 offline collections of product.md §3', () => {
    expect([...offlineCollections].sort()).toEqual([...OFFLINE].sort());
    expect(offlineCollections).toHaveLength(13);
  });

  it('use permission keys of schemas/roles.ts', () => {
    for (const e of entities) {
      expect(PERMISSIONS, e.name).toHaveProperty([e.access.read]);
      expect(PERMISSIONS, e.name).toHaveProperty([e.access.write]);
    }
  });

  it('carry images, soft delete and system fields where the spec says', () => {
    expect(entityByName.service.images).toEqual(['sp_img1', 'sp_img2', 'sp_img3']);
    expect(entityByName.job.images).toEqual(['jb_img1', 'jb_img2', 'jb_img3']);
    // Profile images: a removed photo or document is marked deleted so that every device forgets it (ADR-0028).
    expect(entities.filter((e) => e.softDelete).map((e) => e.name)).toEqual(['serviceProvider', 'service', 'profileImage']);
    for (const e of serverEntities) {
      expect(Object.keys(e.systemFields)).toEqual(expect.arrayContaining(['createdAt', 'updatedAt', 'createdBy', 'updatedBy']));
    }
    expect(Object.keys(entityByName.service.systemFields)).toEqual(
      expect.arrayContaining(['deleted', 'deleteReason', 'deletedBy', 'deletedAt']),
    );
    expect(entityByName.file.systemFields).toEqual({});
  });

  it('give every field a translation key', () => {
    expect(serviceProvider.fields.sp_Name.label).toBe('field.serviceProvider.sp_Name');
    const keys = translationKeys(entityByName.serviceProvider);
    expect(keys).toContain('entity.serviceProvider');
    expect(keys).toContain('enum.serviceProvider.sp_type.education');
    expect(keys).toContain('field.system.createdAt');
  });

  it('resolve names at run time', () => {
    expect(getEntity('service')?.table).toBe('tbl_sp_detail');
    expect(getEntity('nope')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

describe('derived types', () => {
  it('follow the declarations', () => {
    type Provider = RowOf<typeof serviceProvider>;
    expectTypeOf<Provider['sp_Name']>().toEqualTypeOf<string>();
    expectTypeOf<Provider['sp_type']>().toEqualTypeOf<1 | 2 | 3 | 4>();
    expectTypeOf<Provider['sp_Address']>().toEqualTypeOf<string | null>();
    expectTypeOf<Provider['deleted']>().toEqualTypeOf<boolean>();
    expectTypeOf<RowOf<typeof user>>().not.toHaveProperty('password');
    expectTypeOf<RowOf<typeof user>>().not.toHaveProperty('passwordHash');
    expectTypeOf<CreateBodyOf<typeof user>['password']>().toEqualTypeOf<string>();
    expectTypeOf<CreateBodyOf<typeof user>>().not.toHaveProperty('passwordHash');

    type NewProvider = CreateBodyOf<typeof serviceProvider>;
    expectTypeOf<NewProvider>().toHaveProperty('sp_Name');
    expectTypeOf<NewProvider['sp_Id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NewProvider>().not.toHaveProperty('createdAt');
    expectTypeOf<NewProvider>().not.toHaveProperty('location');
    expectTypeOf<CreateBodyOf<typeof skills>['prof_Id']>().toEqualTypeOf<string>();
    expectTypeOf<UpdateBodyOf<typeof serviceProvider>>().not.toHaveProperty('sp_Id');

    type ImageDoc = DocOf<typeof profileImage>;
    expectTypeOf<ImageDoc['data']>().toEqualTypeOf<string>();
    expectTypeOf<ImageDoc['pk']>().toEqualTypeOf<string>();
    expectTypeOf<ImageDoc['syncState']>().toEqualTypeOf<'synced' | 'pending'>();
    expectTypeOf<DocOf<typeof entityByName.profile>['BspData']>().toEqualTypeOf<
      { appr: { tbl_Id: string }[]; orgHelp: { tbl_Id: number }[] } | undefined
    >();
  });
});

// ---------------------------------------------------------------------------------------------
// SQL on PGlite
// ---------------------------------------------------------------------------------------------

/** Keys of the sample rows, by entity name, so children reference real parents. */
function sampleRows(): Map<EntityShape, Record<string, unknown>> {
  const refs: Record<string, string> = {};
  const rows = new Map<EntityShape, Record<string, unknown>>();
  for (const e of serverEntities) {
    // Columns the server keeps to itself (passwordHash) are not in bodies; the server fills them.
    const hidden = Object.entries(e.fields).filter(([, field]) => field.hidden);
    const body = { ...sampleBody(e, refs), ...Object.fromEntries(hidden.map(([n, fd]) => [n, sampleValue(n, fd)])) };
    rows.set(e, body);
    if (typeof e.key === 'string') refs[e.name] = String(body[e.key]);
  }
  return rows;
}

function insertSql(e: EntityShape, row: Record<string, unknown>): [string, unknown[]] {
  const columns = new Set(serverFields(e).map(([name]) => name));
  const names = Object.keys(row).filter((name) => columns.has(name));
  const values = names.map((n) => (e.fields[n]?.kind === 'json' ? JSON.stringify(row[n]) : row[n]));
  const cols = names.map((n) => `"${n}"`).join(', ');
  const params = names.map((_, i) => `$${i + 1}`).join(', ');
  return [`INSERT INTO "${e.table}" (${cols}) VALUES (${params}) RETURNING *`, values];
}

/** What the server does before answering: no hidden columns (the password hash), dates and
 * instants as ISO strings. */
function toJsonRow(e: EntityShape, row: Record<string, unknown>): Record<string, unknown> {
  const fields = { ...e.fields, ...e.systemFields };
  return Object.fromEntries(
    Object.entries(row)
      .filter(([name]) => !fields[name]?.hidden)
      .map(([name, value]) => {
        const field = fields[name];
        if (!(value instanceof Date)) return [name, value];
        const format = field?.kind === 'string' ? field.format : undefined;
        return [name, format === 'date' ? value.toISOString().slice(0, 10) : value.toISOString()];
      }),
  );
}

describe('SQL DDL', () => {
  let db: PGlite;
  const rows = sampleRows();
  const stored = new Map<EntityShape, Record<string, unknown>>();

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(schemaSql());
    for (const [e, row] of rows) {
      const [sql, params] = insertSql(e, row);
      const result = await db.query<Record<string, unknown>>(sql, params);
      stored.set(e, result.rows[0] ?? {});
    }
  });
  afterAll(async () => {
    await db.close();
  });

  it('quotes identifiers exactly as the fields are named', () => {
    const ddl = createTableSql(entityByName.job);
    expect(ddl).toContain('CREATE TABLE IF NOT EXISTS "available-jobs"');
    expect(ddl).toContain('"jb_Id" text NOT NULL');
    expect(ddl).toContain('"createdAt" timestamptz NOT NULL DEFAULT now()');
    expect(ddl).toContain('"deadline" date');
    expect(ddl).not.toContain('bytea');
    expect(createTableSql(entityByName.service)).toContain('FOREIGN KEY ("sp_Id") REFERENCES "tbl_serviceprovider" ("sp_Id")');
    expect(createTableSql(entityByName.apprenticeship)).toContain('REFERENCES "tbl_sp_detail" ("sp_Detail_Id")');
    expect(createTableSql(entityByName.profileImage)).toContain('PRIMARY KEY ("prof_Id", "img_for")');
    expect(createTableSql(entityByName.profileImage)).not.toContain('"data"');
    expect(() => createTableSql(entityByName.file)).toThrow();
  });

  it('creates every server table with its spec name', async () => {
    const result = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(result.rows.map((r) => r.table_name).sort()).toEqual(serverEntities.map((e) => e.table).sort());
  });

  it('is idempotent (IF NOT EXISTS)', async () => {
    await expect(db.exec(schemaSql())).resolves.toBeDefined();
  });

  it('stores one valid row per entity, with system defaults', () => {
    for (const e of serverEntities) {
      const row = stored.get(e);
      expect(row?.createdAt, e.name).toBeInstanceOf(Date);
      for (const key of e.keyFields) expect(row?.[key], e.name).toEqual(rows.get(e)?.[key]);
    }
    expect(stored.get(entityByName.service)?.status).toBe(0);
    expect(stored.get(entityByName.service)?.deleted).toBe(false);
    expect(stored.get(entityByName.job)?.open).toBe(true);
  });

  it('indexes parents, filters and the sync checkpoint', async () => {
    expect(indexColumns(entityByName.service)).toEqual(
      expect.arrayContaining([['sp_Id'], ['status'], ['createdAt'], ['updatedAt', 'sp_Detail_Id']]),
    );
    for (const e of serverEntities) {
      for (const cols of indexColumns(e)) expect(Buffer.byteLength(indexName(e.table, cols))).toBeLessThanOrEqual(63);
    }
    const result = await db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'");
    const names = result.rows.map((r) => r.indexname);
    for (const e of serverEntities) expect(names).toContain(indexName(e.table, ['updatedAt', ...e.keyFields]));
    expect(createIndexesSql(entityByName.file)).toEqual([]);
  });

  it.each([
    ['an enum value outside the set', 'serviceProvider', { sp_type: 9 }],
    ['a latitude out of range', 'serviceProvider', { lat: 91 }],
    ['a text too long', 'serviceProvider', { sp_Name: 'x'.repeat(201) }],
    ['a key that is no UUID', 'serviceProvider', { sp_Id: 'not-a-uuid' }],
    ['a missing parent', 'service', { sp_Id: '01890000-0000-7000-8000-000000000000' }],
    ['a missing required value', 'job', { title: null }],
    ['a duplicate registration number', 'profile', { prof_Reg_No: 'ORG4K7Q2Z9X' }],
  ])('rejects %s', async (_why, name, change) => {
    const e = getEntity(name) as EntityShape;
    const row = { ...rows.get(e), [e.keyFields[0] ?? '']: uuidv7(), ...change };
    const [sql, params] = insertSql(e, row);
    await expect(db.query(sql, params)).rejects.toThrow();
  });

  it('returns rows that match the row schema', () => {
    const ajv = makeAjv();
    for (const e of serverEntities) {
      const validate = ajv.compile(rowSchema(e));
      const row = toJsonRow(e, stored.get(e) ?? {});
      expect(validate(row), `${e.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// JSON schemas on ajv (Fastify's options)
// ---------------------------------------------------------------------------------------------

function makeAjv(): Ajv {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: true, strict: true });
  addFormats(ajv);
  return ajv;
}

describe('JSON schemas', () => {
  const ajv = makeAjv();

  it.each(serverEntities.map((e) => [e.name, e] as const))('%s: compile and accept a valid body', (_name, e) => {
    const create = ajv.compile(createBodySchema(e));
    const body = sampleBody(e);
    expect(create(body), ajv.errorsText(create.errors)).toBe(true);
    expect(ajv.compile(updateBodySchema(e))({})).toBe(true);
    ajv.compile(rowSchema(e));
    ajv.compile(pageSchema(e));
    expect(ajv.compile(listQuerySchema(e))({})).toBe(true);
  });

  it('let the server make a missing key, but not a parent key', () => {
    const create = ajv.compile(createBodySchema(serviceProvider));
    const { sp_Id: _key, ...body } = sampleBody(serviceProvider);
    expect(create(body)).toBe(true);
    const createSkills = ajv.compile(createBodySchema(skills));
    expect(createSkills({})).toBe(false);
  });

  it('reject unknown, system, read-only and bad fields', () => {
    const create = ajv.compile(createBodySchema(entityByName.service));
    const body = sampleBody(entityByName.service);
    expect(create({ ...body, extra: 1 })).toBe(false);
    expect(create({ ...body, createdAt: '2024-01-01T00:00:00Z' })).toBe(false);
    expect(create({ ...body, status: 1 })).toBe(false);
    expect(create({ ...body, sp_img1: 'a.jpg' })).toBe(false);
    expect(create({ ...body, category: 0 })).toBe(false);
    const { name: _name, ...missing } = body;
    expect(create(missing)).toBe(false);
    const createUser = ajv.compile(createBodySchema(user));
    expect(createUser({ ...sampleBody(user), email: 'nope' })).toBe(false);
    expect(createUser({ ...sampleBody(user), role: 8 })).toBe(false);
    expect(createUser({ ...sampleBody(user), phone: 'call me' })).toBe(false);
  });

  it('fill defaults on create only', () => {
    const body: Record<string, unknown> = sampleBody(entityByName.job);
    delete body.open;
    ajv.compile(createBodySchema(entityByName.job))(body);
    expect(body.open).toBe(true);
    const update: Record<string, unknown> = { title: 'New title' };
    expect(ajv.compile(updateBodySchema(entityByName.job))(update)).toBe(true);
    expect(update).toEqual({ title: 'New title' });
  });

  it('update bodies are partial, clear optional values, and never change the key', () => {
    const update = ajv.compile(updateBodySchema(serviceProvider));
    expect(update({ sp_Address: null, updatedAt: '2024-01-01T00:00:00.000Z' })).toBe(true);
    expect(update({ sp_Name: null })).toBe(false);
    expect(update({ sp_Id: uuidv7() })).toBe(false);
  });

  it('rows never contain passwords nor browser-only data', () => {
    expect(rowSchema(user).properties).not.toHaveProperty('password');
    expect(rowSchema(user).properties).not.toHaveProperty('passwordHash');
    expect(createBodySchema(user).properties).toHaveProperty('password');
    expect(createBodySchema(user).properties).not.toHaveProperty('passwordHash');
    expect(createTableSql(user)).toContain('"passwordHash" text NOT NULL');
    expect(createTableSql(user)).not.toContain('"password" ');
    expect(rowSchema(profileImage).properties).not.toHaveProperty('data');
  });

  it('list queries take the spec page sizes, known sort fields and the filters', () => {
    const query = ajv.compile(listQuerySchema(entityByName.service));
    const q: Record<string, unknown> = {
      page: '2',
      pageSize: '25',
      sort: 'name',
      dir: 'asc',
      status: '1',
      q: 'water',
      dateFrom: '2024-01-01',
    };
    expect(query(q), ajv.errorsText(query.errors)).toBe(true);
    expect(q).toMatchObject({ page: 2, pageSize: 25, status: 1 });
    const defaults: Record<string, unknown> = {};
    query(defaults);
    expect(defaults).toEqual({ page: 1, pageSize: 10, sort: 'createdAt', dir: 'desc' });
    expect(query({ pageSize: 30 })).toBe(false);
    expect(query({ sort: 'nope' })).toBe(false);
    expect(query({ status: 5 })).toBe(false);
    expect(query({ unknown: 1 })).toBe(false);
    expect(listQuerySchema(user).properties?.sort?.enum).not.toContain('password');
    expect(PAGE_SIZES).toEqual([5, 10, 15, 20, 25, 50, 100, 200]);
  });
});

// ---------------------------------------------------------------------------------------------
// RxDB
// ---------------------------------------------------------------------------------------------

const offlineEntities = entities.filter((e) => e.offline) as readonly EntityShape[];

function sampleDoc(e: EntityShape, refs: Record<string, string>): Record<string, unknown> {
  const clientOnly = Object.entries(e.fields).filter(([, field]) => field.clientOnly);
  const doc = { ...sampleBody(e, refs), ...Object.fromEntries(clientOnly.map(([n, fd]) => [n, sampleValue(n, fd, refs)])) };
  const key = e.keyFields.map((k) => String(doc[k])).join('|');
  return { ...doc, syncState: 'pending', syncOp: 'create', syncAttempts: 0, sortDesc: newestFirstKey(Date.now(), key) };
}

describe('RxDB schemas', () => {
  it.each(offlineEntities.map((e) => [e.table, e] as const))('%s passes dev-mode checkSchema', async (_t, e) => {
    const { checkSchema } = await import('rxdb/plugins/dev-mode');
    const schema = rxSchema(e);
    expect(() => checkSchema(schema)).not.toThrow();
    expect(schema.properties).not.toHaveProperty('deleted');
    expect(Object.keys(schema.properties).some((k) => k.startsWith('_'))).toBe(false);
  });

  it('use a composite key for profile images and files', () => {
    expect(rxSchema(profileImage).primaryKey).toEqual({ key: COMPOSITE_KEY, fields: ['prof_Id', 'img_for'], separator: '|' });
    expect(rxSchema(entityByName.file).primaryKey).toMatchObject({ fields: ['srcId', 'imgNo'] });
    expect(rxSchema(serviceProvider).primaryKey).toBe('sp_Id');
  });

  it('sort newest first in ascending order', () => {
    const older = newestFirstKey('2024-01-01T00:00:00Z', 'b');
    const newer = newestFirstKey('2024-06-01T00:00:00Z', 'a');
    expect(newer < older).toBe(true);
    expect(newer).toHaveLength(14);
    expect(() => newestFirstKey('nonsense', 'a')).toThrow();
  });

  it('map rows to documents and documents to bodies', () => {
    const body = sampleBody(serviceProvider);
    const row = { ...body, sp_Address: null, deleted: false, createdAt: '2024-01-01T00:00:00.000Z' };
    const doc = docFromRow(serviceProvider, row) as unknown as Record<string, unknown>;
    expect(doc).not.toHaveProperty('sp_Address');
    expect(doc).not.toHaveProperty('deleted');
    expect(doc).toMatchObject({ syncState: 'synced', syncAttempts: 0 });
    expect(bodyFromDoc(serviceProvider, doc)).toEqual({ ...body, sp_Address: undefined, location: undefined });
  });

  it('open all 13 collections in a real RxDB and store a valid document in each', async () => {
    const { createRxDatabase, addRxPlugin } = await import('rxdb');
    const { RxDBDevModePlugin, disableWarnings } = await import('rxdb/plugins/dev-mode');
    const { getRxStorageMemory } = await import('rxdb/plugins/storage-memory');
    const { wrappedValidateAjvStorage } = await import('rxdb/plugins/validate-ajv');
    const { RxDBMigrationSchemaPlugin } = await import('rxdb/plugins/migration-schema');
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
    addRxPlugin(RxDBMigrationSchemaPlugin);
    const db = await createRxDatabase({ name: 'schemastest', storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }) });
    try {
      const { migrationStrategiesFor } = await import('../../src/lib/store/migrations');
      const specs = Object.fromEntries(
        offlineEntities.map((e) => [e.table, { schema: rxSchema(e), migrationStrategies: migrationStrategiesFor(e) }]),
      );
      await db.addCollections(specs);
      const refs: Record<string, string> = {};
      for (const e of offlineEntities) {
        const doc = sampleDoc(e, refs);
        await db.collections[e.table]?.insert(doc);
        if (typeof e.key === 'string') refs[e.name] = String(doc[e.key]);
      }
      const pending = await db.collections['tbl_sp_detail']
        ?.find({ selector: { syncState: 'pending' }, sort: [{ sortDesc: 'asc' }] })
        .exec();
      expect(pending).toHaveLength(1);
      const image = await db.collections['tbl_profiles_images']?.findOne().exec();
      expect(image?.get(COMPOSITE_KEY)).toBe(`${refs.profile}|photo`);
      await expect(db.collections['tbl_serviceprovider']?.insert({ ...sampleDoc(serviceProvider, refs), sp_type: 9 })).rejects.toThrow();
    } finally {
      await db.remove();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Keys and registration numbers
// ---------------------------------------------------------------------------------------------

describe('ids', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('uuidv7 is well-formed, unique and time-ordered', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    for (const id of ids) expect(id).toMatch(V7);
    expect(new RegExp(UUID_PATTERN).test(ids[0] ?? '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(uuidv7Time(ids[0] ?? '')).toBeGreaterThanOrEqual(before);
    expect(uuidv7Time(ids[0] ?? '')).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('uuidv7 takes an explicit time', () => {
    const at = Date.UTC(2024, 0, 2, 3, 4, 5, 6);
    expect(uuidv7Time(uuidv7(at))).toBe(at);
    expect(uuidv7(at)).toMatch(V7);
  });

  it('uuidv7 keeps order across milliseconds', async () => {
    const first = uuidv7();
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = uuidv7();
    expect(first < second).toBe(true);
    expect(uuidv7Time(second)).toBeGreaterThan(uuidv7Time(first));
  });

  it('registration numbers: abbreviation + 8 of A-Z0-9', () => {
    const numbers = Array.from({ length: 200 }, () => registrationNumber('ORG'));
    for (const n of numbers) {
      expect(n).toMatch(/^[A-Z0-9]+[A-Z0-9]{8}$/);
      expect(n.startsWith('ORG')).toBe(true);
      expect(n).toHaveLength(11);
      expect(isRegistrationNumber(n, 'ORG')).toBe(true);
    }
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(registrationNumber('abc').startsWith('ABC')).toBe(true);
    expect(isRegistrationNumber('ORG123', 'ORG')).toBe(false);
    expect(isRegistrationNumber('XYZ12345678', 'ORG')).toBe(false);
    expect(isRegistrationNumber(42)).toBe(false);
  });

  it('registration numbers use every character of the alphabet', () => {
    const chars = new Set(Array.from({ length: 400 }, () => registrationNumber('A').slice(1)).join(''));
    expect(chars.size).toBe(36);
  });

  it('a user without organisation cannot create one', () => {
    expect(() => registrationNumber('')).toThrow(SUPER_ADMIN_CANNOT_CREATE);
    expect(() => registrationNumber(null)).toThrow(SUPER_ADMIN_CANNOT_CREATE);
    expect(() => registrationNumber('BAD-ABBR')).toThrow();
  });
});
