// Over HTTP (ADR-0008, ADR-0005): a registration number keeps its first value (schemas/ `immutable`),
// an image removed from a record can no longer be downloaded, and creating a service provider
// follows the one rule of the role matrix (createPermission) that the screens use too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermission } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { job, profile, serviceProvider } from '../../schemas/index';
import { ROLES, can } from '../../schemas/roles';
import { backends } from '../helpers/db';
import { startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { type TestServer } from '../helpers/server';

describe.each(backends)('record rules on %s', (backend) => {
  let t: TestServer;
  /** A user of each role in organisation 1, by role (role 1: the administrator). */
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const staff = Object.fromEntries(ROLES.filter((r) => r !== 1).map((role) => [role, [role, 1] as const]));
    t = await startWithStaff({ backend }, staff, { prefix: 'rules' }, { token: tokens });
    tokens[1] = tokens.admin as string;
  }, 120_000);
  afterAll(() => t?.close());

  describe('registration number', () => {
    const newProfile = async () => {
      const body = { ...sampleBody(profile), prof_Reg_No: registrationNumber('ICRS') };
      const created = await t.api('POST', '/profile/', { token: tokens[3], body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body as { prof_Id: string; prof_Reg_No: string };
    };
    const stored = async (id: string) =>
      (await t.server.db.query<{ prof_Reg_No: string; firstName: string }>('SELECT * FROM "tbl_profiles" WHERE "prof_Id" = $1', [id]))[0];

    it('refuses a PUT that changes it (400, in both languages) and changes nothing', async () => {
      const p = await newProfile();
      const other = registrationNumber('ICRS');
      const refused = await t.api('PUT', `/profile/${p.prof_Id}`, { token: tokens[3], body: { prof_Reg_No: other, firstName: 'Changed' } });
      expect(refused.status).toBe(400);
      const message = `prof_Reg_No cannot be changed once it is set (stored value: ${p.prof_Reg_No})`;
      expect(refused.body).toMatchObject({ message, errors: [{ field: 'prof_Reg_No', message }] });
      const french = await t.api('PUT', `/profile/${p.prof_Id}`, {
        token: tokens[1],
        body: { prof_Reg_No: other },
        headers: { 'accept-language': 'fr' },
      });
      expect(french.status).toBe(400);
      expect(french.body.message).toBe(`prof_Reg_No ne peut plus être modifié une fois enregistré (valeur enregistrée : ${p.prof_Reg_No})`);
      expect(await stored(p.prof_Id)).toMatchObject({ prof_Reg_No: p.prof_Reg_No, firstName: expect.not.stringMatching('Changed') });
    });

    it('accepts a PUT that repeats it (a whole record sent back) or leaves it out', async () => {
      const p = await newProfile();
      const same = await t.api('PUT', `/profile/${p.prof_Id}`, {
        token: tokens[3],
        body: { prof_Reg_No: p.prof_Reg_No, firstName: 'Amani' },
      });
      expect(same.status).toBe(200);
      const without = await t.api('PUT', `/profile/${p.prof_Id}`, { token: tokens[3], body: { firstName: 'Neema' } });
      expect(without.status).toBe(200);
      expect(await stored(p.prof_Id)).toMatchObject({ prof_Reg_No: p.prof_Reg_No, firstName: 'Neema' });
    });
  });

  describe('removed images', () => {
    const download = (id: string, name: string) =>
      fetch(`${t.url}/api/imgs/getById?id=${id}&imagename=${name}`, { headers: { authorization: `Bearer ${tokens[3]}` } });
    const storedSlots = async (id: string) =>
      (await t.server.db.query<{ slot: string }>('SELECT "slot" FROM "images" WHERE "ownerId" = $1 ORDER BY "slot"', [id])).map(
        (r) => r.slot,
      );

    it('cannot download an image emptied by removeImages, and its bytes are gone', async () => {
      const body = sampleBody(job);
      const created = await multipartRequest(t, 'POST', '/jobs/', tokens[3], body, { jb_img1: PNG_1PX, jb_img2: PNG_1PX });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { jb_img1: removed, jb_img2: kept } = created.body as { jb_img1: string; jb_img2: string };
      expect((await download(body.jb_Id as string, removed)).status).toBe(200);

      const edited = await multipartRequest(t, 'PUT', `/jobs/${body.jb_Id}`, tokens[3], { removeImages: 'jb_img1' }, {});
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.jb_img1 ?? null).toBeNull();
      expect((await download(body.jb_Id as string, removed)).status).toBe(404);
      expect((await download(body.jb_Id as string, kept)).status).toBe(200);
      expect(await storedSlots(body.jb_Id as string)).toEqual(['jb_img2']);
    });

    it('cannot download the image a new one replaced', async () => {
      const body = sampleBody(job);
      const created = await multipartRequest(t, 'POST', '/jobs/', tokens[3], body, { jb_img1: PNG_1PX });
      const old = created.body.jb_img1 as string;
      const replaced = await multipartRequest(t, 'PUT', `/jobs/${body.jb_Id}`, tokens[3], {}, { jb_img1: PNG_1PX });
      expect(replaced.status).toBe(200);
      expect(replaced.body.jb_img1).not.toBe(old);
      expect((await download(body.jb_Id as string, old)).status).toBe(404);
      expect((await download(body.jb_Id as string, replaced.body.jb_img1 as string)).status).toBe(200);
    });

    it('does not serve bytes its record no longer names, even if they were left behind', async () => {
      const body = sampleBody(job);
      const created = await multipartRequest(t, 'POST', '/jobs/', tokens[3], body, { jb_img1: PNG_1PX });
      // An emptied slot written by another path than the routes (an old server, a manual fix).
      await t.server.db.query('UPDATE "available-jobs" SET "jb_img1" = NULL WHERE "jb_Id" = $1', [body.jb_Id]);
      expect((await download(body.jb_Id as string, created.body.jb_img1 as string)).status).toBe(404);
    });
  });

  describe('creating service providers', () => {
    it.each(ROLES.map((role) => [role] as const))('role %i: POST /sproviers/ follows createPermission of the role matrix', async (role) => {
      const { status } = await t.api('POST', '/sproviers/', { token: tokens[role], body: sampleBody(serviceProvider) });
      expect(status).toBe(can(role, createPermission(serviceProvider)) ? 201 : 403);
    });
  });
});
