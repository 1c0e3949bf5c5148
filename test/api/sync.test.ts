// The pull feed (GET /api/sync/{table}) and the change stream (GET /api/sync/stream).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { service, serviceProvider } from '../../schemas/index';
import { backends } from '../helpers/db';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

interface Pulled {
  documents: Record<string, unknown>[];
  checkpoint: { updatedAt: string; id: string } | null;
}

/** Reads server-sent events from a fetch body until `count` change events arrived or time ran out. */
async function readEvents(url: string, count: number, whileOpen: () => Promise<void>, timeoutMs = 5000): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const tables: string[] = [];
  let buffer = '';
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const reading = (async () => {
    try {
      while (tables.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += new TextDecoder().decode(value);
        for (const match of buffer.matchAll(/event: change\ndata: (.+)\n\n/g)) tables.push(JSON.parse(match[1]).table);
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
      }
    } catch {
      /* aborted: time is up */
    }
  })();
  await new Promise((r) => setTimeout(r, 100)); // the stream is subscribed
  await whileOpen();
  await reading;
  clearTimeout(timer);
  controller.abort();
  return tables;
}

describe.each(backends)('sync on %s', (backend) => {
  let t: TestServer;
  const tokens: Record<string, string> = {};
  const pull = async (table: string, token: string, query = '') =>
    (await t.api('GET', `/sync/${table}${query}`, { token })) as { status: number; body: Pulled };
  const newProvider = async (token: string, extra: Record<string, unknown> = {}) => {
    const body = { ...sampleBody(serviceProvider), ...extra };
    const r = await t.api('POST', '/sproviers/', { token, body });
    expect(r.status).toBe(201);
    return body.sp_Id as string;
  };

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await ensureOrganisations(t.server.db);
    tokens.admin = await t.login(t.admin.userName, t.admin.password);
    for (const [name, role, location] of [
      ['org1', 3, 1],
      ['org2', 3, 2],
      ['reports', 2, 1],
    ] as const) {
      await t.createUser({ userName: name, password: `password-${name}`, role, location });
      tokens[name] = await t.login(name, `password-${name}`);
    }
  });
  afterAll(() => t?.close());

  it('pages through changes in (updatedAt, key) order without skipping or repeating', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await newProvider(tokens.admin, { sp_Name: `Paged ${i}` }));
    const seen: string[] = [];
    let query = '?limit=2';
    for (let round = 0; round < 20; round++) {
      const { status, body } = await pull('tbl_serviceprovider', tokens.admin, query);
      expect(status).toBe(200);
      if (!body.documents.length) break;
      expect(body.documents.length).toBeLessThanOrEqual(2);
      seen.push(...body.documents.map((d) => d.sp_Id as string));
      query = `?limit=2&updatedAt=${encodeURIComponent(body.checkpoint!.updatedAt)}&id=${body.checkpoint!.id}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(created));
  });

  it('sends a soft-deleted row again, marked _deleted', async () => {
    const id = await newProvider(tokens.admin);
    const before = (await pull('tbl_serviceprovider', tokens.admin)).body.checkpoint!;
    await t.api('POST', `/sproviers/delete/${id}`, { token: tokens.admin, body: { reason: 'Closed', password: t.admin.password } });
    const after = await pull('tbl_serviceprovider', tokens.admin, `?updatedAt=${encodeURIComponent(before.updatedAt)}&id=${before.id}`);
    expect(after.body.documents).toContainEqual(expect.objectContaining({ sp_Id: id, _deleted: true }));
  });

  it("mirrors only the user's organisation, children through their parent", async () => {
    const mine = await newProvider(tokens.org1);
    const theirs = await newProvider(tokens.org2);
    const svc = { ...sampleBody(service, { serviceProvider: theirs }) };
    expect((await t.api('POST', '/spDetail/', { token: tokens.org2, body: svc })).status).toBe(201);
    const org1 = (await pull('tbl_serviceprovider', tokens.org1, '?limit=1000')).body.documents.map((d) => d.sp_Id);
    expect(org1).toContain(mine);
    expect(org1).not.toContain(theirs);
    const org1Services = (await pull('tbl_sp_detail', tokens.org1, '?limit=1000')).body.documents.map((d) => d.sp_Detail_Id);
    expect(org1Services).not.toContain(svc.sp_Detail_Id);
    const org2Services = (await pull('tbl_sp_detail', tokens.org2, '?limit=1000')).body.documents.map((d) => d.sp_Detail_Id);
    expect(org2Services).toContain(svc.sp_Detail_Id);
    const admin = (await pull('tbl_serviceprovider', tokens.admin, '?limit=1000')).body.documents.map((d) => d.sp_Id);
    expect(admin).toEqual(expect.arrayContaining([mine, theirs]));
  });

  it('refuses tables the role may not read, and tables that are not mirrored', async () => {
    expect((await pull('tbl_serviceprovider', tokens.reports)).status).toBe(403);
    expect((await pull('users', tokens.admin)).status).toBe(404);
    expect((await pull('no_such_table', tokens.admin)).status).toBe(404);
    expect((await t.api('GET', '/sync/tbl_serviceprovider')).status).toBe(401);
    expect((await pull('tbl_serviceprovider', tokens.admin, '?limit=5000')).status).toBe(400);
  });

  it('answers named keys whatever their time, in the same scope, deleted rows marked', async () => {
    const mine = await newProvider(tokens.org1);
    const gone = await newProvider(tokens.org1);
    const theirs = await newProvider(tokens.org2);
    await t.api('POST', `/sproviers/delete/${gone}`, { token: tokens.org1, body: { reason: 'Closed', password: 'password-org1' } });
    const byKeys = async (token: string, keys: unknown) =>
      (await t.api('POST', '/sync/tbl_serviceprovider/keys', { token, body: { keys } })) as {
        status: number;
        body: { documents: Record<string, unknown>[] };
      };
    const answer = await byKeys(tokens.org1, [mine, gone, theirs, 'no-such-key']);
    expect(answer.status).toBe(200);
    const rows = new Map(answer.body.documents.map((d) => [d.sp_Id, d]));
    // A field worker's device holds a directory by members (docs/offline-contract.md "The
    // caseload"): a deleted provider has left it, so its key is missing, which the device reads
    // as "gone from my scope" and drops, as it would a row marked deleted.
    expect([...rows.keys()]).toEqual([mine]);
    expect(rows.get(mine)).toMatchObject({ _deleted: false });
    // A device mirroring by window (here the administrator's) gets the deleted row, marked.
    const windowed = await byKeys(tokens.admin, [mine, gone, 'no-such-key']);
    const windowRows = new Map(windowed.body.documents.map((d) => [d.sp_Id, d]));
    expect([...windowRows.keys()].sort()).toEqual([mine, gone].sort());
    expect(windowRows.get(gone)).toMatchObject({ _deleted: true });
    // The same columns as the feed.
    const fed = (await pull('tbl_serviceprovider', tokens.org1, '?limit=1000')).body.documents.find((d) => d.sp_Id === mine);
    expect(rows.get(mine)).toEqual(fed);
    expect((await byKeys(tokens.reports, [mine])).status).toBe(403);
    expect((await byKeys(tokens.org1, [])).status).toBe(400);
    expect((await byKeys(tokens.org1, [{ key: 1 }])).status).toBe(400);
    expect((await t.api('POST', '/sync/users/keys', { token: tokens.admin, body: { keys: ['1'] } })).status).toBe(404);
  });

  it('bounds the first pull to the newest SYNC_WINDOW rows', async () => {
    await t.server.db.query(
      `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "territory", "createdAt", "updatedAt")
       SELECT '01900000-0000-7000-8000-' || lpad(n::text, 12, '0'), 'Bulk ' || n, 1, 1,
              now() - interval '1 day' + n * interval '1 millisecond', now() - interval '1 day' + n * interval '1 millisecond'
       FROM generate_series(1, 5100) AS n`,
    );
    let total = 0;
    let query = '?limit=1000';
    for (let round = 0; round < 20; round++) {
      const { body } = await pull('tbl_serviceprovider', tokens.admin, query);
      if (!body.documents.length) break;
      total += body.documents.length;
      query = `?limit=1000&updatedAt=${encodeURIComponent(body.checkpoint!.updatedAt)}&id=${body.checkpoint!.id}`;
    }
    expect(total).toBe(5000);
  });

  it('tells open streams which table changed, only for tables the role may read', async () => {
    const events = await readEvents(await t.streamUrl(tokens.org1), 1, async () => {
      await newProvider(tokens.org1);
    });
    expect(events).toContain('tbl_serviceprovider');
    const none = await readEvents(
      await t.streamUrl(tokens.reports),
      1,
      async () => {
        await newProvider(tokens.org1);
      },
      1500,
    );
    expect(none).toEqual([]);
  });

  it('refuses a stream without a valid ticket, and never takes the session token', async () => {
    expect((await fetch(`${t.url}/api/sync/stream`)).status).toBe(401);
    const withToken = await fetch(`${t.url}/api/sync/stream?token=${tokens.org1}`, { headers: { 'accept-language': 'en' } });
    expect(withToken.status).toBe(400); // not a parameter of the stream
    const expired = await t.server.tokens.sign({ sub: 'x', role: 1, ver: 0, sid: 'old' }, -10);
    const ticket = await t.api('POST', '/sync/ticket', { token: expired });
    expect([ticket.status, ticket.body.message]).toEqual([401, 'jwt expired']);
    const unknown = await fetch(`${t.url}/api/sync/stream?ticket=not-a-ticket`, { headers: { 'accept-language': 'en' } });
    expect([unknown.status, (await unknown.json()).code]).toEqual([401, 'auth.badTicket']);
  });

  it.runIf(backend === 'postgres')('holds back rows that a still-running earlier transaction could overtake', async () => {
    const since = (await pull('tbl_serviceprovider', tokens.admin, '?limit=1000')).body;
    let checkpoint = since.checkpoint!;
    while (true) {
      // move to the end of the feed
      const next = await pull(
        'tbl_serviceprovider',
        tokens.admin,
        `?limit=1000&updatedAt=${encodeURIComponent(checkpoint.updatedAt)}&id=${checkpoint.id}`,
      );
      if (!next.body.documents.length) break;
      checkpoint = next.body.checkpoint!;
    }
    const slow = new pg.Client({ connectionString: t.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(
        `INSERT INTO "tbl_serviceprovider" ("sp_Id", "sp_Name", "sp_type", "territory", "createdAt", "updatedAt")
         VALUES ('01900000-0000-7000-8000-00000000aaaa', 'Slow', 1, 1, date_trunc('milliseconds', now()), date_trunc('milliseconds', now()))`,
      );
      await new Promise((r) => setTimeout(r, 20));
      const fast = await newProvider(tokens.admin, { sp_Name: 'Fast' });
      const q = `?limit=1000&updatedAt=${encodeURIComponent(checkpoint.updatedAt)}&id=${checkpoint.id}`;
      const during = await pull('tbl_serviceprovider', tokens.admin, q);
      expect(during.body.documents.map((d) => d.sp_Id)).not.toContain(fast);
      await slow.query('COMMIT');
      const after = await pull('tbl_serviceprovider', tokens.admin, q);
      expect(after.body.documents.map((d) => d.sp_Name)).toEqual(['Slow', 'Fast']);
    } finally {
      await slow.end();
    }
  });
});
