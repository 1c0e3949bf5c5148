// Erased means gone, and stays gone (docs/security.md "What an erasure does"), over HTTP against a
// real database: after a client's erasure, every write that names the client is refused (410
// http.clientErased, in the user's language), single-record routes and batched pushes alike,
// record by record; every read of its records answers 404 and lists leave them out; no value of
// the client is left in any column of any table, nor (PostgreSQL, pageinspect) in any row
// version of the tables; the erasure's reason is a code and a note that may hold none of the
// client's values; and a batch record's device time must be a time it could have been made.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { newService, ok, startWithStaff } from '../helpers/api/staff';
import { ensureOrganisations, multipartRequest, PNG_1PX } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
type Body = Record<string, unknown>;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const ERASED_EN = "This client's data was erased on the server: nothing more can be stored for this client";
const ERASED_FR = 'Les données de ce client ont été effacées sur le serveur : plus rien ne peut être enregistré pour ce client';

interface Client {
  id: string;
  regNo: string;
  refId: string;
  jrefId: string;
  /** The profile's and the referral's rows before the erasure (an offline edit's base). */
  profileAt: string;
  referralAt: string;
}

describe.each(backends)('an erased client on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let service: string;
  let job: string;
  const as = (who: string, method: string, path: string, body?: unknown, lang = 'fr') =>
    t.api(method, path, { token: token[who], body, headers: { 'accept-language': lang } });
  const erase = (id: string, body: Body, lang = 'fr') =>
    as('a7', 'POST', `/profile/${id}/erase`, { password: 'password-a7', ...body }, lang);

  /** A client of organisation A with every kind of record. */
  async function makeClient(names: { first: string; last: string; phone: string; born: string; needs: string }): Promise<Client> {
    const regNo = registrationNumber('ADC');
    const client: Body = {
      ...sampleBody(entityByName.profile, {}),
      prof_Reg_No: regNo,
      firstName: names.first,
      middleName: `${names.first}son`,
      lastName: names.last,
      phone: names.phone,
      birthDate: names.born,
    };
    ok(201)(await as('a3', 'POST', '/profile/', client));
    const id = String(client.prof_Id);
    ok(201)(await as('a3', 'POST', '/profile/skprofile/', { prof_Id: id, diploma: 'State diploma' }));
    ok(201)(await as('a3', 'POST', '/profile/social/', { prof_Id: id, needs: names.needs }));
    ok(201)(await as('a3', 'POST', '/profile/security/', { prof_Id: id, concerns: `${names.needs} at night` }));
    ok(200)(await multipartRequest(t, 'PUT', `/profile/images/${id}`, token.a3 as string, { img_for: 'photo' }, { file: PNG_1PX }));
    const refId = uuidv7();
    const today = new Date().toISOString().slice(0, 10);
    ok(201)(await as('a3', 'POST', '/referral/', { ref_Id: refId, prof_Id: id, sp_Detail_Id: service, date: today, reason: names.needs }));
    ok(200)(await multipartRequest(t, 'PUT', `/referral/images/${refId}`, token.a3 as string, {}, { file: PDF }));
    const jrefId = uuidv7();
    ok(201)(await as('a3', 'POST', '/jobreferral/', { jref_Id: jrefId, prof_Id: id, jb_Id: job, date: today, note: names.needs }));
    const profileAt = String((await as('a3', 'GET', `/profile/${id}`)).body.updatedAt);
    const referralAt = String((await as('a3', 'GET', `/referral/${refId}`)).body.updatedAt);
    return { id, regNo, refId, jrefId, profileAt, referralAt };
  }

  beforeAll(async () => {
    t = await startWithStaff({ backend }, { a3: [3, A], a7: [7, A] }, { prefix: 'erased' }, { token });
    ({ service } = await newService(t, token.a3));
    const posting = sampleBody(entityByName.job, {});
    ok(201)(await as('a3', 'POST', '/jobs/', posting));
    job = String(posting.jb_Id);
  }, 120_000);
  afterAll(() => t?.close());

  it('refuses every write naming the erased client, 410 in the user language, batches record by record; nothing is stored', async () => {
    const c = await makeClient({
      first: 'Kibwana',
      last: 'Tshilomba',
      phone: '+243 81 401 2233',
      born: '1988-03-14',
      needs: 'Roof repair',
    });
    const live = await makeClient({ first: 'Amani', last: 'Kalonji', phone: '+243 81 401 9988', born: '1990-01-02', needs: 'Seeds' });
    ok(200)(await erase(c.id, { reasonCode: 'clientRequest' }));
    const today = new Date().toISOString().slice(0, 10);
    const [{ entries: before }] = await t.server.db.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM "audit_log" WHERE "clientId" = $1 OR "recordId" = $1`,
      [c.id],
    );

    const writes: [string, string, Body][] = [
      ['POST', '/profile/social/', { prof_Id: c.id, needs: 'Stored after the erasure' }],
      ['PUT', `/profile/skprofile/${c.id}`, { diploma: 'Stored after the erasure' }],
      ['POST', '/profile/security/', { prof_Id: c.id, concerns: 'Stored after the erasure' }],
      ['POST', '/profile/Bstart/', { prof_Id: c.id, businessIdea: 'Stored after the erasure' }],
      ['PUT', `/profile/${c.id}`, { firstName: 'Kibwana', updatedAt: c.profileAt }],
      ['POST', '/profile/basicSp', { prof_Id: c.id, BspData: { appr: [], orgHelp: [] } }],
      ['POST', '/profile/', { ...sampleBody(entityByName.profile, {}), prof_Id: c.id, prof_Reg_No: registrationNumber('ADC') }],
      ['POST', '/profile/images/delete/' + c.id, { img_for: 'photo' }],
      ['POST', '/referral/', { ref_Id: uuidv7(), prof_Id: c.id, sp_Detail_Id: service, date: today, reason: 'Stored after the erasure' }],
      ['PUT', `/referral/${c.refId}`, { feedback: 'Stored after the erasure', updatedAt: c.referralAt }],
      ['POST', '/jobreferral/', { jref_Id: uuidv7(), prof_Id: c.id, jb_Id: job, date: today, note: 'Stored after the erasure' }],
      ['PUT', `/jobreferral/${c.jrefId}`, { feedback: 'Stored after the erasure' }],
    ];
    for (const [method, path, body] of writes) {
      const answer = await as('a3', method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(410);
      expect(answer.body).toMatchObject({ code: 'http.clientErased', message: ERASED_FR });
    }
    // The same for role 1, whose scope is every organisation, and in English.
    const admin = await as('admin', 'POST', '/profile/social/', { prof_Id: c.id, needs: 'Stored after the erasure' }, 'en');
    expect(admin.status).toBe(410);
    expect(admin.body).toMatchObject({ code: 'http.clientErased', message: ERASED_EN });
    // Files: a photo, a referral attachment.
    const photo = await multipartRequest(t, 'PUT', `/profile/images/${c.id}`, token.a3 as string, { img_for: 'idDocument' }, { file: PDF });
    expect(photo.status).toBe(410);
    expect(photo.body).toMatchObject({ code: 'http.clientErased', message: ERASED_EN });
    const attachment = await multipartRequest(t, 'PUT', `/referral/images/${c.refId}`, token.a3 as string, {}, { file: PDF });
    expect(attachment.status).toBe(410);

    // A batch: the erased client's records are refused one by one, the live client's stored.
    const push = ok(200)(
      await as('a3', 'POST', '/sync/push/tbl_profiles_sec', {
        records: [
          { op: 'create', data: { prof_Id: c.id, concerns: 'Pending on a device' } },
          { op: 'create', data: { prof_Id: live.id, concerns: 'Pending on a device' } },
          { op: 'update', id: c.id, data: { concerns: 'Edited on a device' } },
        ],
      }),
    ).body as { results: { key: string; status: number; body: Body }[] };
    expect(push.results.map((r) => [r.key, r.status])).toEqual([
      [c.id, 410],
      [live.id, 200],
      [c.id, 410],
    ]);
    expect(push.results[0]?.body).toMatchObject({ code: 'http.clientErased', message: ERASED_FR });
    const profiles = ok(200)(
      await as(
        'a3',
        'POST',
        '/sync/push/tbl_profiles',
        { records: [{ op: 'update', id: c.id, data: { lastName: 'Tshilomba', updatedAt: c.profileAt } }] },
        'en',
      ),
    ).body as { results: { status: number; body: Body }[] };
    expect(profiles.results[0]).toMatchObject({ status: 410, body: { code: 'http.clientErased', message: ERASED_EN } });
    for (const [table, data] of [
      ['tbl_profiles_social', { prof_Id: c.id, needs: 'Pending on a device' }],
      ['tbl_skills', { prof_Id: c.id, diploma: 'Pending on a device' }],
      ['tbl_profiles_bstart', { prof_Id: c.id, businessIdea: 'Pending on a device' }],
    ] as const) {
      const batch = ok(200)(await as('a3', 'POST', `/sync/push/${table}`, { records: [{ op: 'create', data }] })).body as {
        results: { status: number; body: Body }[];
      };
      expect(batch.results.map((r) => [table, r.status, r.body.code])).toEqual([[table, 410, 'http.clientErased']]);
    }

    // Nothing stored: no new entry for the client, no value in its records; a second erasure
    // still finds no client to erase, and none is needed.
    const [{ entries: after }] = await t.server.db.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM "audit_log" WHERE "clientId" = $1 OR "recordId" = $1`,
      [c.id],
    );
    expect(after).toBe(before);
    const stored = await t.server.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM "referral" WHERE "prof_Id" = $1) + (SELECT count(*)::int FROM "jobreferral" WHERE "prof_Id" = $1) AS n`,
      [c.id],
    );
    expect(stored[0]?.n).toBe(2);
    const [social] = await t.server.db.query<Body>('SELECT "needs" FROM "tbl_profiles_social" WHERE "prof_Id" = $1', [c.id]);
    expect(social?.needs).toBeNull();
    const [security] = await t.server.db.query<Body>('SELECT "concerns" FROM "tbl_profiles_sec" WHERE "prof_Id" = $1', [c.id]);
    expect(security?.concerns).toBeNull();
    ok(404)(await erase(c.id, { reasonCode: 'clientRequest' }));
  });

  it("answers 404 to every read of the erased client's records, and lists leave them out", async () => {
    const c = await makeClient({ first: 'Mwamini', last: 'Kabeya', phone: '+243 81 402 3344', born: '1979-11-30', needs: 'School fees' });
    ok(200)(await as('a3', 'GET', `/profile/social/${c.id}`));
    ok(200)(await as('a3', 'GET', `/referral/${c.refId}`));
    ok(200)(await erase(c.id, { reasonCode: 'consentWithdrawn' }));
    for (const path of [
      `/profile/${c.id}`,
      `/profile/social/${c.id}`,
      `/profile/skprofile/${c.id}`,
      `/profile/security/${c.id}`,
      `/profile/images/${c.id}`,
      `/referral/${c.refId}`,
      `/jobreferral/${c.jrefId}`,
      `/history/profile/${c.id}`,
      `/history/referral/${c.refId}`,
    ]) {
      for (const who of ['a3', 'admin']) {
        const answer = await as(who, 'GET', path);
        expect(answer.status, `${who} GET ${path}: ${JSON.stringify(answer.body)}`).toBe(404);
        expect(answer.body.code).toBe('http.recordNotFound');
      }
    }
    // The client's ZIP (role 1 and 7 only) is not made either.
    for (const who of ['a7', 'admin']) {
      const zip = await as(who, 'GET', `/profile/${c.id}/export`);
      expect(zip.status, `${who} GET /profile/${c.id}/export`).toBe(404);
    }
    const file = await fetch(`${t.url}/api/imgs/getrefimg?id=${c.refId}&imagename=file.bin`, {
      headers: { authorization: `Bearer ${token.a3}` },
    });
    expect(file.status).toBe(404);
    // Lists: the generic ones, the searches, and the lists of a client's referrals.
    const listed = async (who: string, method: string, path: string, body?: unknown) =>
      (ok(200)(await as(who, method, path, body)).body.rows as Body[]).filter((r) => r.prof_Id === c.id);
    for (const who of ['a3', 'admin']) {
      expect(await listed(who, 'GET', '/referral?pageSize=200')).toEqual([]);
      expect(await listed(who, 'GET', `/referral?pageSize=200&prof_Id=${c.id}`)).toEqual([]);
      expect(await listed(who, 'GET', '/jobreferral?pageSize=200')).toEqual([]);
      expect(await listed(who, 'POST', '/referral/search', { page: 1, pageSize: 200 })).toEqual([]);
      expect(await listed(who, 'POST', '/jobreferral/search', { page: 1, pageSize: 200 })).toEqual([]);
      expect(await listed(who, 'GET', '/profile?pageSize=200')).toEqual([]);
    }
  });

  it('leaves no value of the client in any column of any table, nor in any row version once vacuumed', async () => {
    const names = { first: 'Bahatikimya', last: 'Ngalulandu', phone: '+243 81 403 7755', born: '1931-02-17', needs: 'Fishing nets repair' };
    const c = await makeClient(names);
    // Changed once more, so the tables hold older versions of the rows too.
    ok(200)(await as('a3', 'PUT', `/profile/${c.id}`, { address: `Avenue ${names.last} 9`, updatedAt: c.profileAt }));
    ok(200)(await erase(c.id, { reasonCode: 'noLongerNeeded', note: 'Closed file, no contact for three years' }));
    const needles = [names.first, names.last, '403 7755', '4037755', names.born, names.needs, c.regNo];

    // Every column of every table of the public schema, as text (bytes as escaped text).
    const columns = await t.server.db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = 'public'`,
    );
    expect(columns.length).toBeGreaterThan(100);
    for (const { table_name, column_name, data_type } of columns) {
      const value = data_type === 'bytea' ? `encode("${column_name}", 'escape')` : `"${column_name}"::text`;
      const [hit] = await t.server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table_name}" WHERE ${needles.map((_, i) => `${value} ILIKE $${i + 1}`).join(' OR ')}`,
        needles.map((needle) => `%${needle}%`),
      );
      expect(hit?.n, `${table_name}.${column_name}`).toBe(0);
    }
    // The erasure's VACUUM ran on the client's tables.
    const [vacuumed] = await t.server.db.query<{ n: number }>(
      `SELECT coalesce(sum("vacuum_count"), 0)::int AS n FROM pg_stat_user_tables WHERE "relname" IN ('tbl_profiles', 'tbl_profiles_social', 'audit_values')`,
    );
    expect(vacuumed?.n).toBeGreaterThanOrEqual(3);

    if (backend !== 'postgres') return;
    // Every row version still in a table's pages (live or dead), read raw (pageinspect).
    // As the server's superuser (the app's role may not read raw pages), on this file's database.
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = new URL(t.config.databaseUrl as string).pathname;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
      const tables = [...new Set(columns.map((c) => c.table_name))];
      for (const table of tables) {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM generate_series(0, greatest(pg_relation_size($1::regclass) / current_setting('block_size')::int - 1, -1)) AS page,
             heap_page_items(get_raw_page($1::text, page::int)) AS item
           WHERE ${needles.map((_, i) => `position(convert_to($${i + 2}, 'UTF8') IN item.t_data) > 0`).join(' OR ')}`,
          [`public."${table}"`, ...needles],
        );
        expect(rows[0]?.n, `row versions of ${table}`).toBe(0);
      }
      // Every entry of every B-tree index of those tables (a key holds a value: a name, a number),
      // read raw from the index's leaf and inner pages, page 0 being the metapage.
      const { rows: indexes } = await admin.query<{ index: string }>(
        `SELECT i.indexrelid::regclass::text AS index FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
          WHERE i.indrelid = ANY($1::regclass[]) AND am.amname = 'btree'`,
        [tables.map((table) => `public."${table}"`)],
      );
      expect(indexes.length).toBeGreaterThan(tables.length);
      for (const { index } of indexes) {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM generate_series(1, greatest(pg_relation_size($1::regclass) / current_setting('block_size')::int - 1, 0)) AS page,
             bt_page_items(get_raw_page($1::text, page::int)) AS item
           WHERE ${needles.map((_, i) => `position(encode(convert_to($${i + 2}, 'UTF8'), 'hex') IN replace(item.data, ' ', '')) > 0`).join(' OR ')}`,
          [index, ...needles],
        );
        expect(rows[0]?.n, `index entries of ${index}`).toBe(0);
      }
    } finally {
      await admin.end();
    }
  });

  it("takes the reason as a code and a note, and refuses a note holding any of the client's values", async () => {
    const c = await makeClient({
      first: 'Neemakadi',
      last: 'Mulumba',
      phone: '+243 81 404 5566',
      born: '1991-07-23',
      needs: 'Sewing machine',
    });
    const refused: [string, string][] = [
      ['Asked by phone, her number 0814045566, needs help', 'phone'],
      ['Called from +243 81 404 55 66', 'phone'],
      ['Born 23/07/1991, asked in person', 'birthDate'],
      ['Born 1991-07-23', 'birthDate'],
      ['née le 23 juillet 1991', 'birthDate'],
      ['born July 23, 1991', 'birthDate'],
      ['ref 230791', 'birthDate'],
      ['Asked by NEEMAKADI herself', 'name'],
      ['Mme Mulumbá a demandé', 'name'],
      [`File ${c.regNo.toLowerCase()} closed`, 'regNo'],
      ['She no longer needs a sewing machine', 'text'],
    ];
    for (const [note, what] of refused) {
      const answer = await erase(c.id, { reasonCode: 'clientRequest', note }, 'en');
      expect(answer.status, `${note}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.code).toBe('erase.noteHasClientValue');
      expect(answer.body.errors).toEqual([
        { field: 'note', message: expect.stringContaining(`client's ${what === 'text' ? 'recorded data' : ''}`) },
      ]);
    }
    const french = await erase(c.id, { reasonCode: 'clientRequest', note: 'Son numéro : 81 404 5566' });
    expect(french.body).toMatchObject({ code: 'erase.noteHasClientValue' });
    expect(french.body.message).toContain('le numéro de téléphone du client');
    // The old body, and a code not on the list, are refused too; nothing was erased meanwhile.
    ok(400)(await erase(c.id, { reason: 'Client asked' }));
    ok(400)(await erase(c.id, { reasonCode: 'because' }));
    ok(200)(await as('a3', 'GET', `/profile/${c.id}`));

    ok(200)(await erase(c.id, { reasonCode: 'consentWithdrawn', note: 'Letter received at the office on Monday' }));
    const [entry] = await t.server.db.query<Body>(
      `SELECT "note", "userName" FROM "audit_log" WHERE "action" = 'erase' AND "entity" = 'profile' AND "recordId" = $1`,
      [c.id],
    );
    expect(entry).toEqual({ note: 'consentWithdrawn: Letter received at the office on Monday', userName: 'erased-a7' });
    const bare = await makeClient({ first: 'Furahani', last: 'Mbala', phone: '+243 81 404 7788', born: '1985-05-05', needs: 'Tools' });
    ok(200)(await erase(bare.id, { reasonCode: 'duplicate' }));
    const [plain] = await t.server.db.query<Body>(
      `SELECT "note" FROM "audit_log" WHERE "action" = 'erase' AND "entity" = 'profile' AND "recordId" = $1`,
      [bare.id],
    );
    expect(plain?.note).toBe('duplicate');
  });

  it("bounds a batch record's device time: not before the record was made, not in the future", async () => {
    const push = async (deviceAt: string, made = Date.now() - 60_000) => {
      const data = { ...sampleBody(entityByName.job, {}), jb_Id: uuidv7(made) };
      const r = ok(200)(
        await as('a3', 'POST', `/sync/push/${entityByName.job.table}`, { records: [{ op: 'create', data, deviceAt }] }, 'en'),
      );
      return (r.body as { results: { status: number; body: Body }[] }).results[0] as { status: number; body: Body };
    };
    const refused = await push('1900-01-01T00:00:00.000Z');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'sync.deviceAtRange',
      errors: [{ field: 'deviceAt', message: expect.stringContaining('1900') }],
    });
    expect((await push(new Date(Date.now() + 60 * 60_000).toISOString())).status).toBe(400); // an hour ahead
    const made = Date.now() - 60 * 60_000;
    expect((await push(new Date(made - 10 * 60_000).toISOString(), made)).status).toBe(400); // before it was made
    // Within the bounds, a few minutes of clock difference included.
    expect((await push(new Date(made + 1000).toISOString(), made)).status).toBe(201);
    expect((await push(new Date(made - 60_000).toISOString(), made)).status).toBe(201);
    expect((await push(new Date(Date.now() + 2 * 60_000).toISOString())).status).toBe(201);
    const french = ok(200)(
      await as('a3', 'POST', `/sync/push/${entityByName.job.table}`, {
        records: [{ op: 'create', data: sampleBody(entityByName.job, {}), deviceAt: '1900-01-01T00:00:00.000Z' }],
      }),
    ).body as { results: { body: Body }[] };
    expect(String(french.results[0]?.body.message)).toContain('deviceAt doit être compris entre la création');
  });
});

