// The audit log (ADR-0036) over HTTP against a real database: every write leaves exactly one
// entry per record changed, in its transaction (a refused write leaves none); the database
// refuses to change or delete an entry; a batch with a refused record audits the others only;
// histories and the audit screen answer only what the organisation scope and the role matrix allow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ok, newService, startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { type TestServer } from '../helpers/server';
import { purgeAudit } from '../../server/plugins/audit/retention';

const A = 2; // 'ADC'
const B = 3; // 'CAJ'
type Body = Record<string, unknown>;
interface Entry {
  id: string;
  action: string;
  entity: string | null;
  recordId: string | null;
  clientId: string | null;
  userName: string | null;
  role: number | null;
  location: number | null;
  deviceAt: string | Date | null;
  fields: string[];
  changes: Record<string, { before: unknown; after: unknown }> | null;
  note: string | null;
}

describe.each(backends)('audit log on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });

  /** The entries written after `mark` (the last entry's id when it was taken), oldest first. */
  const entriesAfter = (mark: string) =>
    t.server.db.query<Entry & Body>(
      `SELECT a."id"::text AS id, a."action", a."entity", a."recordId", a."clientId", a."userName", a."role", a."location", a."deviceAt", a."fields",
         coalesce(a."changes", v."changes") AS "changes", coalesce(a."note", v."note") AS "note"
       FROM "audit_log" a LEFT JOIN "audit_values" v ON v."entryId" = a."id" WHERE a."id" > $1::bigint ORDER BY a."id"`,
      [mark],
    );
  const mark = async () =>
    (await t.server.db.query<{ id: string }>('SELECT coalesce(max("id"), 0)::text AS id FROM "audit_log"'))[0]?.id ?? '0';
  /** Runs `write` and answers the entries it left. */
  async function entriesOf(write: () => Promise<unknown>): Promise<Entry[]> {
    const before = await mark();
    await write();
    return entriesAfter(before);
  }
  /** Pushes `jobs` as one batch of creates by a3, checks each record's status, and answers the entries it left. */
  const batchEntries = (jobs: unknown[], statuses: number[]) =>
    entriesOf(async () => {
      const r = ok(200)(
        await as('a3', 'POST', `/sync/push/${entityByName.job.table}`, { records: jobs.map((data) => ({ op: 'create', data })) }),
      );
      expect((r.body as { results: { status: number }[] }).results.map((x) => x.status)).toEqual(statuses);
    });

  beforeAll(async () => {
    // Two roles on PostgreSQL: the app's owns nothing (README "Running against PostgreSQL").
    t = await startWithStaff(
      { backend, roles: 'two' },
      { a3: [3, A], a4: [4, A], a7: [7, A], b3: [3, B], b7: [7, B], a2: [2, A] },
      { prefix: 'audit', fullName: (name) => `Agent ${name}` },
      { token, id: ids },
    );
    ({ provider: ids.provider, service: ids.service } = await newService(t, token.a3));
    for (const [who, abbr] of [
      ['a3', 'ADC'],
      ['b3', 'CAJ'],
    ] as const) {
      const client: Body = {
        ...sampleBody(entityByName.profile, {}),
        prof_Reg_No: registrationNumber(abbr),
        firstName: 'Amani',
        lastName: `Kahindo${who}`,
        phone: '+243811223344',
      };
      ok(201)(await as(who, 'POST', '/profile/', client));
      ids[`client-${who}`] = String(client.prof_Id);
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('records a create with who, role, organisation and the fields given, and an update with each field before and after', async () => {
    const provider = sampleBody(entityByName.serviceProvider, {});
    const created = await entriesOf(async () => ok(201)(await as('a3', 'POST', '/sproviers/', provider)));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      action: 'create',
      entity: 'serviceProvider',
      recordId: provider.sp_Id,
      userName: 'audit-a3',
      role: 3,
      location: A,
    });
    expect(created[0]?.fields).toContain('sp_Name');
    expect(created[0]?.fields).not.toContain('updatedAt');
    const row = (await as('a3', 'GET', `/sproviers/${provider.sp_Id}`)).body;
    const updated = await entriesOf(async () =>
      ok(200)(await as('a3', 'PUT', `/sproviers/${provider.sp_Id}`, { sp_Name: 'Renamed provider', updatedAt: row.updatedAt })),
    );
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      action: 'update',
      fields: ['sp_Name'],
      changes: { sp_Name: { before: provider.sp_Name, after: 'Renamed provider' } },
    });
  });

  it('records a delete with its reason, verification and rejection, and a referral status move', async () => {
    const provider = sampleBody(entityByName.serviceProvider, {});
    ok(201)(await as('a3', 'POST', '/sproviers/', provider));
    const deleted = await entriesOf(async () =>
      ok(200)(await as('a3', 'POST', `/sproviers/delete/${provider.sp_Id}`, { reason: 'Closed for good', password: 'password-a3' })),
    );
    expect(deleted.map((e) => [e.action, e.entity, e.note])).toEqual([['delete', 'serviceProvider', 'Closed for good']]);

    const service: Body = { ...sampleBody(entityByName.service, { serviceProvider: ids.provider }), category: 3, serviceType: 1 };
    ok(201)(await as('a3', 'POST', '/spDetail/', service));
    const verified = await entriesOf(async () =>
      ok(200)(await as('a4', 'POST', '/sverify/', { sp_Detail_Id: service.sp_Detail_Id, status: 2, comment: 'Wrong address' })),
    );
    expect(verified.map((e) => [e.action, e.userName, e.note])).toEqual([['reject', 'audit-a4', 'Wrong address']]);

    ok(200)(await as('admin', 'POST', '/sverify/', { sp_Detail_Id: ids.service, status: 1 }));
    const referral = {
      ref_Id: uuidv7(),
      prof_Id: ids['client-a3'],
      sp_Detail_Id: ids.service,
      date: new Date().toISOString().slice(0, 10),
      reason: 'Needs legal advice',
    };
    const made = await entriesOf(async () => ok(201)(await as('a3', 'POST', '/referral/', referral)));
    expect(made.map((e) => [e.action, e.entity, e.clientId])).toEqual([['create', 'referral', ids['client-a3']]]);
    const current = (await as('a3', 'GET', `/referral/${referral.ref_Id}`)).body;
    const moved = await entriesOf(async () =>
      ok(200)(await as('a3', 'PUT', `/referral/${referral.ref_Id}`, { status: 'accepted', updatedAt: current.updatedAt })),
    );
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ action: 'status', note: 'sent → accepted' });
    expect(moved[0]?.changes?.status).toEqual({ before: 'sent', after: 'accepted' });
  });

  it('records a client sub-record, a photo added, downloaded and removed, by name only, never the bytes', async () => {
    const client = ids['client-a3'] as string;
    const skills = await entriesOf(async () =>
      ok(201)(await as('a3', 'POST', '/profile/skprofile/', { prof_Id: client, diploma: 'State diploma' })),
    );
    expect(skills.map((e) => [e.action, e.entity, e.clientId, e.fields])).toEqual([['create', 'skills', client, ['diploma', 'prof_Id']]]);
    const added = await entriesOf(async () =>
      ok(200)(await multipartRequest(t, 'PUT', `/profile/images/${client}`, token.a3 as string, { img_for: 'photo' }, { file: PNG_1PX })),
    );
    expect(added.map((e) => [e.action, e.entity, e.recordId])).toEqual([['image.add', 'profileImage', `${client}|photo`]]);
    const fetched = await entriesOf(async () => {
      const response = await fetch(`${t.url}/api/imgs/getfile?id=${client}&filename=photo`, {
        headers: { authorization: `Bearer ${token.a4}` },
      });
      expect(response.status).toBe(200);
    });
    expect(fetched.map((e) => [e.action, e.userName, e.clientId, e.location])).toEqual([['file.download', 'audit-a4', client, A]]);
    const removed = await entriesOf(async () => ok(200)(await as('a3', 'POST', `/profile/images/delete/${client}`, { img_for: 'photo' })));
    expect(removed.map((e) => e.action)).toEqual(['image.remove']);
    const stored = await t.server.db.query<{ text: string }>(
      `SELECT a::text || coalesce(v::text, '') AS text FROM "audit_log" a LEFT JOIN "audit_values" v ON v."entryId" = a."id"`,
    );
    expect(stored.some((r) => r.text.includes('89504e47') || r.text.includes('iVBOR'))).toBe(false); // no PNG bytes, in hex or base64
  });

  it('records a service photo added and removed as such, by name', async () => {
    const added = await entriesOf(async () =>
      ok(200)(await multipartRequest(t, 'PUT', `/spDetail/${ids.service}`, token.a3 as string, {}, { sp_img1: PNG_1PX })),
    );
    expect(added.map((e) => [e.action, e.entity, e.fields])).toEqual([['image.add', 'service', ['sp_img1']]]);
    const name = (added[0]?.changes?.sp_img1 as { after: string }).after;
    expect(name).toMatch(/^sp_img1-/);
    const removed = await entriesOf(async () =>
      ok(200)(await multipartRequest(t, 'PUT', `/spDetail/${ids.service}`, token.a3 as string, { removeImages: 'sp_img1' }, {})),
    );
    expect(removed.map((e) => [e.action, e.changes?.sp_img1])).toEqual([['image.remove', { before: name, after: null }]]);
  });

  it('records accounts: sign-in, a failed one, sign-out, creation, change, reset, password change, deactivation and reactivation', async () => {
    const signIn = await entriesOf(() => t.login('audit-a4', 'password-a4'));
    expect(signIn.map((e) => [e.action, e.userName, e.recordId])).toEqual([['signin', 'audit-a4', ids.a4]]);
    const failed = await entriesOf(async () =>
      ok(401)(await t.api('POST', '/login', { body: { userName: 'audit-a4', password: 'wrong password' } })),
    );
    expect(failed.map((e) => [e.action, e.userName, e.recordId, e.location])).toEqual([['signin.failed', 'audit-a4', ids.a4, A]]);
    const unknown = await entriesOf(async () =>
      ok(401)(await t.api('POST', '/login', { body: { userName: 'nobody-here', password: 'wrong password' } })),
    );
    expect(unknown.map((e) => [e.action, e.userName, e.recordId])).toEqual([['signin.failed', 'unknown', null]]);
    const session = await t.login('audit-a4', 'password-a4');
    const out = await entriesOf(async () => ok(204)(await t.api('POST', '/logout', { token: session })));
    expect(out.map((e) => [e.action, e.recordId])).toEqual([['signout', ids.a4]]);

    const made = await entriesOf(() => t.createUser({ userName: 'audit-new', password: 'password-new-1', role: 4, location: A }));
    expect(made.map((e) => [e.action, e.entity, e.fields.includes('passwordHash')])).toEqual([['user.create', 'user', true]]);
    const newId = String(made[0]?.recordId);
    const row = (await as('a7', 'GET', `/users/${newId}`)).body;
    const changed = await entriesOf(async () =>
      ok(200)(await as('a7', 'PUT', `/users/staff/${newId}`, { fullName: 'New Name', updatedAt: row.updatedAt })),
    );
    expect(changed.map((e) => [e.action, e.userName, e.fields])).toEqual([['user.update', 'audit-a7', ['fullName']]]);
    const reset = await entriesOf(async () => ok(200)(await as('a7', 'PUT', `/users/staff/${newId}`, { password: 'temporary-pass-9' })));
    expect(reset.map((e) => e.action)).toEqual(['password.reset']);
    expect(JSON.stringify(reset)).not.toMatch(/\$argon|\$2[aby]\$|scrypt/); // no password hash in the log
    expect(reset[0]?.changes?.passwordHash).toBeUndefined();
    const own = await t.login('audit-new', 'temporary-pass-9');
    const changedOwn = await entriesOf(async () =>
      ok(200)(
        await t.api('POST', '/users/changepass', {
          token: own,
          body: { oldPassword: 'temporary-pass-9', newPassword: 'my-own-password-7' },
        }),
      ),
    );
    expect(changedOwn.map((e) => [e.action, e.userName])).toEqual([['password.change', 'audit-new']]);
    const off = await entriesOf(async () => ok(200)(await as('a7', 'PUT', `/users/staff/${newId}`, { active: false })));
    expect(off.map((e) => e.action)).toEqual(['user.deactivate']);
    const on = await entriesOf(async () => ok(200)(await as('a7', 'PUT', `/users/staff/${newId}`, { active: true })));
    expect(on.map((e) => e.action)).toEqual(['user.reactivate']);
  });

  it('records a lookup list change', async () => {
    const lists = (await as('admin', 'GET', '/lists')).body as { id: string; key: string }[];
    const territory = lists.find((l) => l.key === 'territory');
    const added = await entriesOf(async () =>
      ok(201)(await as('admin', 'POST', `/lists/${territory?.id}`, { fr: 'Nouveau', en: 'New one' })),
    );
    expect(added.map((e) => [e.action, e.entity, e.fields])).toEqual([['list.change', 'list', ['items']]]);
  });

  it('leaves no entry for a refused or failed write', async () => {
    const provider = sampleBody(entityByName.serviceProvider, {});
    const refused = await entriesOf(async () => {
      ok(400)(await as('a3', 'POST', '/sproviers/', { ...provider, sp_Name: '' })); // invalid
      ok(403)(await as('a2', 'POST', '/sproviers/', provider)); // the role may not
      ok(404)(await as('b3', 'PUT', `/sproviers/${ids.provider}`, { sp_Name: 'Not mine' })); // another organisation's
      ok(400)(await as('a3', 'POST', `/sproviers/delete/${ids.provider}`, { reason: 'No reason', password: 'wrong password' }));
      ok(409)(await as('a3', 'PUT', `/sproviers/${ids.provider}`, { sp_Name: 'Stale', updatedAt: '2020-01-01T00:00:00.000Z' }));
      ok(409)(
        await as('a3', 'POST', '/profile/', {
          ...sampleBody(entityByName.profile, {}),
          prof_Id: ids['client-a3'],
          prof_Reg_No: registrationNumber('ADC'),
        }),
      );
    });
    expect(refused).toEqual([]);
  });

  it('audits a batch record by record: a refused record leaves no entry, the others one each with the device time', async () => {
    const good = [sampleBody(entityByName.job, {}), sampleBody(entityByName.job, {})];
    const bad = { ...sampleBody(entityByName.job, {}), title: '' };
    const entries = await batchEntries([good[0], bad, good[1]], [201, 400, 201]);
    expect(entries.map((e) => [e.action, e.recordId])).toEqual(good.map((g) => ['create', g.jb_Id]));
    for (const [i, entry] of entries.entries()) {
      // The key was made on the device: its UUIDv7 time is the device's time of the record.
      const made = parseInt(String(good[i]?.jb_Id).replaceAll('-', '').slice(0, 12), 16);
      expect(new Date(entry.deviceAt as string).getTime()).toBe(made);
    }
  });

  it('audits a batch whose record fails in the database (a key already stored) for the others only, each once', async () => {
    const stored = sampleBody(entityByName.job, {});
    ok(200)(await as('a3', 'POST', `/sync/push/${entityByName.job.table}`, { records: [{ op: 'create', data: stored }] }));
    const fresh = [sampleBody(entityByName.job, {}), sampleBody(entityByName.job, {})];
    const entries = await batchEntries([fresh[0], stored, fresh[1]], [201, 409, 201]);
    expect(entries.map((e) => [e.action, e.recordId])).toEqual(fresh.map((g) => ['create', g.jb_Id]));
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the log, and any change of a client value outside an erasure', async () => {
    // With two roles the app's role has no such privilege; with one, the guards refuse.
    const refused = backend === 'postgres' ? /permission denied/ : /append-only/;
    const [entry] = await t.server.db.query<{ id: string }>('SELECT "id"::text AS id FROM "audit_log" ORDER BY "id" LIMIT 1');
    await expect(t.server.db.query('UPDATE "audit_log" SET "userName" = $2 WHERE "id" = $1', [entry?.id, 'someone else'])).rejects.toThrow(
      refused,
    );
    await expect(t.server.db.query('DELETE FROM "audit_log" WHERE "id" = $1', [entry?.id])).rejects.toThrow(refused);
    await expect(t.server.db.query('TRUNCATE "audit_log" CASCADE')).rejects.toThrow(refused);
    const [value] = await t.server.db.query<{ entryId: string }>('SELECT "entryId"::text AS "entryId" FROM "audit_values" LIMIT 1');
    expect(value).toBeDefined();
    await expect(t.server.db.query('UPDATE "audit_values" SET "note" = $2 WHERE "entryId" = $1', [value?.entryId, 'x'])).rejects.toThrow(
      refused,
    );
    await expect(t.server.db.query('DELETE FROM "audit_values" WHERE "entryId" = $1', [value?.entryId])).rejects.toThrow(refused);
    expect(
      (await t.server.db.query('SELECT 1 FROM "audit_log" WHERE "id" = $1 AND "userName" <> $2', [entry?.id, 'someone else'])).length,
    ).toBe(1);
  });

  it('keeps entries forever unless a retention is set, then lets go of the older ones only', async () => {
    const old = await t.server.db.query<{ id: string }>(
      `INSERT INTO "audit_log" ("at", "userName", "action", "entity", "recordId", "clientId") VALUES (now() - interval '40 days', 'old', 'update', 'profile', 'x', 'old-client') RETURNING "id"::text AS id`,
    );
    await t.server.db.query('INSERT INTO "audit_values" ("entryId", "clientId", "note") VALUES ($1, $2, $3)', [
      old[0]?.id,
      'old-client',
      'old value',
    ]);
    const total = async () => (await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "audit_log"'))[0]?.n ?? 0;
    const before = await total();
    expect(await purgeAudit(t.server.db)).toBe(0); // the default: forever
    // The retention is the owner's to write (at start, from AUDIT_RETENTION_DAYS).
    await t.asOwner(`INSERT INTO "audit_settings" ("key", "value") VALUES ('retentionDays', '30')`);
    expect(await purgeAudit(t.server.db)).toBe(1);
    expect(await total()).toBe(before - 1);
    expect(await t.server.db.query('SELECT 1 FROM "audit_values" WHERE "clientId" = $1', ['old-client'])).toEqual([]);
    // Even with a retention named, a recent entry cannot be deleted.
    await expect(
      t.server.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('icrs.retention_days', '30', true)");
        await tx.query('DELETE FROM "audit_log" WHERE "at" > now() - interval \'1 day\'');
      }),
    ).rejects.toThrow(/append-only|permission denied/);
    await t.asOwner(`DELETE FROM "audit_settings" WHERE "key" = 'retentionDays'`);
  });

  it('shows a record history, newest first, to those who may read the record, and to no one else', async () => {
    const client = ids['client-a3'] as string;
    const history = ok(200)(await as('a4', 'GET', `/history/profile/${client}?pageSize=50`)).body as { rows: Entry[]; total: number };
    expect(history.total).toBeGreaterThanOrEqual(5);
    expect(history.rows.map((e) => e.entity)).toEqual(expect.arrayContaining(['profile', 'skills', 'profileImage', 'referral']));
    const order = history.rows.map((e) => Number(e.id));
    expect(order).toEqual([...order].sort((x, y) => y - x));
    expect(history.rows.every((e) => e.clientId === client || e.recordId === client)).toBe(true);
    ok(404)(await as('b3', 'GET', `/history/profile/${client}`)); // another organisation's client
    ok(403)(await as('a7', 'GET', `/history/profile/${client}`)); // role 7 reads no client page
    ok(403)(await as('a2', 'GET', `/history/serviceProvider/${ids.provider}`)); // role 2 reads no providers
    ok(200)(await as('b3', 'GET', `/history/serviceProvider/${ids.provider}`)); // every organisation reads providers
    ok(200)(await as('a4', 'GET', `/history/user/${ids.a4}`)); // one's own account
    ok(403)(await as('a4', 'GET', `/history/user/${ids.a3}`)); // no user management
    ok(200)(await as('a7', 'GET', `/history/user/${ids.a3}`));
    ok(404)(await as('b7', 'GET', `/history/user/${ids.a3}`));
    ok(404)(await as('a3', 'GET', '/history/nothing/x'));
  });

  it('shows the audit screen to role 1 (everything) and role 7 (its organisation), filtered, paged, and exported as CSV (audited)', async () => {
    ok(403)(await as('a3', 'GET', '/audit'));
    ok(403)(await as('a2', 'GET', '/audit'));
    const all = ok(200)(await as('admin', 'GET', '/audit?pageSize=200')).body as { rows: Entry[]; total: number };
    expect(all.rows.some((e) => e.location === B)).toBe(true);
    const mine = ok(200)(await as('a7', 'GET', '/audit?pageSize=200')).body as { rows: Entry[]; total: number };
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.rows.every((e) => e.location === A)).toBe(true);
    const theirs = ok(200)(await as('a7', 'GET', `/audit?location=${B}`)).body as { total: number };
    expect(theirs.total).toBe(0);
    const filtered = ok(200)(await as('admin', 'GET', `/audit?action=status&entity=referral&userId=${ids.a3}`)).body as {
      rows: Entry[];
      total: number;
    };
    expect(filtered.total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const paged = ok(200)(await as('admin', 'GET', `/audit?page=2&pageSize=5&dateFrom=${today}&dateTo=${today}`)).body as {
      rows: Entry[];
      total: number;
      page: number;
    };
    expect(paged).toMatchObject({ page: 2 });
    expect(paged.rows).toHaveLength(5);
    ok(400)(await as('admin', 'GET', '/audit?action=nonsense'));
    const exported = await entriesOf(async () => {
      const response = await fetch(`${t.url}/api/audit/csv?entity=referral`, { headers: { authorization: `Bearer ${token.a7}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/csv/);
      const lines = (await response.text()).trim().split('\r\n');
      expect(lines[0]).toContain('action');
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.slice(1).every((line) => line.includes('"referral"'))).toBe(true);
    });
    expect(exported.map((e) => [e.action, e.userName, e.location])).toEqual([['export', 'audit-a7', A]]);
  });
});
