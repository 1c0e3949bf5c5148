// The two calls the client registration form needs beyond the entity routes (ADR-0028):
// POST /profile/duplicates (same names and birth date, case and accents ignored, or the same
// phone; only within the caller's organisation scope) and POST /profile/images/delete/{id}
// (a removed photo or document is gone from the server: bytes deleted, row marked deleted for
// the devices' pull, no longer served or listed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { profile } from '../../schemas/index';
import { backends } from '../helpers/db';
import { startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { type TestServer } from '../helpers/server';

const A = 2; // ADC
const B = 3; // CAJ
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe.each(backends)('client form calls on %s', (backend) => {
  let t: TestServer;
  const tokens: Record<string, string> = {};

  async function newClient(token: string, abbr: string, values: Record<string, unknown>): Promise<{ id: string; regNo: string }> {
    const body = { ...sampleBody(profile, {}), prof_Id: uuidv7(), prof_Reg_No: registrationNumber(abbr), ...values };
    const response = await t.api('POST', '/profile/', { token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { id: String(body.prof_Id), regNo: String(body.prof_Reg_No) };
  }

  const search = (token: string, body: Record<string, unknown>) => t.api('POST', '/profile/duplicates', { token, body });

  beforeAll(async () => {
    t = await startWithStaff(
      { backend },
      { a3: [3, A], b3: [3, B], a2: [2, A], a4: [4, A], a7: [7, A], a6: [6, A] },
      { prefix: 'user' },
      { token: tokens },
    );
  });
  afterAll(() => t?.close());

  describe('duplicate search', () => {
    let elodie: { id: string; regNo: string };
    let otherOrg: { id: string; regNo: string };

    beforeAll(async () => {
      elodie = await newClient(tokens.a3, 'ADC', {
        firstName: 'Élodie',
        lastName: "N'Guessan Müller",
        birthDate: '1994-03-12',
        phone: '+243 81 555 0101',
      });
      // The same person registered by another organisation: never shown to A.
      otherOrg = await newClient(tokens.b3, 'CAJ', {
        firstName: 'Elodie',
        lastName: "N'Guessan Muller",
        birthDate: '1994-03-12',
        phone: '+243 81 555 0101',
      });
    });

    it('finds the same names and birth date whatever the case, accents and spaces', async () => {
      const response = await search(tokens.a3, { firstName: '  ELODIE ', lastName: "n'guessan  muller", birthDate: '1994-03-12' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          prof_Id: elodie.id,
          prof_Reg_No: elodie.regNo,
          firstName: 'Élodie',
          lastName: "N'Guessan Müller",
          birthDate: '1994-03-12',
          phone: '+243 81 555 0101',
          match: ['name'],
        },
      ]);
    });

    it('needs the birth date too: same names born another day are someone else', async () => {
      expect((await search(tokens.a3, { firstName: 'Elodie', lastName: "N'Guessan Muller", birthDate: '1994-03-13' })).body).toEqual([]);
      expect((await search(tokens.a3, { firstName: 'Elodie', lastName: "N'Guessan Muller" })).body).toEqual([]);
    });

    it('finds the same phone whatever its spacing and punctuation', async () => {
      const response = await search(tokens.a3, { firstName: 'Someone', lastName: 'Else', phone: '+243-81-555-0101' });
      expect(response.body.map((r: { prof_Id: string; match: string[] }) => [r.prof_Id, r.match])).toEqual([[elodie.id, ['phone']]]);
      const both = await search(tokens.a3, {
        firstName: 'elodie',
        lastName: "n'guessan müller",
        birthDate: '1994-03-12',
        phone: '243815550101',
      });
      expect(both.body[0].match).toEqual(['name', 'phone']);
    });

    it('leaves out the client being edited, and answers nothing for too little to compare', async () => {
      expect((await search(tokens.a3, { phone: '+243 81 555 0101', exclude: elodie.id })).body).toEqual([]);
      expect((await search(tokens.a3, { phone: '0101' })).body).toEqual([]);
      expect((await search(tokens.a3, {})).body).toEqual([]);
    });

    it('searches only the clients the user may read: own organisation, all for role 1, never another organisation', async () => {
      const same = { phone: '+243 81 555 0101' };
      const ids = async (token: string) => ((await search(token, same)).body as { prof_Id: string }[]).map((r) => r.prof_Id).sort();
      expect(await ids(tokens.a3)).toEqual([elodie.id]);
      expect(await ids(tokens.b3)).toEqual([otherOrg.id]);
      expect(await ids(tokens.a4)).toEqual([elodie.id]);
      expect(await ids(tokens.admin)).toEqual([elodie.id, otherOrg.id].sort());
    });

    it('refuses roles without client access (403) and bad input (400), in the user language', async () => {
      expect((await search(tokens.a2, { phone: '+243 81 555 0101' })).status).toBe(403);
      expect((await search(tokens.a6, { phone: '+243 81 555 0101' })).status).toBe(403);
      expect((await search(tokens.a7, { phone: '+243 81 555 0101' })).status).toBe(403);
      expect((await t.api('POST', '/profile/duplicates', { body: { phone: '+243 81 555 0101' } })).status).toBe(401);
      const bad = await search(tokens.a3, { birthDate: '12/03/1994', firstName: 'x', lastName: 'y' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/birthDate/);
      const unknown = await search(tokens.a3, { prof_Reg_No: elodie.regNo });
      expect(unknown.status).toBe(400);
    });
  });

  describe('removing a photo or document', () => {
    let client: { id: string; regNo: string };
    const images = async (token: string) =>
      ((await t.api('GET', `/profile/images/${client.id}`, { token })).body as { img_for: string }[]).map((i) => i.img_for);
    const bytes = async (kind: string) =>
      (
        await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "images" WHERE "ownerId" = $1 AND "slot" = $2', [
          client.id,
          kind,
        ])
      )[0].n;
    const remove = (token: string, kind: string, id = client.id) =>
      t.api('POST', `/profile/images/delete/${id}`, { token, body: { img_for: kind } });

    beforeAll(async () => {
      client = await newClient(tokens.a3, 'ADC', { firstName: 'Photo', lastName: 'Owner' });
      for (const [kind, file] of [
        ['photo', PNG_1PX],
        ['idDocument', PDF],
        ['consentForm', PNG_1PX],
      ] as const) {
        const r = await multipartRequest(t, 'PUT', `/profile/images/${client.id}`, tokens.a3, { img_for: kind }, { file });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
    });

    it('deletes the bytes, stops serving and listing it, and tells the devices through the pull', async () => {
      expect(await images(tokens.a3)).toEqual(['consentForm', 'idDocument', 'photo']);
      expect((await t.api('GET', `/imgs/getfile?id=${client.id}&filename=idDocument`, { token: tokens.a3 })).status).toBe(200);
      const response = await remove(tokens.a3, 'idDocument');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ result: 'removed', prof_Id: client.id, img_for: 'idDocument' });
      expect(await bytes('idDocument')).toBe(0);
      expect(await bytes('photo')).toBe(1);
      expect(await images(tokens.a3)).toEqual(['consentForm', 'photo']);
      expect((await t.api('GET', `/imgs/getfile?id=${client.id}&filename=idDocument`, { token: tokens.a3 })).status).toBe(404);
      const pull = await t.api('GET', '/sync/tbl_profiles_images?limit=1000', { token: tokens.a3 });
      const row = (pull.body.documents as { prof_Id: string; img_for: string; _deleted: boolean }[]).find(
        (d) => d.prof_Id === client.id && d.img_for === 'idDocument',
      );
      expect(row?._deleted).toBe(true);
    });

    it('answers a repeated removal (a lost answer) without error, and a new upload brings the kind back', async () => {
      expect((await remove(tokens.a3, 'idDocument')).body.result).toBe('absent');
      const again = await multipartRequest(t, 'PUT', `/profile/images/${client.id}`, tokens.a3, { img_for: 'idDocument' }, { file: PDF });
      expect(again.status).toBe(200);
      expect(await images(tokens.a3)).toEqual(['consentForm', 'idDocument', 'photo']);
      const served = await fetch(`${t.url}/api/imgs/getfile?id=${client.id}&filename=idDocument`, {
        headers: { authorization: `Bearer ${tokens.a3}` },
      });
      expect([served.status, served.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    });

    it('refuses another organisation (404, nothing removed), roles without client writes (403) and unknown kinds (400)', async () => {
      expect((await remove(tokens.b3, 'photo')).status).toBe(404);
      expect((await remove(tokens.a2, 'photo')).status).toBe(403);
      expect((await remove(tokens.a7, 'photo')).status).toBe(403);
      expect((await remove(tokens.a3, 'selfie')).status).toBe(400);
      expect((await remove(tokens.a3, 'photo', uuidv7())).status).toBe(404);
      expect(await bytes('photo')).toBe(1);
      expect(await images(tokens.a3)).toContain('photo');
    });
  });
});
