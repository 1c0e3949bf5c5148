// A client's data handed over and erased (ADR-0036), over HTTP against a real database: the
// export holds everything about the client (profile, sub-records, referrals, history, files);
// the erasure leaves no personal value in any text column of any table, the statistics still
// count the referrals, devices are told to drop the client, and the log says who erased and why.
// Role 1 everywhere, role 7 in its own organisation, nobody else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { newService, ok, startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { type TestServer } from '../helpers/server';
import { unzip } from '../helpers/zip';

const A = 2; // 'ADC'
const B = 3; // 'CAJ'
type Body = Record<string, unknown>;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe.each(backends)('client hand-over on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let service: string;
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });
  const download = (who: string, path: string) => fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${token[who]}` } });

  /** A client of organisation A with every kind of record, changed once so the log holds values. */
  async function fullClient(names: { first: string; last: string; phone: string }) {
    const regNo = registrationNumber('ADC');
    const client: Body = {
      ...sampleBody(entityByName.profile, {}),
      prof_Reg_No: regNo,
      firstName: names.first,
      lastName: names.last,
      phone: names.phone,
      address: `Avenue ${names.last} 12`,
    };
    ok(201)(await as('a3', 'POST', '/profile/', client));
    const id = String(client.prof_Id);
    ok(201)(
      await as('a3', 'POST', '/profile/skprofile/', {
        prof_Id: id,
        diploma: 'State diploma',
        workExperience: `Worked with ${names.first}'s uncle`,
      }),
    );
    ok(201)(await as('a3', 'POST', '/profile/social/', { prof_Id: id, maritalStatus: 'married', needs: `${names.first} needs housing` }));
    ok(200)(await multipartRequest(t, 'PUT', `/profile/images/${id}`, token.a3 as string, { img_for: 'photo' }, { file: PNG_1PX }));
    ok(200)(await multipartRequest(t, 'PUT', `/profile/images/${id}`, token.a3 as string, { img_for: 'idDocument' }, { file: PDF }));
    const row = (await as('a3', 'GET', `/profile/${id}`)).body;
    ok(200)(await as('a3', 'PUT', `/profile/${id}`, { middleName: `${names.first}son`, updatedAt: row.updatedAt }));
    const ref = {
      ref_Id: uuidv7(),
      prof_Id: id,
      sp_Detail_Id: service,
      date: new Date().toISOString().slice(0, 10),
      reason: `${names.first} ${names.last} needs legal advice`,
    };
    ok(201)(await as('a3', 'POST', '/referral/', ref));
    ok(200)(await multipartRequest(t, 'PUT', `/referral/images/${ref.ref_Id}`, token.a3 as string, {}, { file: PDF }));
    return { id, regNo, refId: ref.ref_Id };
  }

  beforeAll(async () => {
    t = await startWithStaff({ backend }, { a3: [3, A], a7: [7, A], b7: [7, B], a2: [2, A], a4: [4, A] }, { prefix: 'hand' }, { token });
    ({ service } = await newService(t, token.a3));
  }, 120_000);
  afterAll(() => t?.close());

  it('exports everything held about a client as one ZIP: a readable JSON and the files, and audits it', async () => {
    const { id, regNo, refId } = await fullClient({ first: 'Neema', last: 'Kasongo', phone: '+243 81 555 0101' });
    for (const who of ['a3', 'a4', 'a2', 'b7'])
      expect((await download(who, `/profile/${id}/export`)).status, who).toBe(who === 'b7' ? 404 : 403);
    const response = await download('a7', `/profile/${id}/export`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(`client-${regNo}.zip`);
    const files = unzip(Buffer.from(await response.arrayBuffer()));
    const about = JSON.parse(files.get('client.json')?.toString('utf8') ?? '{}');
    expect(about.client).toMatchObject({
      prof_Id: id,
      prof_Reg_No: regNo,
      firstName: 'Neema',
      lastName: 'Kasongo',
      middleName: 'Neemason',
    });
    expect(about.records.skills).toMatchObject({ diploma: 'State diploma' });
    expect(about.records.social).toMatchObject({ maritalStatus: 'married' });
    expect(about.records.referral).toEqual([
      expect.objectContaining({ ref_Id: refId, reason: 'Neema Kasongo needs legal advice', serviceName: expect.any(String) }),
    ]);
    expect(about.history.map((e: Body) => e.action)).toEqual(expect.arrayContaining(['create', 'update', 'image.add']));
    expect(about.history.find((e: Body) => e.action === 'update' && e.entity === 'profile')?.changes).toMatchObject({
      middleName: { after: 'Neemason' },
    });
    const photo = about.documents.find((d: Body) => d.slot === 'photo');
    expect(files.get(photo.file)?.equals(PNG_1PX)).toBe(true);
    const document = about.documents.find((d: Body) => d.slot === 'idDocument');
    expect(files.get(document.file)?.equals(PDF)).toBe(true);
    const attachment = about.documents.find((d: Body) => d.record === 'referral');
    expect(files.get(attachment.file)?.equals(PDF)).toBe(true);
    ok(200)(await download('admin', `/profile/${id}/export`).then(async (r) => ({ status: r.status, body: await r.arrayBuffer() })));
    const [entry] = await t.server.db.query<Body>(
      `SELECT "action", "userName", "location" FROM "audit_log" WHERE "action" = 'export' AND "recordId" = $1 ORDER BY "id" LIMIT 1`,
      [id],
    );
    expect(entry).toEqual({ action: 'export', userName: 'hand-a7', location: A });
  });

  it('finds the clients one may hand over: role 7 its organisation only', async () => {
    const { regNo } = await fullClient({ first: 'Furaha', last: 'Lumbala', phone: '+243 81 555 0202' });
    const mine = ok(200)(await as('a7', 'GET', `/audit/clients?q=${regNo}`)).body as { rows: Body[] };
    expect(mine.rows).toEqual([expect.objectContaining({ regNo, name: 'Furaha Lumbala', location: A })]);
    expect((ok(200)(await as('b7', 'GET', `/audit/clients?q=${regNo}`)).body as { rows: Body[] }).rows).toEqual([]);
    ok(403)(await as('a3', 'GET', '/audit/clients?q=x'));
  });

  it('erases a client: no personal value left in any text column, referrals still counted, devices told, the log says who and why', async () => {
    const names = { first: 'Zawadikimya', last: 'Mbuyambalu', phone: '+243 89 988 7766' };
    const { id, regNo, refId } = await fullClient(names);
    // The field worker's device holds the client (its caseload: they registered it).
    const deviceTables = ['tbl_profiles', 'tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images'];
    for (const table of deviceTables) {
      const feed = ok(200)(await as('a3', 'GET', `/sync/${table}?limit=500`)).body as { documents: Body[] };
      expect(
        feed.documents.some((d) => d.prof_Id === id && d._deleted !== true),
        table,
      ).toBe(true);
    }
    const countsBefore = ok(200)(await as('admin', 'GET', '/stats/gen')).body as Body;
    const wrong = await as('a7', 'POST', `/profile/${id}/erase`, { reasonCode: 'clientRequest', password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('delete.badPassword');
    ok(404)(await as('b7', 'POST', `/profile/${id}/erase`, { reasonCode: 'clientRequest', password: 'password-b7' }));
    ok(403)(await as('a3', 'POST', `/profile/${id}/erase`, { reasonCode: 'clientRequest', password: 'password-a3' }));
    ok(200)(await as('a3', 'GET', `/profile/${id}`)); // nothing erased by the refusals

    // The note may not name the client (test/api/erased-client.test.ts): a code and a clean note.
    const note = `Asked in writing on ${new Date().toISOString().slice(0, 10)}`;
    const named = await as('a7', 'POST', `/profile/${id}/erase`, {
      reasonCode: 'clientRequest',
      note: `Zawadikimya ${note}`,
      password: 'password-a7',
    });
    expect(named.status).toBe(400);
    expect(named.body.code).toBe('erase.noteHasClientValue');
    expect(
      ok(200)(await as('a7', 'POST', `/profile/${id}/erase`, { reasonCode: 'clientRequest', note, password: 'password-a7' })).body,
    ).toEqual({
      result: 'erased',
      id,
    });

    // Every text, varchar and jsonb column of every table, scanned for the client's values.
    const columns = await t.server.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const needles = [names.first, names.last, '998877', '89 988 7766', regNo];
    for (const { table_name, column_name } of columns) {
      for (const needle of needles) {
        const value = column_name === 'data' ? `encode("${column_name}", 'escape')` : `"${column_name}"::text`;
        const [hit] = await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" WHERE ${value} ILIKE $1`, [
          `%${needle}%`,
        ]);
        expect(hit?.n, `${needle} in ${table_name}.${column_name}`).toBe(0);
      }
    }
    // The files are gone; the referral stays, anonymous, and is still counted.
    const [files] = await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "images" WHERE "ownerId" IN ($1, $2)`, [
      id,
      refId,
    ]);
    expect(files?.n).toBe(0);
    const countsAfter = ok(200)(await as('admin', 'GET', '/stats/gen')).body as Body;
    expect(countsAfter.referrals).toBe(countsBefore.referrals);
    const [kept] = await t.server.db.query<Body>('SELECT "status", "sp_Detail_Id" FROM "referral" WHERE "ref_Id" = $1', [refId]);
    expect(kept).toEqual({ status: 'sent', sp_Detail_Id: service });

    // Gone for everyone: pages, lists, the hand-over search; a second erasure finds nothing.
    ok(404)(await as('a3', 'GET', `/profile/${id}`));
    expect(((await as('a3', 'GET', '/profile?pageSize=200')).body.rows as Body[]).some((r) => r.prof_Id === id)).toBe(false);
    expect(
      ((await as('a3', 'POST', '/referral/search', { page: 1, pageSize: 200 })).body.rows as Body[]).some((r) => r.prof_Id === id),
    ).toBe(false);
    ok(404)(await as('a7', 'POST', `/profile/${id}/erase`, { reasonCode: 'clientRequest', password: 'password-a7' }));
    ok(404)(await download('a7', `/profile/${id}/export`).then(async (r) => ({ status: r.status, body: await r.text() })));

    // Devices drop the client and its records at their next pull.
    for (const table of deviceTables) {
      const feed = ok(200)(await as('a3', 'GET', `/sync/${table}?limit=500`)).body as { documents: Body[] };
      const mine = feed.documents.filter((d) => d.prof_Id === id);
      expect(mine.length, table).toBeGreaterThan(0);
      expect(
        mine.every((d) => d._deleted === true),
        table,
      ).toBe(true);
    }

    // The log: one erase entry per record, by whom and why, with no value; the history shows it.
    const entries = await t.server.db.query<Body>(
      `SELECT a."entity", a."userName", a."note", a."changes", v."entryId" FROM "audit_log" a LEFT JOIN "audit_values" v ON v."entryId" = a."id"
       WHERE a."action" = 'erase' AND (a."clientId" = $1 OR a."recordId" = $1) ORDER BY a."id"`,
      [id],
    );
    expect(entries.map((e) => e.entity)).toEqual(expect.arrayContaining(['profile', 'skills', 'social', 'profileImage', 'referral']));
    expect(entries.every((e) => e.userName === 'hand-a7' && e.changes === null && e.entryId === null)).toBe(true);
    expect(entries.find((e) => e.entity === 'profile')?.note).toBe(`clientRequest: ${note}`);
    const history = ok(200)(
      await as('admin', 'GET', `/history/serviceProvider/${(await as('admin', 'GET', `/spDetail/${service}`)).body.sp_Id}`),
    );
    expect(history.status).toBe(200);
    const log = ok(200)(await as('a7', 'GET', '/audit?action=erase&entity=profile')).body as { rows: Body[] };
    expect(log.rows.some((e) => e.recordId === id && e.userName === 'hand-a7')).toBe(true);
  });
});
