// The entity routes of product.md §7, derived from schemas/: for every entity the normal case,
// validation (400, nothing written), no token (401), each disallowed role (403), duplicate
// key (409) and unknown id (404); then the rules that are an entity's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { serverEntities } from '../../schemas/index';
import { ROLES, can } from '../../schemas/roles';
import { hasGenericRoutes } from '../../server/plugins/records/index';
import { backends } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';
import { multipartRequest, PNG_1PX, ensureOrganisations } from '../helpers/records';

/** The entities the generic routes serve (the server's own list of the others, imported, not copied). */
const GENERIC = serverEntities.filter(hasGenericRoutes);
const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';

describe.each(backends)('entity routes on %s', (backend) => {
  let t: TestServer;
  const tokens: Record<number, string> = {};
  const refs: Record<string, string> = {};

  /** A fresh valid body: profiles get a registration number of the writer's organisation. */
  const bodyFor = (e: EntityShape, parents: Record<string, string> = refs) => {
    const body = sampleBody(e, parents);
    if (e.name === 'profile') body.prof_Reg_No = registrationNumber('ICRS');
    return body;
  };
  const keyOf = (e: EntityShape, body: Record<string, unknown>) => String(body[e.keyFields[0]]);
  const count = async (e: EntityShape) => (await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${e.table}"`))[0].n;
  /** Creates `e` as the writer (role 3); upsert entities get a profile of their own. */
  const create = async (e: EntityShape) => {
    const parents = e.routes.upsert ? { ...refs, profile: await newRecord('profile') } : refs;
    const body = bodyFor(e, parents);
    const response = await t.api('POST', `${e.rest}/`, { token: tokens[3], body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { body, key: keyOf(e, body) };
  };
  const newRecord = async (name: string) => (await create(GENERIC.find((e) => e.name === name) as EntityShape)).key;

  beforeAll(async () => {
    t = await startTestServer({ backend, roles: 'two' }); // on PostgreSQL the app's role owns nothing (server/db/roles.ts)
    await ensureOrganisations(t.server.db);
    tokens[1] = await t.login(t.admin.userName, t.admin.password);
    for (const role of ROLES.filter((r) => r !== 1)) {
      await t.createUser({ userName: `role${role}`, password: `password-${role}`, role, location: 1 });
      tokens[role] = await t.login(`role${role}`, `password-${role}`);
    }
    for (const name of ['serviceProvider', 'service', 'job', 'profile']) refs[name] = await newRecord(name);
  });
  afterAll(() => t?.close());

  describe.each(GENERIC.map((e) => [e.name, e] as const))('%s', (_name, e) => {
    it('creates, reads, lists and updates', async () => {
      const { key } = await create(e);
      const got = await t.api('GET', `${e.rest}/${key}`, { token: tokens[3] });
      expect(got.status).toBe(200);
      expect(got.body[e.keyFields[0]]).toBe(key);
      expect(got.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      if (e.list) {
        const list = await t.api('GET', `${e.rest}?pageSize=200`, { token: tokens[3] });
        expect(list.status).toBe(200);
        expect(list.body.rows.map((r: Record<string, unknown>) => r[e.keyFields[0]])).toContain(key);
      }
      const [field, value] = editableText(e);
      if (!field) return;
      const put = await t.api('PUT', `${e.rest}/${key}`, { token: tokens[3], body: { [field]: value } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body[field]).toBe(value);
      expect(put.body.updatedBy).toBeTruthy();
    });

    it('refuses an invalid body with a message per field and writes nothing', async () => {
      const before = await count(e);
      const body = { ...bodyFor(e), unknownField: 1 };
      const response = await t.api('POST', `${e.rest}/`, { token: tokens[3], body });
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({ field: 'unknownField', message: 'unknownField is not a known field' });
      expect(await count(e)).toBe(before);
    });

    it('needs a token', async () => {
      expect((await t.api('GET', `${e.rest}/${UNKNOWN_ID}`)).status).toBe(401);
      expect((await t.api('POST', `${e.rest}/`, { body: bodyFor(e) })).status).toBe(401);
    });

    it('answers 403 to every role outside the matrix, and writes nothing', async () => {
      const { key } = await create(e);
      const before = await count(e);
      for (const role of ROLES) {
        if (!can(role, e.access.read)) expect((await t.api('GET', `${e.rest}/${key}`, { token: tokens[role] })).status).toBe(403);
        if (!can(role, e.access.write)) {
          expect((await t.api('POST', `${e.rest}/`, { token: tokens[role], body: bodyFor(e) })).status).toBe(403);
          expect((await t.api('PUT', `${e.rest}/${key}`, { token: tokens[role], body: {} })).status).toBe(403);
        }
      }
      expect(await count(e)).toBe(before);
    });

    it(
      e.routes.upsert ? 'replaces on a second POST (create-or-update)' : "answers 409 'duplicate entry' to a key that exists",
      async () => {
        const { body } = await create(e);
        const again = await t.api('POST', `${e.rest}/`, { token: tokens[3], body });
        if (e.routes.upsert) expect(again.status).toBe(200);
        else expect(again).toMatchObject({ status: 409, body: { message: 'duplicate entry' } });
      },
    );

    it('answers 404 to an unknown id', async () => {
      expect((await t.api('GET', `${e.rest}/${UNKNOWN_ID}`, { token: tokens[1] })).status).toBe(404);
      expect((await t.api('PUT', `${e.rest}/${UNKNOWN_ID}`, { token: tokens[1], body: {} })).status).toBe(404);
    });

    it("refuses an edit based on an old copy with 409 'conflict' and the server's copy", async () => {
      const [field, value] = editableText(e);
      if (!field) return;
      const { key } = await create(e);
      const current = (await t.api('GET', `${e.rest}/${key}`, { token: tokens[3] })).body;
      await t.api('PUT', `${e.rest}/${key}`, { token: tokens[3], body: { [field]: `${value} (office)` } });
      const stale = await t.api('PUT', `${e.rest}/${key}`, {
        token: tokens[3],
        body: { [field]: `${value} (field)`, updatedAt: current.updatedAt },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.message).toBe('conflict');
      expect(stale.body.server[field]).toBe(`${value} (office)`);
    });
  });

  it('lists with paging, search, filters, sort and the POST search calls', async () => {
    const names = ['Alpha clinic', 'Beta school', 'Gamma legal aid'];
    for (const [i, sp_Name] of names.entries()) {
      const body = { ...bodyFor(GENERIC[0]), sp_Name, sp_type: i + 2, territory: 7 };
      expect((await t.api('POST', '/sproviers/', { token: tokens[3], body })).status).toBe(201);
    }
    const page = await t.api('GET', '/sproviers?territory=7&pageSize=5&sort=sp_Name&dir=desc', { token: tokens[4] });
    expect(page.body).toMatchObject({ total: 3, page: 1, pageSize: 5 });
    expect(page.body.rows.map((r: { sp_Name: string }) => r.sp_Name)).toEqual([...names].reverse());
    const search = await t.api('POST', '/sproviers/srch', { token: tokens[4], body: { q: 'school', territory: 7 } });
    expect(search.body.rows.map((r: { sp_Name: string }) => r.sp_Name)).toEqual(['Beta school']);
    const typed = await t.api('GET', '/sproviers?sp_type=4&territory=7', { token: tokens[4] });
    expect(typed.body.total).toBe(1);
    expect((await t.api('GET', '/sproviers?pageSize=7', { token: tokens[4] })).status).toBe(400);
    expect((await t.api('GET', '/sproviers?sort=password', { token: tokens[4] })).status).toBe(400);
    const jobs = await t.api('POST', '/jobs/search/', { token: tokens[4], body: { open: true, pageSize: 5 } });
    expect(jobs.status).toBe(200);
    expect(jobs.body.rows.every((r: { open: boolean }) => r.open)).toBe(true);
  });

  it('lists the children of a parent', async () => {
    const jobId = await newRecord('job');
    await newRecord('otherJob'); // another job's child must not show
    const child = { ...bodyFor(GENERIC.find((e) => e.name === 'otherJob') as EntityShape, { ...refs, job: jobId }) };
    expect((await t.api('POST', '/jobsother/', { token: tokens[3], body: child })).status).toBe(201);
    const list = await t.api('GET', `/jobsother/jb/${jobId}`, { token: tokens[3] });
    expect(list.body.rows.map((r: { jb_oth_Id: string }) => r.jb_oth_Id)).toEqual([child.jb_oth_Id]);
    for (const path of [`/appr/spd/${refs.service}`, `/vocTrain/spd/${refs.service}`, `/spDetail/getbySp/${refs.serviceProvider}`]) {
      const r = await t.api('GET', path, { token: tokens[3] });
      expect(r.status, path).toBe(200);
      expect(r.body.total, path).toBeGreaterThan(0);
    }
  });

  it('refuses a child whose parent does not exist', async () => {
    const e = GENERIC.find((x) => x.name === 'otherJob') as EntityShape;
    const r = await t.api('POST', '/jobsother/', { token: tokens[3], body: bodyFor(e, { ...refs, job: UNKNOWN_ID }) });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('The record this one belongs to does not exist');
  });

  describe('images', () => {
    const job = () => GENERIC.find((e) => e.name === 'job') as EntityShape;

    it('stores job images with their record and serves them to allowed roles only', async () => {
      const body = bodyFor(job());
      const created = await multipartRequest(t, 'POST', '/jobs/', tokens[3], body, { jb_img1: PNG_1PX, jb_img3: PNG_1PX });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.jb_img1).toMatch(/^jb_img1-.+\.png$/);
      expect(created.body.jb_img2 ?? null).toBeNull();
      const url = `/imgs/getById?id=${body.jb_Id}&imagename=${created.body.jb_img1}`;
      const image = await fetch(`${t.url}/api${url}`, { headers: { authorization: `Bearer ${tokens[4]}` } });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG_1PX)).toBe(true);
      expect((await t.api('GET', url, { token: tokens[2] })).status).toBe(403);
      expect((await t.api('GET', url)).status).toBe(401);
    });

    it('refuses an image over 5 MB (413) or of another type (415), storing nothing', async () => {
      const before = await count(job());
      const huge = Buffer.concat([PNG_1PX, Buffer.alloc(5 * 1024 * 1024 + 1)]);
      const tooBig = await multipartRequest(t, 'POST', '/jobs/', tokens[3], bodyFor(job()), { jb_img1: huge });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.message).toBe('A file is larger than 5 MB');
      const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
      const wrongType = await multipartRequest(
        t,
        'POST',
        '/spDetail/',
        tokens[3],
        bodyFor(GENERIC.find((e) => e.name === 'service') as EntityShape),
        { sp_img1: gif },
      );
      expect(wrongType.status).toBe(415);
      expect(wrongType.body.message).toMatch(/only these file types are accepted: jpg, png, webp/);
      expect(await count(job())).toBe(before);
      const images = await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "images" WHERE "size" > 5000000');
      expect(images[0].n).toBe(0);
    });

    it('validates multipart fields like JSON ones', async () => {
      const body = { ...bodyFor(job()), positions: 'many' };
      const r = await multipartRequest(t, 'POST', '/jobs/', tokens[3], body, { jb_img1: PNG_1PX });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].field).toBe('positions');
    });

    it('keeps profile images and documents (PDF too) by kind', async () => {
      const prof = await newRecord('profile');
      const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF', 'latin1');
      const put = await multipartRequest(t, 'PUT', `/profile/images/${prof}`, tokens[3], { img_for: 'consentForm' }, { file: pdf });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toMatchObject({ prof_Id: prof, img_for: 'consentForm', type: 'application/pdf', size: pdf.length });
      const file = await fetch(`${t.url}/api/imgs/getfile?id=${prof}&filename=consentForm`, {
        headers: { authorization: `Bearer ${tokens[5]}` },
      });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
      expect((await t.api('GET', `/imgs/getfile?id=${prof}&filename=consentForm`, { token: tokens[6] })).status).toBe(403);
      const bad = await multipartRequest(t, 'PUT', `/profile/images/${prof}`, tokens[3], { img_for: 'selfie' }, { file: PNG_1PX });
      expect(bad.status).toBe(400);
      const list = await t.api('GET', `/profile/images/${prof}`, { token: tokens[3] });
      expect(list.body.map((i: { img_for: string }) => i.img_for)).toEqual(['consentForm']);
    });

    it('attaches files to a referral', async () => {
      const ref = await newRecord('referral');
      const r = await multipartRequest(t, 'PUT', `/referral/images/${ref}`, tokens[3], {}, { file: PNG_1PX });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.attachments).toHaveLength(1);
      const name = r.body.attachments[0].name;
      const image = await fetch(`${t.url}/api/imgs/getrefimg?id=${ref}&imagename=${encodeURIComponent(name)}`, {
        headers: { authorization: `Bearer ${tokens[3]}` },
      });
      expect(image.status).toBe(200);
    });
  });

  describe('service verification', () => {
    it('moves a service from pending to rejected (comment required), back to pending when edited, then verified', async () => {
      const svc = await newRecord('service');
      const pending = await t.api('GET', '/spDetail/spending?pageSize=200', { token: tokens[7] });
      expect(pending.body.rows.map((r: { sp_Detail_Id: string }) => r.sp_Detail_Id)).toContain(svc);
      expect((await t.api('POST', '/sverify/', { token: tokens[7], body: { sp_Detail_Id: svc, status: 2 } })).body.message).toBe(
        'A comment is required to reject a service',
      );
      const rejected = await t.api('POST', '/sverify/', {
        token: tokens[7],
        body: { sp_Detail_Id: svc, status: 2, comment: 'Phone number missing' },
      });
      expect(rejected.body).toMatchObject({ status: 2, verifyComment: 'Phone number missing' });
      const list = await t.api('GET', '/spDetail/srejected?pageSize=200', { token: tokens[6] });
      expect(list.body.rows.map((r: { sp_Detail_Id: string }) => r.sp_Detail_Id)).toContain(svc);
      const edited = await t.api('PUT', `/spDetail/${svc}`, { token: tokens[6], body: { cost: 'Free of charge' } });
      expect(edited.body.status, JSON.stringify(edited.body)).toBe(0);
      const verified = await t.api('POST', '/sverify/', { token: tokens[1], body: { sp_Detail_Id: svc, status: 1 } });
      expect(verified.body).toMatchObject({ status: 1 });
      expect(verified.body.verifiedBy).toBeTruthy();
      for (const role of [2, 6])
        expect((await t.api('POST', '/sverify/', { token: tokens[role], body: { sp_Detail_Id: svc, status: 1 } })).status).toBe(403);
      expect((await t.api('POST', '/sverify/', { token: tokens[1], body: { sp_Detail_Id: UNKNOWN_ID, status: 1 } })).status).toBe(404);
      const view = await t.api('GET', `/spDetail/view/${svc}`, { token: tokens[3] });
      expect(view.body.provider.sp_Id).toBe(refs.serviceProvider);
    });
  });

  describe('soft delete', () => {
    it('needs the reason and the right password, then hides the provider and its services', async () => {
      const sp = await newRecord('serviceProvider');
      const svc = (await create(GENERIC.find((e) => e.name === 'service') as EntityShape)).key;
      await t.api('PUT', `/spDetail/${svc}`, { token: tokens[3], body: { sp_Id: sp } });
      const wrong = await t.api('POST', `/sproviers/delete/${sp}`, { token: tokens[3], body: { reason: 'Closed down', password: 'nope' } });
      expect(wrong).toMatchObject({ status: 400, body: { message: 'Wrong password: nothing was deleted' } });
      expect((await t.api('GET', `/sproviers/${sp}`, { token: tokens[3] })).status).toBe(200);
      expect((await t.api('POST', `/sproviers/delete/${sp}`, { token: tokens[3], body: { password: 'password-3' } })).status).toBe(400);
      const done = await t.api('POST', `/sproviers/delete/${sp}`, {
        token: tokens[3],
        body: { reason: 'Closed down', password: 'password-3' },
      });
      expect(done.status).toBe(200);
      expect((await t.api('GET', `/sproviers/${sp}`, { token: tokens[3] })).status).toBe(404);
      expect((await t.api('GET', `/spDetail/${svc}`, { token: tokens[3] })).status).toBe(404);
      const [row] = await t.server.db.query('SELECT "deleted", "deleteReason", "deletedBy" FROM "tbl_serviceprovider" WHERE "sp_Id" = $1', [
        sp,
      ]);
      expect(row).toMatchObject({ deleted: true, deleteReason: 'Closed down' });
      expect(
        (
          await t.api('POST', `/spDetail/delete/${UNKNOWN_ID}`, {
            token: tokens[3],
            body: { reason: 'Closed down', password: 'password-3' },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('profiles', () => {
    const profile = () => GENERIC.find((e) => e.name === 'profile') as EntityShape;

    it("refuses a profile from a user without organisation: 'Error Saving Super admin cannot create'", async () => {
      const r = await t.api('POST', '/profile/', { token: tokens[1], body: bodyFor(profile()) });
      expect(r).toMatchObject({ status: 400, body: { message: 'Error Saving Super admin cannot create' } });
    });

    it("checks the registration number's organisation prefix and keeps numbers unique", async () => {
      const foreign = await t.api('POST', '/profile/', {
        token: tokens[3],
        body: { ...bodyFor(profile()), prof_Reg_No: registrationNumber('ADC') },
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.message).toMatch(/^The registration number must be ICRS followed by 8/);
      const first = bodyFor(profile());
      expect((await t.api('POST', '/profile/', { token: tokens[3], body: first })).status).toBe(201);
      const clash = await t.api('POST', '/profile/', { token: tokens[3], body: { ...bodyFor(profile()), prof_Reg_No: first.prof_Reg_No } });
      expect(clash).toMatchObject({ status: 409, body: { message: 'This registration number is already used by another client' } });
    });

    it('records basic service data (BspData) through /profile/basicSp', async () => {
      const prof = await newRecord('profile');
      const BspData = { appr: [{ tbl_Id: uuidv7() }], orgHelp: [{ tbl_Id: 2 }, { tbl_Id: 5 }] };
      const r = await t.api('POST', '/profile/basicSp', { token: tokens[3], body: { prof_Id: prof, BspData } });
      expect(r.status).toBe(200);
      expect(r.body.BspData).toEqual(BspData);
      expect((await t.api('POST', '/profile/basicSp', { token: tokens[3], body: { prof_Id: prof, BspData: { appr: 'x' } } })).status).toBe(
        400,
      );
      expect((await t.api('POST', '/profile/basicSp', { token: tokens[6], body: { prof_Id: prof, BspData } })).status).toBe(403);
    });
  });
});

/** A text field the tests may edit, with a new value that fits it. */
function editableText(e: EntityShape): [string | undefined, string] {
  const entry = Object.entries(e.fields).find(
    ([name, f]) =>
      f.kind === 'string' &&
      !f.readOnly &&
      !f.clientOnly &&
      !f.hidden &&
      !f.format &&
      !f.pattern &&
      !f.unique &&
      !e.keyFields.includes(name) &&
      (f.maxLength ?? 0) >= 20,
  );
  return entry ? [entry[0], 'Edited in a test'] : [undefined, ''];
}
