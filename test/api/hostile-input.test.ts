// ADR-0010: hostile input never gets a 500, and a refused request changes nothing.
// Property-based (fast-check): for every entity declared in schemas/, its POST, PUT, list,
// search and by-id routes get values generated from the field declarations just outside what
// they allow; users, lists, login and stats get the same; multipart routes get broken bodies;
// every route with a body gets other content types. After each request: no 5xx, and when it
// was refused, a checksum of every table (images included) is what it was before.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { writableFields } from '../../schemas/define';
import { listQuerySchema } from '../../schemas/derive/json-schema';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { MAX_IMAGE_BYTES, list as listEntity, serverEntities, user } from '../../schemas/index';
import { hasGenericRoutes } from '../../server/plugins/records/index';
import { backends } from '../helpers/db';
import {
  brokenMultipart,
  controlText,
  hostileQueryName,
  hostileQueryValue,
  hostileValue,
  otherContentTypes,
  wrongType,
  type RawRequest,
} from '../helpers/hostile';
import { ensureOrganisations, PNG_1PX } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

/** The entities the generic routes serve (the server's own list of the others, imported, not copied). */
const GENERIC = serverEntities.filter(hasGenericRoutes);
/** Runs per property: enough to meet every field kind, bounded so the file stays < 90 s per backend. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 8);

interface Outcome {
  request: string;
  status: number;
  problem: string;
}

describe.each(backends)('hostile input on %s', (backend) => {
  let t: TestServer;
  let writer: string; // role 3 of organisation 1: writes records
  let admin: string;
  let victimId: string; // a user the user-route properties edit (never the admin they act as)
  const refs: Record<string, string> = {};
  const existing: Record<string, string> = {};
  let baseline = '';
  const totals = { requests: 0, fiveXX: 0, changed: 0 };

  const tables = [...serverEntities.map((e) => e.table), 'images'];
  /** One digest of every row of every table: equal digests mean nothing changed. */
  async function checksum(): Promise<string> {
    const digests = tables.map((table) => `(SELECT md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) FROM "${table}" t)`);
    const [row] = await t.server.db.query<{ d: string }>(`SELECT concat_ws(',', ${digests.join(', ')}) AS d`);
    return row.d;
  }

  /** Sends one request; notes a 5xx, or a refusal that changed the database. */
  async function probe(failures: Outcome[], method: string, path: string, options: { token?: string; json?: unknown; raw?: RawRequest }) {
    const headers: Record<string, string> = { 'accept-language': 'fr' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: Blob | undefined;
    if (options.raw) {
      if (options.raw.contentType !== undefined) headers['content-type'] = options.raw.contentType;
      body = new Blob([new Uint8Array(options.raw.body)]);
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = new Blob([JSON.stringify(options.json)]);
    }
    const label = `${method} ${path} ${options.raw ? options.raw.name : (JSON.stringify(options.json)?.slice(0, 200) ?? '')}`;
    let status = 0;
    let text = '';
    try {
      const response = await fetch(`${t.url}/api${path}`, { method, headers, body });
      status = response.status;
      text = await response.text();
    } catch {
      // status stays 0: the server closed the connection after refusing an oversize body
    }
    totals.requests++;
    if (status >= 500) {
      totals.fiveXX++;
      failures.push({ request: label, status, problem: `answered ${status}: ${text.slice(0, 200)}` });
    }
    const now = await checksum();
    const refused = status === 0 || status >= 400;
    if (refused && now !== baseline) {
      totals.changed++;
      failures.push({ request: label, status, problem: 'refused but the database changed' });
    }
    if (status >= 400 && status < 500 && !/^\{/.test(text))
      failures.push({ request: label, status, problem: `no JSON message: ${text.slice(0, 100)}` });
    baseline = now;
    return status;
  }

  const bodyFor = (e: EntityShape) => {
    const parents = e.routes.upsert ? { ...refs, profile: existing.profile ?? refs.profile } : refs;
    const body = sampleBody(e, parents);
    if (e.name === 'profile') body.prof_Reg_No = registrationNumber('ICRS');
    return body;
  };

  /** A hostile change to a valid body: one field wrong, an extra field, or no object at all. */
  const hostileBody = (fields: [string, import('../../schemas/define').Field][]) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(...fields).chain(([name, field]) => hostileValue(field).map((value) => ({ [name]: value }))),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.oneof(controlText(12), fc.constantFrom('__proto__', 'constructor', 'unknownField')), wrongType)
          .map(([k, v]) => ({ [k]: v })),
      },
      { weight: 1, arbitrary: fc.constant(null) },
    );

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await ensureOrganisations(t.server.db);
    admin = await t.login(t.admin.userName, t.admin.password);
    await t.createUser({ userName: 'writer', password: 'writer-password', role: 3, location: 1 });
    writer = await t.login('writer', 'writer-password');
    victimId = (await t.createUser({ userName: 'victim', password: 'victim-password', role: 4, location: 1 })).userId;
    for (const name of ['serviceProvider', 'service', 'job', 'profile', 'referral']) {
      const e = GENERIC.find((x) => x.name === name) as EntityShape;
      const body = bodyFor(e);
      const response = await t.api('POST', `${e.rest}/`, { token: writer, body });
      if (response.status !== 201) throw new Error(`${name}: ${response.status} ${JSON.stringify(response.body)}`);
      refs[name] = String(body[e.keyFields[0]]);
    }
    for (const e of GENERIC) {
      if (refs[e.name]) {
        existing[e.name] = refs[e.name];
        continue;
      }
      const body = bodyFor(e);
      const response = await t.api('POST', `${e.rest}/`, { token: writer, body });
      if (response.status !== 201) throw new Error(`${e.name}: ${response.status} ${JSON.stringify(response.body)}`);
      existing[e.name] = String(body[e.keyFields[0]]);
    }
    baseline = await checksum();
  });
  afterAll(async () => {
    // The figure for the closing note (before/after the fix).
    console.log(
      `hostile input on ${backend}: ${totals.requests} requests, ${totals.fiveXX} answered 5xx, ${totals.changed} refused but changed the database`,
    );
    await t?.close();
  });

  describe.each(GENERIC.map((e) => [e.name, e] as const))('%s', (_name, e) => {
    const writable = writableFields(e);
    const updatable = writable.filter(([name]) => !e.keyFields.includes(name));

    it('POST with hostile values', async () => {
      const failures: Outcome[] = [];
      await fc.assert(
        fc.asyncProperty(hostileBody(writable), async (change) => {
          const json = change === null ? wrongTypeBody() : { ...bodyFor(e), ...change };
          await probe(failures, 'POST', `${e.rest}/`, { token: writer, json });
        }),
        { numRuns: RUNS },
      );
      expect(failures).toEqual([]);
    });

    it.skipIf(!updatable.length)('PUT with hostile values', async () => {
      const failures: Outcome[] = [];
      await fc.assert(
        fc.asyncProperty(hostileBody(updatable.length ? updatable : writable), async (change) => {
          await probe(failures, 'PUT', `${e.rest}/${existing[e.name]}`, { token: writer, json: change ?? wrongTypeBody() });
        }),
        { numRuns: RUNS },
      );
      expect(failures).toEqual([]);
    });

    it('lists, searches and reads by id with hostile parameters', async () => {
      const failures: Outcome[] = [];
      const known = Object.keys(listQuerySchema(e).properties ?? {});
      const params = fc.array(fc.tuple(hostileQueryName(known), hostileQueryValue), { minLength: 1, maxLength: 3 });
      await fc.assert(
        fc.asyncProperty(params, controlText(36), async (pairs, badId) => {
          const query = pairs.map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`).join('&');
          if (e.list) await probe(failures, 'GET', `${e.rest}?${query}`, { token: writer });
          if (e.list && e.routes.search)
            await probe(failures, 'POST', `${e.rest}${e.routes.search}`, { token: writer, json: Object.fromEntries(pairs) });
          if (e.list && e.routes.byParent)
            await probe(failures, 'GET', `${e.rest}${e.routes.byParent}/${encodeAny(badId)}?${query}`, { token: writer });
          await probe(failures, 'GET', `${e.rest}/${encodeAny(badId)}`, { token: writer });
        }),
        { numRuns: RUNS },
      );
      expect(failures).toEqual([]);
    });

    it('refuses bodies that are not JSON (or multipart) and changes nothing', async () => {
      const failures: Outcome[] = [];
      const notJson: Record<string, number> = {};
      for (const raw of otherContentTypes(bodyFor(e))) {
        const isJson = raw.contentType?.startsWith('application/json');
        const post = await probe(failures, 'POST', `${e.rest}/`, { token: writer, raw });
        if (!isJson) notJson[`POST ${raw.name}`] = post;
        if (!updatable.length) continue;
        // A valid change sent as another type: a text/plain PUT once skipped validation and was stored.
        const change = isJson ? raw : { ...raw, body: Buffer.from(JSON.stringify({ [updatable[0][0]]: bodyFor(e)[updatable[0][0]] })) };
        const put = await probe(failures, 'PUT', `${e.rest}/${existing[e.name]}`, { token: writer, raw: change });
        if (!isJson) notJson[`PUT ${raw.name}`] = put;
      }
      expect(failures).toEqual([]);
      expect(Object.entries(notJson).filter(([, status]) => status !== 415)).toEqual([]);
    });

    it.skipIf(!e.images.length)('refuses broken multipart bodies and stores nothing', async () => {
      const failures: Outcome[] = [];
      const fields = Object.fromEntries(
        Object.entries(bodyFor(e)).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
      );
      for (const raw of brokenMultipart(fields, e.images[0], PNG_1PX, MAX_IMAGE_BYTES)) {
        const status = await probe(failures, 'POST', `${e.rest}/`, { token: writer, raw });
        if (status < 400 && status !== 0) failures.push({ request: `POST ${raw.name}`, status, problem: 'accepted' });
        await probe(failures, 'PUT', `${e.rest}/${existing[e.name]}`, { token: writer, raw });
      }
      // Every broken body is refused; a file name with a NUL may pass once cleaned.
      expect(failures.filter((f) => f.request !== 'POST NUL in a file name')).toEqual([]);
    });
  });

  it('profile images and referral attachments refuse broken multipart bodies', async () => {
    const failures: Outcome[] = [];
    for (const raw of brokenMultipart({ img_for: 'photo' }, 'file', PNG_1PX, MAX_IMAGE_BYTES)) {
      await probe(failures, 'PUT', `/profile/images/${refs.profile}`, { token: writer, raw });
      await probe(failures, 'PUT', `/referral/images/${refs.referral}`, { token: writer, raw });
    }
    for (const raw of otherContentTypes({ img_for: 'photo' })) {
      await probe(failures, 'PUT', `/profile/images/${refs.profile}`, { token: writer, raw });
    }
    await probe(failures, 'PUT', `/profile/images/${encodeURIComponent('a\u0000b')}`, {
      token: writer,
      raw: brokenMultipart({ img_for: 'photo' }, 'file', PNG_1PX, MAX_IMAGE_BYTES)[0],
    });
    expect(failures).toEqual([]);
  });

  it("answers the cases measured in the issue with a message in the user's language", async () => {
    const e = GENERIC.find((x) => x.name === 'job') as EntityShape;
    const text = writableFields(e).find(([, f]) => f.kind === 'string' && !f.pattern && !f.format)?.[0] as string;
    const fr = { authorization: `Bearer ${writer}`, 'accept-language': 'fr' };
    const nul = await t.api('POST', `${e.rest}/`, {
      token: writer,
      body: { ...bodyFor(e), [text]: 'a\u0000b' },
      headers: { 'accept-language': 'fr' },
    });
    expect(nul.status).toBe(400);
    expect(nul.body.errors).toContainEqual({
      field: text,
      message: `${text} contient des caractères de contrôle, qui ne sont pas acceptés`,
    });
    const year0 = await t.api('GET', `${e.rest}?dateFrom=0000-01-01`, { token: writer });
    expect(year0.status).toBe(400);
    expect(year0.body.errors).toContainEqual({ field: 'dateFrom', message: 'dateFrom must be a date between 1900 and 2100' });
    expect((await t.api('GET', `${e.rest}?q=%00`, { token: writer })).status).toBe(400);
    const before = (await t.api('GET', `${e.rest}/${existing.job}`, { token: writer })).body;
    const plain = await fetch(`${t.url}/api${e.rest}/${existing.job}`, {
      method: 'PUT',
      headers: { ...fr, 'content-type': 'text/plain' },
      body: JSON.stringify({ [text]: 'changed' }),
    });
    expect(plain.status).toBe(415);
    expect((await plain.json()).message).toBe("Ce type de contenu n'est pas accepté");
    expect((await t.api('GET', `${e.rest}/${existing.job}`, { token: writer })).body).toEqual(before);
  });

  it('refuses a number too large to be finite (1e999), in a query and in a JSON body, changing nothing', async () => {
    const e = GENERIC.find((x) => x.name === 'job') as EntityShape;
    expect((await t.api('GET', '/stats/getKPIs/?territory=1e999', { token: writer })).status).toBe(400);
    expect((await t.api('POST', '/stats/byterCate/', { token: writer, body: { territory: '1e999' } })).status).toBe(400);
    expect((await t.api('GET', `${e.rest}?page=1e999`, { token: writer })).status).toBe(400);
    const before = (await t.api('GET', `${e.rest}/${existing.job}`, { token: writer })).body;
    const raw = await fetch(`${t.url}/api${e.rest}/${existing.job}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: '{"positions": 1e999}',
    });
    expect(raw.status).toBe(400);
    expect((await t.api('GET', `${e.rest}/${existing.job}`, { token: writer })).body).toEqual(before);
  });

  it('users, lists, login and stats refuse hostile values', async () => {
    const failures: Outcome[] = [];
    const userFields = writableFields(user);
    const [someList] = (await t.api('GET', '/lists', { token: admin })).body as { id: string }[];
    const itemsField = listEntity.fields.items;
    await fc.assert(
      fc.asyncProperty(
        hostileBody(userFields),
        hostileValue(itemsField),
        fc.record({ userName: fc.oneof(controlText(), wrongType), password: fc.oneof(controlText(), wrongType) }, { requiredKeys: [] }),
        fc.tuple(fc.constantFrom('territory', 'dateFrom', 'dateTo', 'category', 'x'), hostileQueryValue),
        async (change, items, credentials, [statName, statValue]) => {
          const newUser = { userName: `u${totals.requests}`, password: 'password-123', fullName: 'Some One', role: 4, location: 1 };
          await probe(failures, 'POST', '/users/', { token: admin, json: change === null ? wrongTypeBody() : { ...newUser, ...change } });
          await probe(failures, 'PUT', `/users/${victimId}`, { token: admin, json: change ?? wrongTypeBody() });
          await probe(failures, 'PUT', `/lists/${someList.id}`, { token: admin, json: { items } });
          await probe(failures, 'POST', `/lists/${someList.id}`, { token: admin, json: { fr: items, en: 'x' } });
          await probe(failures, 'POST', '/login', { json: credentials });
          await probe(failures, 'GET', `/stats/getKPIs/?${statName}=${encodeAny(statValue)}`, { token: admin });
          await probe(failures, 'POST', '/stats/byterCate/', { token: admin, json: { [statName]: statValue } });
        },
      ),
      { numRuns: RUNS },
    );
    for (const raw of otherContentTypes({ userName: 'admin', password: 'x' })) await probe(failures, 'POST', '/login', { raw });
    expect(failures).toEqual([]);
  });
});

/** Percent-encodes any text, lone surrogates included (as the ill-formed UTF-8 a hostile client may send). */
function encodeAny(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0) ?? 0;
      if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(c);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}

function wrongTypeBody(): unknown {
  return [{ a: '\u0000' }];
}
