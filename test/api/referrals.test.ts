// Referrals (ADR-0029) over HTTP: a new referral starts 'sent'; statuses only move forward
// (declined / not selected are final) and each move is kept in the history with who and when;
// stale edits get 409 'conflict'; the list views join the client and the service or job, filter
// by status, territory, category, sector, organisation, date and overdue follow-ups; roles 2, 6
// and 7 are refused; another organisation can neither read nor change a referral.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import { entityByName, HISTORY_MAX } from '../../schemas/index';
import { backends } from '../helpers/db';
import { newService, startWithStaff } from '../helpers/api/staff';
import { multipartRequest, PNG_1PX } from '../helpers/records';
import { StreamReader } from '../helpers/sse';
import { type TestServer } from '../helpers/server';

const A = 2; // organisation 'ADC'
const B = 3; // organisation 'CAJ'

/** 'YYYY-MM-DD' `days` from today (UTC, as the server's current_date). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.each(backends)('referrals on %s', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let service: string;
  let job: string;
  const clients: Record<number, string> = {};

  const as = (who: string, method: string, path: string, body?: unknown) => t.api(method, path, { token: token[who], body });

  /** POSTs to `path`, as `who`, a referral of the client of `who`'s organisation: `extra` over `defaults`. */
  async function refer(who: string, path: string, defaults: Record<string, unknown>, extra: Record<string, unknown>) {
    const r = await as(who, 'POST', path, { prof_Id: clients[who.startsWith('b') ? B : A], ...defaults, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  }
  const newReferral = (who = 'a3', extra: Record<string, unknown> = {}) =>
    refer(
      who,
      '/referral/',
      { ref_Id: uuidv7(), sp_Detail_Id: service, date: day(-10), reason: 'Needs legal advice on land', followUpDate: day(5) },
      extra,
    );
  const newJobReferral = (who = 'a3', extra: Record<string, unknown> = {}) =>
    refer(who, '/jobreferral/', { jref_Id: uuidv7(), jb_Id: job, date: day(-3), note: 'Experienced mason' }, extra);

  beforeAll(async () => {
    t = await startWithStaff(
      { backend },
      { a3: [3, A], a4: [4, A], b3: [3, B], a2: [2, A], a6: [6, A], a7: [7, A] },
      { prefix: 'user', fullName: (name) => `Agent ${name.toUpperCase()}` },
      { token },
    );
    ({ service } = await newService(t, token.a3));
    expect((await as('admin', 'POST', '/sverify/', { sp_Detail_Id: service, status: 1 })).status).toBe(200);
    const jb: Record<string, unknown> = { ...sampleBody(entityByName.job, {}), sector: 4 };
    expect((await as('a3', 'POST', '/jobs/', jb)).status).toBe(201);
    job = String(jb.jb_Id);
    for (const [who, org, abbr] of [
      ['a3', A, 'ADC'],
      ['b3', B, 'CAJ'],
    ] as const) {
      const client: Record<string, unknown> = {
        ...sampleBody(entityByName.profile, {}),
        prof_Reg_No: registrationNumber(abbr),
        firstName: `Amani${org}`,
        lastName: 'Kahindo',
        territory: org,
      };
      const r = await as(who, 'POST', '/profile/', client);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      clients[org] = String(client.prof_Id);
    }
  });
  afterAll(() => t?.close());

  it('starts a referral as sent, with the first history entry naming who made it', async () => {
    const ref = await newReferral();
    expect(ref.status).toBe('sent');
    expect(ref.statusDate).toBe(day(-10));
    expect(ref.history).toEqual([expect.objectContaining({ status: 'sent', date: day(-10), byName: 'Agent A3' })]);
    const skipped = await as('a3', 'POST', '/referral/', {
      ...sampleBody(entityByName.referral, { profile: clients[A], service }),
      status: 'completed',
    });
    expect(skipped.status).toBe(400);
    expect(skipped.body.errors[0].field).toBe('status');
  });

  it('moves a service referral forward to completed, keeping who and when, and never back', async () => {
    const ref = await newReferral();
    const accepted = await as('a4', 'PUT', `/referral/${ref.ref_Id}`, {
      status: 'accepted',
      statusDate: day(-8),
      feedback: 'Appointment on Monday',
      updatedAt: ref.updatedAt,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const completed = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, {
      status: 'completed',
      statusDate: day(-1),
      feedback: 'Case settled',
      updatedAt: accepted.body.updatedAt,
    });
    expect(completed.status).toBe(200);
    expect(completed.body.history.map((h: { status: string; byName: string; date: string }) => [h.status, h.byName, h.date])).toEqual([
      ['sent', 'Agent A3', day(-10)],
      ['accepted', 'Agent A4', day(-8)],
      ['completed', 'Agent A3', day(-1)],
    ]);
    expect(completed.body.history[1].feedback).toBe('Appointment on Monday');
    for (const status of ['sent', 'accepted', 'declined']) {
      const back = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status });
      expect(back.status, status).toBe(400);
      expect(back.body.errors[0].field).toBe('status');
    }
    expect((await as('a3', 'GET', `/referral/${ref.ref_Id}`)).body.status).toBe('completed');
  });

  it('makes a decline final', async () => {
    const ref = await newReferral();
    expect((await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status: 'declined', feedback: 'Client moved away' })).status).toBe(200);
    const got = await as('a3', 'GET', `/referral/${ref.ref_Id}`);
    expect(got.body.statusDate).toBe(day(0));
    expect(got.body.history.map((h: { status: string }) => h.status)).toEqual(['sent', 'declined']);
    for (const status of ['accepted', 'completed']) expect((await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status })).status).toBe(400);
    // A note on a final referral is still possible: a follow-up without a new status, in the
    // history with its note and who wrote it. Saving the same note again adds nothing.
    const note = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { feedback: 'Client moved to Bukavu' });
    expect(note.status).toBe(200);
    expect(note.body.status).toBe('declined');
    expect(
      note.body.history.map((h: { status: string; feedback: string | null; byName: string; date: string }) => [
        h.status,
        h.feedback,
        h.byName,
        h.date,
      ]),
    ).toEqual([
      ['sent', null, 'Agent A3', day(-10)],
      ['declined', 'Client moved away', 'Agent A3', day(0)],
      ['declined', 'Client moved to Bukavu', 'Agent A3', day(0)],
    ]);
    const again = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { feedback: 'Client moved to Bukavu', followUpDate: day(3) });
    expect(again.status).toBe(200);
    expect(again.body.history).toHaveLength(3);
  });

  it('keeps every follow-up note in the history, the first entry and the newest past its bound', async () => {
    const ref = await newReferral();
    let updatedAt = ref.updatedAt as string;
    for (let n = 1; n <= HISTORY_MAX + 2; n++) {
      const r = await as('a4', 'PUT', `/referral/${ref.ref_Id}`, { feedback: `Call ${n}: no change`, updatedAt });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      updatedAt = r.body.updatedAt;
    }
    const got = (await as('a3', 'GET', `/referral/${ref.ref_Id}`)).body;
    expect(got.history).toHaveLength(HISTORY_MAX);
    expect(got.history[0]).toEqual(expect.objectContaining({ status: 'sent', byName: 'Agent A3' }));
    expect(got.history.at(-1)).toEqual(
      expect.objectContaining({ status: 'sent', feedback: `Call ${HISTORY_MAX + 2}: no change`, byName: 'Agent A4' }),
    );
    expect(got.history[1].feedback).toBe('Call 4: no change');
  });

  it('moves a job referral to hired, and makes not selected final', async () => {
    const hired = await newJobReferral();
    expect(hired.status).toBe('sent');
    expect(hired.note).toBe('Experienced mason');
    const interviewed = await as('a3', 'PUT', `/jobreferral/${hired.jref_Id}`, { status: 'interviewed', statusDate: day(-2) });
    expect(interviewed.status).toBe(200);
    const done = await as('a4', 'PUT', `/jobreferral/${hired.jref_Id}`, {
      status: 'hired',
      statusDate: day(-1),
      feedback: 'Starts next week',
    });
    expect(done.status).toBe(200);
    expect(done.body.history.map((h: { status: string }) => h.status)).toEqual(['sent', 'interviewed', 'hired']);
    expect((await as('a3', 'PUT', `/jobreferral/${hired.jref_Id}`, { status: 'not_selected' })).status).toBe(400);

    const refused = await newJobReferral();
    expect((await as('a3', 'PUT', `/jobreferral/${refused.jref_Id}`, { status: 'not_selected', feedback: 'No certificate' })).status).toBe(
      200,
    );
    for (const status of ['sent', 'interviewed', 'hired'])
      expect((await as('a3', 'PUT', `/jobreferral/${refused.jref_Id}`, { status })).status).toBe(400);
  });

  it('refuses a status date before the referral date, and a stale edit with 409 conflict', async () => {
    const ref = await newReferral();
    const early = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status: 'accepted', statusDate: day(-20) });
    expect(early.status).toBe(400);
    expect(early.body.errors[0].field).toBe('statusDate');
    const first = await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status: 'accepted', updatedAt: ref.updatedAt });
    expect(first.status).toBe(200);
    const stale = await as('a4', 'PUT', `/referral/${ref.ref_Id}`, { status: 'declined', updatedAt: ref.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('conflict');
    expect(stale.body.server.status).toBe('accepted');
    expect((await as('a3', 'GET', `/referral/${ref.ref_Id}`)).body.history).toHaveLength(2);
  });

  it('lists referrals with their client and service, filtered and flagged overdue', async () => {
    const late = await newReferral('a3', { followUpDate: day(-2), reason: 'Overdue follow-up case' });
    const closed = await newReferral('a3', { followUpDate: day(-2) });
    await as('a3', 'PUT', `/referral/${closed.ref_Id}`, { status: 'declined' });
    const list = await as('a3', 'POST', '/referral/search', { pageSize: 200 });
    expect(list.status).toBe(200);
    const row = list.body.rows.find((r: { ref_Id: string }) => r.ref_Id === late.ref_Id);
    expect(row).toMatchObject({
      clientName: `Amani${A} Kahindo`,
      territory: A,
      location: A,
      serviceName: expect.any(String),
      category: 3,
      overdue: true,
      status: 'sent',
    });
    expect(list.body.rows.find((r: { ref_Id: string }) => r.ref_Id === closed.ref_Id).overdue).toBe(false);
    const overdue = await as('a3', 'POST', '/referral/search', { pageSize: 200, overdue: true });
    expect(overdue.body.rows.map((r: { ref_Id: string }) => r.ref_Id)).toEqual([late.ref_Id]);
    expect((await as('a3', 'POST', '/referral/search', { pageSize: 200, category: 2 })).body.total).toBe(0);
    const declined = (await as('a3', 'POST', '/referral/search', { pageSize: 200, territory: A, status: 'declined' })).body.rows;
    expect(declined.map((r: { ref_Id: string }) => r.ref_Id)).toContain(closed.ref_Id);
    expect(declined.every((r: { status: string; territory: number }) => r.status === 'declined' && r.territory === A)).toBe(true);
    expect((await as('a3', 'POST', '/referral/search', { pageSize: 200, territory: B })).body.total).toBe(0);
    expect((await as('a3', 'POST', '/referral/search', { pageSize: 200, q: 'overdue follow' })).body.total).toBe(1);
    expect((await as('a3', 'POST', '/referral/search', { pageSize: 200, dateFrom: day(1) })).body.total).toBe(0);
    const jobs = await as('a3', 'POST', '/jobreferral/search', { pageSize: 200, sector: 4, sort: 'clientName', dir: 'asc' });
    expect(jobs.status).toBe(200);
    expect(jobs.body.rows[0]).toMatchObject({ jobTitle: expect.any(String), sector: 4, clientName: `Amani${A} Kahindo` });
    expect((await as('a3', 'POST', '/referral/search', { pageSize: 200, sort: 'nope' })).status).toBe(400);
  });

  it('keeps referrals within their organisation: another one can neither read, list, change nor attach', async () => {
    const ref = await newReferral('a3');
    const jref = await newJobReferral('a3');
    expect((await as('b3', 'GET', `/referral/${ref.ref_Id}`)).status).toBe(404);
    expect((await as('b3', 'GET', `/jobreferral/${jref.jref_Id}`)).status).toBe(404);
    expect((await as('b3', 'PUT', `/referral/${ref.ref_Id}`, { status: 'declined' })).status).toBe(404);
    expect((await as('b3', 'PUT', `/jobreferral/${jref.jref_Id}`, { status: 'hired' })).status).toBe(404);
    expect((await multipartRequest(t, 'PUT', `/referral/images/${ref.ref_Id}`, token.b3, {}, { file: PNG_1PX })).status).toBe(404);
    const listed = await as('b3', 'POST', '/referral/search', { pageSize: 200 });
    expect(JSON.stringify(listed.body)).not.toContain(ref.ref_Id);
    expect(JSON.stringify(listed.body)).not.toContain(`Amani${A}`);
    expect(JSON.stringify((await as('b3', 'GET', '/referral?pageSize=200')).body)).not.toContain(ref.ref_Id);
    // Nor refer its own client... to nothing: another organisation's client is a missing parent.
    expect((await as('b3', 'POST', '/referral/', { ...sampleBody(entityByName.referral, { profile: clients[A], service }) })).status).toBe(
      400,
    );
    const unchanged = await as('a3', 'GET', `/referral/${ref.ref_Id}`);
    expect(unchanged.body).toMatchObject({ status: 'sent', attachments: null });
    // Role 1 sees every organisation's.
    expect((await as('admin', 'GET', `/referral/${ref.ref_Id}`)).status).toBe(200);
  });

  it('refuses roles 2, 6 and 7 (403) on every referral call', async () => {
    const ref = await newReferral();
    for (const who of ['a2', 'a6', 'a7']) {
      expect((await as(who, 'GET', '/referral')).status, who).toBe(403);
      expect((await as(who, 'GET', `/referral/${ref.ref_Id}`)).status, who).toBe(403);
      expect((await as(who, 'POST', '/referral/search', {})).status, who).toBe(403);
      expect((await as(who, 'POST', '/jobreferral/search', {})).status, who).toBe(403);
      expect((await as(who, 'PUT', `/referral/${ref.ref_Id}`, { status: 'accepted' })).status, who).toBe(403);
      expect((await as(who, 'POST', '/jobreferral/', sampleBody(entityByName.jobReferral, { profile: clients[A], job }))).status, who).toBe(
        403,
      );
    }
    expect((await as('a3', 'GET', `/referral/${ref.ref_Id}`)).body.status).toBe('sent');
  });

  it('attaches documents that come back byte for byte', async () => {
    const ref = await newReferral();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const put = await multipartRequest(t, 'PUT', `/referral/images/${ref.ref_Id}`, token.a3, {}, { file: PNG_1PX, letter: pdf });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.attachments.map((a: { type: string }) => a.type).sort()).toEqual(['application/pdf', 'image/png']);
    const pdfName = put.body.attachments.find((a: { type: string }) => a.type === 'application/pdf').name;
    const got = await fetch(`${t.url}/api/imgs/getrefimg?id=${ref.ref_Id}&imagename=${encodeURIComponent(pdfName)}`, {
      headers: { authorization: `Bearer ${token.a4}` },
    });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
  });

  it("tells the change stream of a referral change only to users who may read that organisation's referrals", async () => {
    const streams: Record<string, StreamReader> = {};
    for (const who of ['a4', 'b3', 'admin']) {
      streams[who] = new StreamReader();
      await streams[who].open(await t.streamUrl(token[who]));
    }
    try {
      const ref = await newReferral('a3');
      const seen = await streams.a4.next('referral', 0);
      await streams.admin.next('referral', 0);
      // Organisation B's own change reaches B; A's change before it never did.
      await newReferral('b3');
      const own = await streams.b3.next('referral', 0);
      expect(streams.b3.tables.slice(0, own + 1).filter((table) => table === 'referral')).toHaveLength(1);
      await as('a3', 'PUT', `/referral/${ref.ref_Id}`, { status: 'accepted' });
      await streams.a4.next('referral', seen + 1);
      await newJobReferral('a3');
      await streams.a4.next('jobreferral', 0);
      // Another change of B, so that B's stream has had time to receive A's changes if it were told.
      await newJobReferral('b3');
      await streams.b3.next('jobreferral', 0);
      expect(streams.b3.tables.filter((table) => table === 'referral' || table === 'jobreferral')).toEqual(['referral', 'jobreferral']);
    } finally {
      Object.values(streams).forEach((s) => s.close());
    }
  });
});
