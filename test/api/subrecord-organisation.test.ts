// Sub-records carry their organisation (docs/adr/0016-subrecord-organisation.md "Sub-records carry their
// organisation"): a client's records take its organisation from the server, never from a device;
// a client moved to another organisation takes them along, in lists, reads, pulls (the old
// organisation's devices drop them, the new one's get them) and change events; the move leaves
// no audit entry of its own on the records; and the migration fills the column of existing rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { migrate } from '../../server/db/migrations';
import { backends } from '../helpers/db';
import { newService, ok, startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { StreamReader } from '../helpers/sse';
import { type TestServer } from '../helpers/server';

const A = 2; // 'ADC'
const B = 3; // 'CAJ'
const C = 4; // 'FSK'
type Body = Record<string, unknown>;
interface Pulled {
  documents: Body[];
  checkpoint: { updatedAt: string; id: string } | null;
}
/** The device tables of a client, and how each names the client's key. */
const CLIENT_TABLES = ['tbl_profiles', 'tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images'] as const;
const SUB_RECORD_TABLES = ['tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images', 'referral'] as const;

/** The change events each stream receives while `during` runs (and `quietMs` after it). */
async function eventsDuring(urls: string[], during: () => Promise<void>, quietMs = 600): Promise<string[][]> {
  const streams = urls.map(() => new StreamReader());
  await Promise.all(streams.map((stream, i) => stream.open(urls[i] as string)));
  await new Promise((r) => setTimeout(r, 150)); // every stream is subscribed
  await during();
  await new Promise((r) => setTimeout(r, quietMs));
  for (const stream of streams) stream.close();
  await Promise.all(streams.map((stream) => stream.ended));
  return streams.map((stream) => stream.tables);
}

const entityOfTable = (table: string) => {
  const entity = Object.values(entityByName).find((e) => e.table === table);
  if (!entity) throw new Error(`no entity for ${table}`);
  return entity;
};

describe.each(backends)('sub-records carry their organisation on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let service: string;
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });
  const pull = async (who: string, table: string, since?: Pulled['checkpoint']): Promise<Pulled> => {
    const query = since ? `?limit=1000&updatedAt=${encodeURIComponent(since.updatedAt)}&id=${encodeURIComponent(since.id)}` : '?limit=1000';
    return ok(200)(await as(who, 'GET', `/sync/${table}${query}`)).body as Pulled;
  };
  const organisationOf = async (table: string, keyColumn: string, key: string) =>
    (await t.server.db.query<{ organisation: number | null }>(`SELECT "organisation" FROM "${table}" WHERE "${keyColumn}" = $1`, [key]))[0]
      ?.organisation;

  /** A client of `who`'s organisation with skills, a social record, a photo and a referral. */
  async function newClient(who: string, abbr: string): Promise<{ id: string; refId: string }> {
    const client: Body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber(abbr) };
    ok(201)(await as(who, 'POST', '/profile/', client));
    const id = String(client.prof_Id);
    ok(201)(await as(who, 'POST', '/profile/skprofile/', { prof_Id: id, diploma: 'State diploma' }));
    ok(201)(await as(who, 'POST', '/profile/social/', { prof_Id: id, maritalStatus: 'married' }));
    ok(200)(await multipartRequest(t, 'PUT', `/profile/images/${id}`, token[who] as string, { img_for: 'photo' }, { file: PNG_1PX }));
    const refId = uuidv7();
    ok(201)(
      await as(who, 'POST', '/referral/', {
        ref_Id: refId,
        prof_Id: id,
        sp_Detail_Id: service,
        date: new Date().toISOString().slice(0, 10),
        reason: 'Needs training',
      }),
    );
    return { id, refId };
  }

  beforeAll(async () => {
    t = await startWithStaff(
      { backend, roles: 'one' },
      { a3: [3, A], b3: [3, B], c3: [3, C], a5: [5, A], b5: [5, B] },
      { prefix: 'sub' },
      { token },
    );
    ({ service } = await newService(t, token.admin));
  }, 120_000);
  afterAll(() => t?.close());

  it("gives a new sub-record its client's organisation, whatever the device sends, and never shows it", async () => {
    const { id } = await newClient('a3', 'ADC');
    for (const table of ['tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images'])
      expect(await organisationOf(table, 'prof_Id', id)).toBe(A);
    // A device of A naming organisation B in a record: the server's value stands.
    const security = { ...sampleBody(entityByName.security, {}), prof_Id: id, organisation: B };
    const pushed = await as('a3', 'POST', '/sync/push/tbl_profiles_sec', { records: [{ op: 'create', data: security }] });
    // A device naming the column is refused, nothing stored; without it, the server's value.
    const refused = ok(200)(pushed).body.results[0] as Body;
    expect([refused.status, (refused.body as Body).code]).toEqual([400, 'validation.failed']);
    expect(await organisationOf('tbl_profiles_sec', 'prof_Id', id)).toBeUndefined();
    const honest = { ...security, organisation: undefined };
    const stored = ok(200)(await as('a3', 'POST', '/sync/push/tbl_profiles_sec', { records: [{ op: 'create', data: honest }] })).body;
    expect(stored.results.map((r: Body) => r.status)).toEqual([201]);
    expect(await organisationOf('tbl_profiles_sec', 'prof_Id', id)).toBe(A);
    const skills = ok(200)(await as('a3', 'GET', `/profile/skprofile/${id}`)).body as Body;
    expect(skills).not.toHaveProperty('organisation');
    const edit = await as('a3', 'PUT', `/profile/skprofile/${id}`, { diploma: 'Bachelor', organisation: B, updatedAt: skills.updatedAt });
    expect([edit.status, edit.body.code]).toEqual([400, 'validation.failed']);
    expect(await organisationOf('tbl_skills', 'prof_Id', id)).toBe(A);
    // Even SQL setting it by hand cannot make it disagree with the client's.
    await t.server.db.query(`UPDATE "tbl_skills" SET "organisation" = $1 WHERE "prof_Id" = $2`, [B, id]);
    expect(await organisationOf('tbl_skills', 'prof_Id', id)).toBe(A);
    const pulled = await pull('a3', 'tbl_skills');
    expect(pulled.documents.find((d) => d.prof_Id === id)).not.toHaveProperty('organisation');
    expect((await as('b3', 'GET', `/profile/skprofile/${id}`)).status).toBe(404);
  });

  it('moves a client with its records: lists, reads, pulls and change events follow it to the new organisation', async () => {
    const { id, refId } = await newClient('a3', 'ADC');
    // Each device has pulled every table once. Office staff's devices (role 5) mirror their
    // organisation; a field worker's its caseload (docs/adr/0017-caseload.md "The caseload"), which a
    // client moved away leaves as well (test/api/caseload.test.ts).
    const seenBy: Record<string, Record<string, Pulled['checkpoint']>> = { a5: {}, b5: {} };
    for (const who of ['a5', 'b5'])
      for (const table of CLIENT_TABLES) {
        const page = await pull(who, table);
        expect(page.documents.some((d) => d.prof_Id === id)).toBe(who === 'a5');
        (seenBy[who] as Record<string, Pulled['checkpoint']>)[table] = page.checkpoint;
      }
    const auditBefore = (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "audit_log"'))[0]?.n ?? 0;

    const urls = [await t.streamUrl(token.a3 as string), await t.streamUrl(token.b3 as string), await t.streamUrl(token.c3 as string)];
    const [eventsA, eventsB, eventsC] = await eventsDuring(urls, async () => {
      await t.server.db.transaction((tx) => tx.query(`UPDATE "tbl_profiles" SET "location" = $1 WHERE "prof_Id" = $2`, [B, id]));
    });

    // The column followed, in the same transaction.
    for (const table of ['tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images'])
      expect(await organisationOf(table, 'prof_Id', id)).toBe(B);
    expect(await organisationOf('referral', 'ref_Id', refId)).toBe(B);
    // Reads and lists: the new organisation's, no longer the old one's.
    expect((await as('b3', 'GET', `/profile/skprofile/${id}`)).status).toBe(200);
    expect((await as('a3', 'GET', `/profile/skprofile/${id}`)).status).toBe(404);
    const listed = (who: string) =>
      as(who, 'GET', `/referral/?prof_Id=${id}`).then((r) => (ok(200)(r).body as { rows: Body[] }).rows.map((row) => row.ref_Id));
    expect(await listed('b3')).toEqual([refId]);
    expect(await listed('a3')).toEqual([]);
    // Pulls: the old organisation's device is told to drop every row, by key only; the new one's gets them.
    for (const table of CLIENT_TABLES) {
      const forA = await pull('a5', table, seenBy.a5?.[table]);
      const gone = forA.documents.filter((d) => d.prof_Id === id);
      expect(gone.length, table).toBeGreaterThan(0);
      for (const doc of gone) {
        expect(doc._deleted, table).toBe(true);
        expect(Object.keys(doc).sort(), table).toEqual([...entityOfTable(table).keyFields, 'updatedAt', '_deleted'].sort());
      }
      const forB = await pull('b5', table, seenBy.b5?.[table]);
      expect(
        forB.documents.filter((d) => d.prof_Id === id).map((d) => d._deleted),
        table,
      ).toEqual(gone.map(() => false));
      // Once told, the old organisation's device hears no more of it.
      const again = await pull('a5', table, forA.checkpoint);
      expect(
        again.documents.filter((d) => d.prof_Id === id),
        table,
      ).toEqual([]);
    }
    // Change events: both organisations' devices hear of it, a third organisation's does not.
    expect(eventsB).toEqual(expect.arrayContaining(['referral', 'tbl_skills', 'tbl_profiles']));
    expect(eventsA).toEqual(expect.arrayContaining(['referral', 'tbl_skills', 'tbl_profiles']));
    expect(eventsC).not.toContain('referral');
    // The audit history tells the client's move once, and nothing about its records' bookkeeping.
    const entries = await t.server.db.query<{ entity: string; fields: string[] }>(
      'SELECT "entity", "fields" FROM "audit_log" ORDER BY "id" OFFSET $1',
      [auditBefore],
    );
    expect(entries.filter((e) => ['skills', 'social', 'profileImage', 'referral'].includes(e.entity))).toEqual([]);
    expect(entries.filter((e) => e.entity === 'profile')).toEqual([{ entity: 'profile', fields: ['location'] }]);
    expect(entries.flatMap((e) => e.fields)).not.toContain('organisation');
  });

  it('brings the records back to a device of the old organisation when the client comes back', async () => {
    const { id } = await newClient('a3', 'ADC');
    const before = await pull('a3', 'tbl_skills');
    await t.server.db.query(`UPDATE "tbl_profiles" SET "location" = $1 WHERE "prof_Id" = $2`, [B, id]);
    await t.server.db.query(`UPDATE "tbl_profiles" SET "location" = $1 WHERE "prof_Id" = $2`, [A, id]);
    const after = await pull('a3', 'tbl_skills', before.checkpoint);
    expect(after.documents.filter((d) => d.prof_Id === id)).toEqual([
      expect.objectContaining({ diploma: 'State diploma', _deleted: false }),
    ]);
    expect((await as('a3', 'GET', `/profile/skprofile/${id}`)).status).toBe(200);
  });

  it('fills the column of the rows already stored when the migration runs, from the parent chain', async () => {
    const { id, refId } = await newClient('a3', 'ADC');
    const apprenticeship = { ...sampleBody(entityByName.apprenticeship, { service }) };
    ok(201)(await as('admin', 'POST', '/appr/', apprenticeship));
    const apprKey = String(apprenticeship[entityByName.apprenticeship.keyFields[0]]);
    const [provider] = await t.server.db.query<{ location: number | null }>(
      'SELECT p."location" FROM "tbl_serviceprovider" p JOIN "tbl_sp_detail" s ON s."sp_Id" = p."sp_Id" WHERE s."sp_Detail_Id" = $1',
      [service],
    );
    const stamp = async () =>
      (await t.server.db.query<{ at: string }>(`SELECT "updatedAt"::text AS at FROM "tbl_skills" WHERE "prof_Id" = $1`, [id]))[0]?.at;
    const updatedAt = await stamp();
    const auditBefore = (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "audit_log"'))[0]?.n;
    // The database as the migrations before this one left it: no column, no departures.
    const subRecords = [
      'tbl_sp_detail',
      'tbl_apprship',
      'tbl_voc_train',
      'tbl_jobs_other',
      ...SUB_RECORD_TABLES,
      'tbl_profiles_sec',
      'tbl_profiles_bstart',
      'jobreferral',
    ];
    await t.server.db.transaction(async (tx) => {
      for (const table of subRecords) await tx.query(`ALTER TABLE "${table}" DROP COLUMN "organisation" CASCADE`);
      await tx.query('DROP TABLE "sync_departures"');
      await tx.query(`DELETE FROM "schema_migrations" WHERE "id" = '0024-subrecord-organisation'`);
    });
    expect(await migrate(t.server.db)).toEqual(['0024-subrecord-organisation']);
    for (const table of ['tbl_skills', 'tbl_profiles_social', 'tbl_profiles_images'])
      expect(await organisationOf(table, 'prof_Id', id)).toBe(A);
    expect(await organisationOf('referral', 'ref_Id', refId)).toBe(A);
    expect(await organisationOf('tbl_apprship', entityByName.apprenticeship.keyFields[0], apprKey)).toBe(provider?.location ?? null);
    const [unfilled] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "tbl_skills" s JOIN "tbl_profiles" p USING ("prof_Id") WHERE s."organisation" IS DISTINCT FROM p."location"`,
    );
    expect(unfilled?.n).toBe(0);
    // Bookkeeping: no new time (devices hold these rows already) and no audit entry.
    expect(await stamp()).toBe(updatedAt);
    expect((await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "audit_log"'))[0]?.n).toBe(auditBefore);
    // And the triggers work again: a new record takes its client's organisation.
    ok(201)(await as('a3', 'POST', '/profile/Bstart/', { ...sampleBody(entityByName.business, {}), prof_Id: id }));
    expect(await organisationOf('tbl_profiles_bstart', 'prof_Id', id)).toBe(A);
  });
});