// With two PostgreSQL roles the app's role owns no table, and only a table's owner may vacuum it:
// the erasure's VACUUM goes through the owner's connection (DATABASE_OWNER_URL).
describe.skipIf(!process.env.TEST_DATABASE_URL)('an erasure with two PostgreSQL roles', () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it("vacuums the client's tables as their owner", async () => {
    t = await startTestServer({ backend: 'postgres', roles: 'two' });
    await ensureOrganisations(t.server.db);
    await t.createUser({ userName: 'roles-a7', password: 'password-a7', role: 7, location: A });
    const token = await t.login('roles-a7', 'password-a7');
    await t.createUser({ userName: 'roles-a3', password: 'password-a3', role: 3, location: A });
    const field = await t.login('roles-a3', 'password-a3');
    const body: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC') };
    expect((await t.api('POST', '/profile/', { token: field, body })).status).toBe(201);
    const vacuums = async () =>
      (
        await t.server.db.query<{ n: number }>(
          `SELECT coalesce(sum("vacuum_count"), 0)::int AS n FROM pg_stat_user_tables WHERE "relname" IN ('tbl_profiles', 'audit_values')`,
        )
      )[0]?.n ?? 0;
    const before = await vacuums();
    const erased = await t.api('POST', `/profile/${String(body.prof_Id)}/erase`, {
      token,
      body: { reasonCode: 'clientRequest', password: 'password-a7' },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    // The statistics reach the view a moment after the statement.
    let after = before;
    for (let i = 0; i < 50 && after < before + 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await vacuums();
    }
    expect(after).toBeGreaterThanOrEqual(before + 2);
  }, 120_000);
});
