// The batched upload endpoint (ADR-0013): POST /api/sync/push/{table} answers one result per
// record, each what the single-record route would have answered; one bad record never fails the
// others; the role matrix and the organisation scope are the single-record routes' own (the
// scope of every kind, role and organisation is probed in test/api/scope.test.ts too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { createPermission } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { job, otherJob, profile, profileImage, PUSH_LIMITS, serviceProvider, uploadOrder } from '../../schemas/index';
import { can } from '../../schemas/roles';
import { backends } from '../helpers/db';
import { startWithStaff } from '../helpers/api/staff';
import { multipartRequest, png } from '../helpers/records';
import { type TestServer } from '../helpers/server';

type Body = Record<string, unknown>;
const A = 2;
const B = 3;

describe.each(backends)('batched upload on %s', (backend) => {
  let t: TestServer;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    // Every role in each organisation (role 1 in none), by `${org}r${role}`.
    const staff = Object.fromEntries(
      [A, B].flatMap((org) => [1, 2, 3, 4, 5, 6, 7].map((role) => [`${org}r${role}`, [role, role === 1 ? 0 : org] as const])),
    );
    t = await startWithStaff({ backend }, staff, { prefix: 'push' }, { token: tokens });
  }, 120_000);
  afterAll(() => t?.close());

  const writer = (org: number) => tokens[`${org}r3`] as string;
  const push = (table: string, records: unknown[], token = writer(A), headers: Record<string, string> = {}) =>
    t.api('POST', `/sync/push/${encodeURIComponent(table)}`, { token, body: { records }, headers });
  const create = (data: Body) => ({ op: 'create', data });
  const count = async (entity: EntityShape, keys: string[]) => {
    const key = entity.keyFields[0] as string;
    const [row] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${entity.table}" WHERE "${key}" = ANY($1::text[])`,
      [keys],
    );
    return row?.n ?? 0;
  };
  /** How many of `records` (of `entity`) the table holds. */
  const countOf = (entity: EntityShape, records: Body[]) =>
    count(
      entity,
      records.map((r) => String(r[entity.keyFields[0] as string])),
    );

  it('stores every record and answers one result per record, in order', async () => {
    const jobs = Array.from({ length: 5 }, () => sampleBody(job));
    const response = await push(job.table, jobs.map(create));
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: Body) => [r.key, r.status])).toEqual(jobs.map((j) => [j.jb_Id, 201]));
    expect(response.body.results[0].body).toMatchObject({ jb_Id: jobs[0]?.jb_Id, title: jobs[0]?.title, location: A });
    expect(await countOf(job, jobs)).toBe(5);
  });

  it('a record the rules refuse gets its own error; the others land', async () => {
    const jobs = Array.from({ length: 4 }, () => sampleBody(job));
    (jobs[1] as Body).positions = 0; // below the minimum of 1
    const orphan = sampleBody(otherJob, { job: 'no-such-job' });
    const response = await push(job.table, jobs.map(create));
    expect(response.body.results.map((r: Body) => r.status)).toEqual([201, 400, 201, 201]);
    expect(response.body.results[1].body).toMatchObject({ statusCode: 400, errors: [{ field: 'positions' }] });
    expect(await countOf(job, jobs)).toBe(3);
    // A child whose parent is missing: the same message as POST /jobsother/.
    const single = await t.api('POST', '/jobsother/', { token: writer(A), body: sampleBody(otherJob, { job: 'no-such-job' }) });
    const batched = await push(otherJob.table, [create(orphan)]);
    expect([batched.body.results[0].status, batched.body.results[0].body.message]).toEqual([single.status, single.body.message]);
  });

  it("answers a key already stored with 'duplicate entry' and the server's copy; stores nothing twice", async () => {
    const body = sampleBody(serviceProvider);
    expect((await push(serviceProvider.table, [create(body)])).body.results[0].status).toBe(201);
    const again = await push(serviceProvider.table, [create({ ...body, sp_Name: 'Edited meanwhile' })]);
    expect(again.body.results[0]).toMatchObject({
      status: 409,
      body: { message: 'duplicate entry', server: { sp_Id: body.sp_Id, sp_Name: body.sp_Name } },
    });
    expect(await count(serviceProvider, [String(body.sp_Id)])).toBe(1);
  });

  it('a record the database refuses mid-batch rolls back alone (its savepoint): the records before and after it land', async () => {
    const [first, second] = [sampleBody(serviceProvider), sampleBody(serviceProvider)];
    const orphan = sampleBody(otherJob, { job: 'no-such-job' });
    const response = await push(serviceProvider.table, [create(first), create(first), create(second)]);
    expect(response.body.results.map((r: Body) => r.status)).toEqual([201, 409, 201]);
    expect(response.body.results[1].body).toMatchObject({ message: 'duplicate entry', server: { sp_Id: first.sp_Id } });
    expect(await count(serviceProvider, [String(first.sp_Id), String(second.sp_Id)])).toBe(2);
    const parent = sampleBody(job);
    expect((await push(job.table, [create(parent)])).body.results[0].status).toBe(201);
    const children = [sampleBody(otherJob, { job: String(parent.jb_Id) }), orphan, sampleBody(otherJob, { job: String(parent.jb_Id) })];
    const mixed = await push(otherJob.table, children.map(create));
    expect(mixed.body.results.map((r: Body) => r.status)).toEqual([201, 400, 201]);
    expect(await countOf(otherJob, children)).toBe(2);
  });

  it("updates with the edit's base; a row changed since answers 'conflict' with the server's copy", async () => {
    const body = sampleBody(job);
    const created = (await push(job.table, [create(body)])).body.results[0].body as Body;
    const update = (title: string, updatedAt: unknown) => ({ op: 'update', id: body.jb_Id, data: { title, updatedAt } });
    const first = await push(job.table, [update('First edit', created.updatedAt)]);
    expect(first.body.results[0]).toMatchObject({ status: 200, body: { title: 'First edit' } });
    const stale = await push(job.table, [update('Stale edit', created.updatedAt)]);
    expect(stale.body.results[0]).toMatchObject({ status: 409, body: { message: 'conflict', server: { title: 'First edit' } } });
  });

  it('answers in the language of the request', async () => {
    const bad: Body = { ...sampleBody(job), positions: 0 };
    const fr = await push(job.table, [create(bad)], writer(A), { 'accept-language': 'fr' });
    const en = await push(job.table, [create({ ...bad, jb_Id: `${String(bad.jb_Id)}-en` })], writer(A), { 'accept-language': 'en' });
    expect(fr.body.results[0].body.message).not.toBe(en.body.results[0].body.message);
  });

  it('refuses more records or bytes than the limits as a whole, and stores nothing', async () => {
    const many = Array.from({ length: PUSH_LIMITS.records + 1 }, () => sampleBody(job));
    expect((await push(job.table, many.map(create))).status).toBe(400);
    expect(await countOf(job, many)).toBe(0);
    const long = 'é'.repeat(4000); // 8,000 bytes each, twice per job
    const big = Array.from({ length: 80 }, (): Body => ({ ...sampleBody(job), description: long, requirements: long }));
    const response = await push(job.table, big.map(create));
    expect(response.status).toBe(413);
    expect(await countOf(job, big)).toBe(0);
  });

  it('is documented, so the organisation scope test probes it for every kind, role and organisation', async () => {
    const docs = (await t.api('GET', '/docs')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(docs.paths['/api/sync/push/{table}'] ?? {})).toContain('post');
  });

  it('takes only the kinds the engine uploads (generic routes and profile images)', async () => {
    // A profile image without its file: that record alone is refused, as PUT /profile/images without `file`.
    const photo = await push(profileImage.table, [create({ prof_Id: 'no-file', img_for: 'photo' })]);
    expect([photo.status, photo.body.results[0].status]).toEqual([200, 400]);
    expect((await push('users', [create({})])).status).toBe(404);
    expect((await push('no-such-table', [create({})])).status).toBe(404);
    expect((await t.api('POST', `/sync/push/${job.table}`, { body: { records: [create(sampleBody(job))] } })).status).toBe(401);
  });

  it('refuses a role the matrix does not allow the whole batch, as the single-record routes do, and stores nothing', async () => {
    for (const entity of uploadOrder.filter((e) => e.name !== 'profileImage')) {
      for (const role of [1, 2, 3, 4, 5, 6, 7]) {
        const token = tokens[`${A}r${role}`] as string;
        // Parents of the same organisation, made by its writer, so that only the role decides.
        const body = await freshBody(entity);
        const response = await push(entity.table, [create(body)], token);
        const allowed = can(role, createPermission(entity));
        if (!allowed) {
          expect(response.status, `${entity.name} role ${role}`).toBe(403);
          expect(await count(entity, [String(body[entity.keyFields[0] as string])]), `${entity.name} role ${role}`).toBe(0);
        } else if (entity.name === 'profile' && role === 1) {
          // Role 1 here has no organisation: no registration number (product.md §5), as POST /profile/ answers.
          expect(response.body.results[0].status).toBe(400);
        } else {
          expect(response.status, `${entity.name} role ${role}`).toBe(200);
          expect(
            response.body.results[0].status,
            `${entity.name} role ${role}: ${JSON.stringify(response.body.results[0].body)}`,
          ).toBeLessThan(300);
        }
      }
    }
  });

  it("never touches another organisation's records: updates answer 404, children under its parents 400", async () => {
    const theirs = sampleBody(job);
    expect((await push(job.table, [create(theirs)], writer(B))).body.results[0].status).toBe(201);
    const mine = sampleBody(job);
    const response = await push(job.table, [
      { op: 'update', id: theirs.jb_Id, data: { title: 'Taken over' } },
      create(sampleBody(otherJob, { job: String(theirs.jb_Id) })),
      create(mine),
    ]);
    expect(response.body.results.map((r: Body) => r.status)).toEqual([404, 400, 201]);
    const [row] = await t.server.db.query<{ title: string }>('SELECT "title" FROM "available-jobs" WHERE "jb_Id" = $1', [theirs.jb_Id]);
    expect(row?.title).toBe(theirs.title);
  });

  it("checks every reference of a batch: children under own parents land, under another organisation's or a missing one 400", async () => {
    const theirs = sampleBody(job);
    expect((await push(job.table, [create(theirs)], writer(B))).body.results[0].status).toBe(201);
    const own = [sampleBody(job), sampleBody(job)];
    expect((await push(job.table, own.map(create))).body.results.map((r: Body) => r.status)).toEqual([201, 201]);
    const children = [
      sampleBody(otherJob, { job: String(own[0]?.jb_Id) }),
      sampleBody(otherJob, { job: String(theirs.jb_Id) }),
      sampleBody(otherJob, { job: String(own[1]?.jb_Id) }),
      sampleBody(otherJob, { job: String(sampleBody(job).jb_Id) }), // a parent nobody has
      sampleBody(otherJob, { job: String(own[0]?.jb_Id) }), // a parent named twice
    ];
    const response = await push(otherJob.table, children.map(create));
    expect(response.body.results.map((r: Body) => r.status)).toEqual([201, 400, 201, 400, 201]);
    const stored = await t.server.db.query<{ jb_Id: string }>('SELECT "jb_Id" FROM "tbl_jobs_other" WHERE "jb_Id" = ANY($1::text[])', [
      [own[0]?.jb_Id, own[1]?.jb_Id, theirs.jb_Id],
    ]);
    expect(stored.map((r) => r.jb_Id).sort()).toEqual([own[0]?.jb_Id, own[0]?.jb_Id, own[1]?.jb_Id].map(String).sort());
    // The same batch from the other organisation: only its own parent is in its scope.
    const fromB = await push(
      otherJob.table,
      [create(sampleBody(otherJob, { job: String(theirs.jb_Id) })), create(sampleBody(otherJob, { job: String(own[0]?.jb_Id) }))],
      writer(B),
    );
    expect(fromB.body.results.map((r: Body) => r.status)).toEqual([201, 400]);
  });

  describe('multipart: records with their images', () => {
    const IMAGE = png(8, [200, 30, 30]);
    /** A multipart batch: the field `records` and image parts `{index}.{slot}`. */
    const pushForm = (table: string, records: unknown[], images: Record<string, Buffer>, token = writer(A)) =>
      multipartRequest(t, 'POST', `/sync/push/${encodeURIComponent(table)}`, token, { records: { records } }, images) as Promise<{
        status: number;
        body: { results: Body[]; message?: string };
      }>;
    const storedImages = async (keys: string[]) => {
      const rows = await t.server.db.query<{ ownerId: string; slot: string; size: number }>(
        'SELECT "ownerId", "slot", "size" FROM "images" WHERE "ownerId" = ANY($1::text[]) ORDER BY "ownerId", "slot"',
        [keys],
      );
      return rows.map((r) => `${r.ownerId}:${r.slot}:${r.size}`);
    };

    it('stores each record with its images and names them in the record; the image reads back', async () => {
      const jobs = Array.from({ length: 3 }, () => sampleBody(job));
      const keys = jobs.map((j) => String(j.jb_Id));
      const response = await pushForm(job.table, jobs.map(create), { '0.jb_img1': IMAGE, '0.jb_img2': IMAGE, '2.jb_img3': IMAGE });
      expect(response.status).toBe(200);
      expect(response.body.results.map((r) => r.status)).toEqual([201, 201, 201]);
      const first = response.body.results[0]?.body as Body;
      expect(first.jb_img1).toMatch(/^jb_img1-.*\.png$/);
      expect(first.jb_img2).toMatch(/^jb_img2-/);
      expect((response.body.results[1]?.body as Body).jb_img1 ?? null).toBeNull();
      expect(await storedImages(keys)).toEqual(
        [`${keys[0]}:jb_img1:${IMAGE.length}`, `${keys[0]}:jb_img2:${IMAGE.length}`, `${keys[2]}:jb_img3:${IMAGE.length}`].sort(),
      );
      const image = await fetch(`${t.url}/api/imgs/getById?id=${keys[0]}&imagename=${String(first.jb_img1)}`, {
        headers: { authorization: `Bearer ${writer(A)}` },
      });
      expect(Buffer.from(await image.arrayBuffer()).equals(IMAGE)).toBe(true);
    });

    it('an image of a refused type or an unknown slot fails its record alone, which stores nothing', async () => {
      const jobs = Array.from({ length: 4 }, () => sampleBody(job));
      const keys = jobs.map((j) => String(j.jb_Id));
      const response = await pushForm(job.table, jobs.map(create), {
        '0.jb_img1': IMAGE,
        '1.jb_img1': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), // not an image type the server takes
        '2.jb_img9': IMAGE,
        '3.jb_img1': IMAGE,
      });
      expect(response.body.results.map((r) => r.status)).toEqual([201, 415, 400, 201]);
      expect(response.body.results[1]?.body).toMatchObject({ statusCode: 415 });
      expect(await count(job, keys)).toBe(2);
      expect(await storedImages(keys)).toEqual([`${keys[0]}:jb_img1:${IMAGE.length}`, `${keys[3]}:jb_img1:${IMAGE.length}`].sort());
    });

    it("sent again (its answer lost): 'duplicate entry' with the server's copy, nothing doubled", async () => {
      const body = sampleBody(job);
      const key = String(body.jb_Id);
      expect((await pushForm(job.table, [create(body)], { '0.jb_img1': IMAGE })).body.results[0]?.status).toBe(201);
      const again = await pushForm(job.table, [create(body)], { '0.jb_img1': IMAGE });
      expect(again.body.results[0]).toMatchObject({ status: 409, body: { message: 'duplicate entry', server: { jb_Id: key } } });
      expect(await count(job, [key])).toBe(1);
      expect(await storedImages([key])).toEqual([`${key}:jb_img1:${IMAGE.length}`]);
    });

    it('updates replace and empty image slots as PUT does', async () => {
      const body = sampleBody(job);
      const key = String(body.jb_Id);
      const created = (await pushForm(job.table, [create(body)], { '0.jb_img1': IMAGE, '0.jb_img2': IMAGE })).body.results[0]?.body as Body;
      const other = png(4, [0, 0, 200]);
      const update = {
        op: 'update',
        id: key,
        data: { title: 'With a new image', updatedAt: created.updatedAt },
        removeImages: ['jb_img2'],
      };
      const response = await pushForm(job.table, [update], { '0.jb_img3': other });
      expect(response.body.results[0]).toMatchObject({
        status: 200,
        body: { title: 'With a new image', jb_img2: null, jb_img3: expect.stringMatching(/^jb_img3-/) },
      });
      expect(await storedImages([key])).toEqual([`${key}:jb_img1:${IMAGE.length}`, `${key}:jb_img3:${other.length}`]);
    });

    it("refuses roles as the JSON batch does and never touches another organisation's records", async () => {
      for (const role of [1, 2, 3, 4, 5, 6, 7]) {
        const body = sampleBody(job);
        const response = await pushForm(job.table, [create(body)], { '0.jb_img1': IMAGE }, tokens[`${A}r${role}`] as string);
        const expected = can(role, createPermission(job)) ? 200 : 403;
        expect(response.status, `role ${role}`).toBe(expected);
        expect(await storedImages([String(body.jb_Id)]), `role ${role}`).toHaveLength(expected === 200 ? 1 : 0);
      }
      const theirs = sampleBody(job);
      expect((await push(job.table, [create(theirs)], writer(B))).body.results[0].status).toBe(201);
      const response = await pushForm(job.table, [{ op: 'update', id: theirs.jb_Id, data: { title: 'Taken over' } }], {
        '0.jb_img1': IMAGE,
      });
      expect(response.body.results[0]?.status).toBe(404);
      expect(await storedImages([String(theirs.jb_Id)])).toEqual([]);
    });

    describe('profile images (PUT /profile/images/{id} per record)', () => {
      const ABBR: Record<number, string> = { [A]: 'ADC', [B]: 'CAJ' };
      const PHOTOS = profileImage.table;
      /** A profile of `org` on the server, made by its writer. */
      const profileOf = async (org: number) => {
        const body: Body = { ...sampleBody(profile), prof_Reg_No: registrationNumber(ABBR[org] as string) };
        expect((await t.api('POST', `${profile.rest ?? ''}/`, { token: writer(org), body })).status).toBe(201);
        return String(body.prof_Id);
      };
      const photo = (id: string, img_for = 'photo') => create({ prof_Id: id, img_for });
      const stored = async (ids: string[]) => {
        const rows = await t.server.db.query<{ prof_Id: string; img_for: string }>(
          'SELECT "prof_Id", "img_for" FROM "tbl_profiles_images" WHERE "prof_Id" = ANY($1::text[]) AND NOT "deleted" ORDER BY "prof_Id", "img_for"',
          [ids],
        );
        return { rows: rows.map((r) => `${r.prof_Id}:${r.img_for}`), images: await storedImages(ids) };
      };

      it('stores each photo with its row in one transaction, replaced by kind; the bytes read back', async () => {
        const ids = [await profileOf(A), await profileOf(A)];
        const other = png(4, [0, 0, 200]);
        const response = await pushForm(PHOTOS, [photo(ids[0] as string), photo(ids[1] as string, 'idDocument')], {
          '0.file': IMAGE,
          '1.file': other,
        });
        expect(response.status).toBe(200);
        expect(response.body.results).toMatchObject([
          { status: 200, body: { prof_Id: ids[0], img_for: 'photo', size: IMAGE.length, type: 'image/png' } },
          { status: 200, body: { prof_Id: ids[1], img_for: 'idDocument', size: other.length } },
        ]);
        expect(await stored(ids as string[])).toEqual({
          rows: [`${ids[0]}:photo`, `${ids[1]}:idDocument`].sort(),
          images: [`${ids[0]}:photo:${IMAGE.length}`, `${ids[1]}:idDocument:${other.length}`].sort(),
        });
        const file = await fetch(`${t.url}/api/imgs/getfile?id=${ids[0]}&filename=photo`, {
          headers: { authorization: `Bearer ${writer(A)}` },
        });
        expect(Buffer.from(await file.arrayBuffer()).equals(IMAGE)).toBe(true);
      });

      it('sent again (its answer lost): replaced, 200 again, nothing doubled', async () => {
        const id = await profileOf(A);
        for (let i = 0; i < 2; i += 1) expect((await pushForm(PHOTOS, [photo(id)], { '0.file': IMAGE })).body.results[0]?.status).toBe(200);
        expect(await stored([id])).toEqual({ rows: [`${id}:photo`], images: [`${id}:photo:${IMAGE.length}`] });
      });

      it('a refused file, a missing one or an unknown kind fails its record alone, which stores nothing', async () => {
        const ids = await Promise.all([1, 2, 3, 4].map(() => profileOf(A)));
        const response = await pushForm(
          PHOTOS,
          [photo(ids[0] as string), photo(ids[1] as string), photo(ids[2] as string), photo(ids[3] as string, 'selfie')],
          {
            '0.file': IMAGE,
            '1.file': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
            '3.file': IMAGE,
          },
        );
        expect(response.body.results.map((r) => r.status)).toEqual([200, 415, 400, 400]);
        expect(await stored(ids)).toEqual({ rows: [`${ids[0]}:photo`], images: [`${ids[0]}:photo:${IMAGE.length}`] });
      });

      it("answers every role as PUT /profile/images/{id} does, and never touches another organisation's profiles", async () => {
        for (const role of [1, 2, 3, 4, 5, 6, 7]) {
          const token = tokens[`${A}r${role}`] as string;
          const [single, batched] = [await profileOf(A), await profileOf(A)];
          const alone = await multipartRequest(
            t,
            'PUT',
            `${profileImage.rest ?? ''}/${single}`,
            token,
            { img_for: 'photo' },
            { file: IMAGE },
          );
          const response = await pushForm(PHOTOS, [photo(batched)], { '0.file': IMAGE }, token);
          if (alone.status === 403) expect(response.status, `role ${role}`).toBe(403);
          else expect([response.status, response.body.results[0]?.status], `role ${role}`).toEqual([200, alone.status]);
          expect((await stored([batched])).rows, `role ${role}`).toHaveLength(alone.status === 200 ? 1 : 0);
        }
        const theirs = await profileOf(B);
        const response = await pushForm(PHOTOS, [photo(theirs)], { '0.file': IMAGE });
        expect(response.body.results[0]?.status).toBe(404);
        expect(await stored([theirs])).toEqual({ rows: [], images: [] });
      });
    });

    it('refuses more image bytes than the limit as a whole (413), and stores nothing', async () => {
      const big = Buffer.concat([IMAGE, Buffer.alloc(1024 * 1024, 7)]);
      const count5 = Math.ceil(PUSH_LIMITS.imageBytes / big.length) + 1;
      const jobs = Array.from({ length: count5 }, () => sampleBody(job));
      const images = Object.fromEntries(jobs.map((_, i) => [`${i}.jb_img1`, big]));
      const response = await pushForm(job.table, jobs.map(create), images);
      expect(response.status).toBe(413);
      expect(await countOf(job, jobs)).toBe(0);
    });
  });

  /** A valid new record of `entity` whose parents exist in organisation A. */
  async function freshBody(entity: EntityShape): Promise<Body> {
    const refs: Record<string, string> = {};
    if (entity.parent) {
      const parent = uploadOrder.find((e) => e.name === entity.parent?.entity) as EntityShape;
      const parentBody = await freshBody(parent);
      const stored = await push(parent.table, [create(parentBody)], writer(A));
      expect(stored.body.results[0].status, JSON.stringify(stored.body)).toBeLessThan(300);
      refs[parent.name] = String(parentBody[parent.keyFields[0] as string]);
    }
    const body = sampleBody(entity, refs);
    if (entity.name === 'profile') body.prof_Reg_No = registrationNumber('ADC');
    return body;
  }
});
