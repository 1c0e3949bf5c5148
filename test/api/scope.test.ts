// The organisation scope (ADR-0007, schemas/scope.ts), tested from the route table: every
// route the server documents is probed, as every role of two organisations A and B, role 1
// and users without an organisation of every role 2-7 (ADR-0007: they read no client data
// at all), on the records of both organisations. Another
// organisation's client data answers 404 (never its data), another organisation's providers,
// services and jobs are readable but refuse every change, refused writes leave the database
// unchanged, and each organisation still reads and writes its own. A route this file cannot
// place fails the suite, so a new route cannot skip the scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape, Field } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { entityByName, serverEntities } from '../../schemas/index';
import { can, type Permission } from '../../schemas/roles';
import { backends } from '../helpers/db';
import { ensureOrganisations, multipartRequest, PNG_1PX } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const A = 2; // organisation 'ADC'
const B = 3; // organisation 'CAJ'
const ABBR: Record<number, string> = { [A]: 'ADC', [B]: 'CAJ' };
const ORGS = [A, B] as const;

interface Actor {
  name: string;
  role: number;
  location: number;
  token: string;
}

/** The rule, stated here on its own (not read from schemas/scope.ts), so that the test checks it. */
const CLIENT_DATA = new Set(['profile', 'skills', 'social', 'security', 'business', 'profileImage', 'referral', 'jobReferral']);
function inScope(actor: Actor, entity: EntityShape, owner: number, mode: 'read' | 'write'): boolean {
  if (actor.role === 1) return true;
  if (CLIENT_DATA.has(entity.name) && actor.location === 0) return false; // fail closed (ADR-0007)
  if (actor.location === owner) return true;
  return mode === 'read' && !CLIENT_DATA.has(entity.name);
}

/** A user of roles 2-7 without an organisation: no client data, ever. */
const withoutOrganisation = (actor: Actor) => actor.role !== 1 && actor.location === 0;
/** Programme-wide readers (roles 1 and 2, with or without an organisation): every organisation's
 * figures, and for role 2 no client record at all. */
const programmeWide = (actor: Actor) => actor.role === 1 || actor.role === 2;

/** Routes that hold no organisation's records, or whose scope a test of their own checks, and
 * where their scope is tested instead. */
const NOT_ORGANISATION_DATA: Record<string, string> = {
  'POST /api/login': 'sign-in',
  'GET /api/health': 'health',
  'GET /api/config': 'public installation settings (programme site): test/api/public-config.test.ts',
  'GET /api/sync/stream': 'events name only a table the role may read: test/api/sync.test.ts',
  'GET /api/session/device': "the caller's own device secret: test/api/device-privacy.test.ts, test/api/device-lock.test.ts",
  'POST /api/session/lock': "ends the caller's own session: test/api/device-lock.test.ts",
  'POST /api/logout': 'sign-out: test/api/device-privacy.test.ts, test/api/access-control.test.ts',
  'POST /api/sync/ticket': "a ticket for the caller's own change stream: test/api/access-control.test.ts",
  'GET /api/metrics': 'counts and times of the whole process, no record: role 1 or the scrape token only, test/api/metrics.test.ts',
  // The caseload: clients of one organisation only, another's answer 404 (test/api/caseload.test.ts).
  'POST /api/profile/assign': "assigns only the caller's scope's clients, to a worker of their organisation: test/api/caseload.test.ts",
  'PUT /api/caseload/pins/{id}': 'pins only a client the caller may read: test/api/caseload.test.ts',
  'DELETE /api/caseload/pins/{id}': "the caller's own pin: test/api/caseload.test.ts",
  'GET /api/caseload': "the caller's own caseload: test/api/caseload.test.ts",
  'GET /api/caseload/users/{id}': "a user of the caller's organisation only: test/api/caseload.test.ts",
  'POST /api/caseload/preview': "a user of the caller's organisation only: test/api/caseload.test.ts",
  'POST /api/caseload/move': "a worker of the caller's organisation only, to a colleague of it: test/api/caseload-move.test.ts",
  'GET /api/caseload/workers': "the workers of the caller's organisation only (role 1 without one: all): test/api/caseload-workers.test.ts",
  'GET /api/caseload/pins': "the caller's own pins: test/api/caseload-workers.test.ts",
};
const NOT_ORGANISATION_PREFIXES = ['/api/users', '/api/lists', '/api/health'];

/** Generic entity routes (users and lists have their own scope; profile images use special routes). */
const GENERIC = serverEntities.filter((e) => e.owner !== null && e.name !== 'profileImage');

type Body = Record<string, unknown>;
interface Request {
  method: string;
  url: string;
  body?: Body;
  files?: Record<string, Buffer>;
  fields?: Body;
  /** Sent instead through the batched upload (POST /api/sync/push/{table}) as a batch of one. */
  pushTable?: string;
}
/** One probe of a route on the records of organisation `org` (undefined: not aimed at one). */
interface Probe {
  kind: 'read-one' | 'read-list' | 'write' | 'create-root' | 'sync' | 'stats';
  entity: EntityShape;
  permission: Permission;
  /** The request aimed at `org`'s records, as `actor`; may create what it needs first. */
  request(org: number, actor: Actor): Promise<Request> | Request;
  /** For lists: the key expected in the rows when the record is in scope. */
  key?(org: number): string;
  /** The scope a read follows: 'write' for the verification lists (what the user may verify). */
  scope?: 'write';
}

const text = (e: EntityShape): [string, string] | undefined => {
  const entry = Object.entries(e.fields).find(
    ([, f]: [string, Field]) => f.kind === 'string' && !f.readOnly && !f.pattern && !f.format && !f.clientOnly && f.maxLength >= 40,
  );
  return entry && [entry[0], `Changed by scope test ${Math.random().toString(36).slice(2, 8)}`];
};

describe.each(backends)('organisation scope on %s', (backend) => {
  let t: TestServer;
  const actors: Actor[] = [];
  /** fx[org][entity name] = key of that organisation's fixture record. */
  const fx: Record<number, Record<string, string>> = { [A]: {}, [B]: {} };
  /** Stored image names: fx images[org] = {jobImage, serviceImage, attachment}. */
  const images: Record<number, Record<string, string>> = { [A]: {}, [B]: {} };
  /** Texts of each organisation's client data that must never reach another organisation. */
  const secrets: Record<number, string[]> = { [A]: [], [B]: [] };
  const writer = (org: number) => actors.find((a) => a.location === org && a.role === 3) as Actor;

  const send = async (actor: Actor, r: Request) => {
    if (r.pushTable) return push(actor, r);
    if (r.files) return multipartRequest(t, r.method, r.url, actor.token, r.fields ?? {}, r.files);
    return t.api(r.method, r.url, { token: actor.token, body: r.body });
  };

  /** The request `r` (a POST {rest}/ or PUT {rest}/{id}) as a batch of one; answers that record's result. */
  const push = async (actor: Actor, r: Request) => {
    const id = r.method === 'PUT' ? decodeURIComponent(r.url.split('/').pop() ?? '') : undefined;
    const record = { op: r.method === 'PUT' ? 'update' : 'create', ...(id ? { id } : {}), data: r.body ?? {} };
    const response = await t.api('POST', `/sync/push/${r.pushTable}`, { token: actor.token, body: { records: [record] } });
    if (response.status !== 200) return response;
    expect(response.body.results, JSON.stringify(response.body)).toHaveLength(1);
    return { status: response.body.results[0].status as number, body: response.body.results[0].body };
  };

  /** A fresh record of `e` in `org`, made by that organisation's writer; answers its key. */
  async function make(e: EntityShape, org: number, parents: Record<string, string> = fx[org]): Promise<string> {
    const body = sampleBody(e, parents);
    if (e.name === 'profile') body.prof_Reg_No = registrationNumber(ABBR[org]);
    const response = await t.api('POST', `${e.rest}/`, { token: writer(org).token, body });
    expect(response.status, `${e.name}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return String(body[e.keyFields[0]]);
  }

  /** Every table's content in one hash: a refused write must leave it as it was. */
  async function databaseHash(): Promise<string> {
    const tables = [...serverEntities.map((e) => e.table), 'images'];
    const parts = tables.map((table) => `(SELECT coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM "${table}" t)`);
    // The audit log only grows: its size tells whether a refused write left an entry (ADR-0036).
    parts.push(`(SELECT count(*)::text FROM "audit_log")`);
    const [row] = await t.server.db.query<{ hash: string }>(`SELECT ${parts.join(" || ':' || ")} AS hash`);
    return row.hash;
  }

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await ensureOrganisations(t.server.db);
    actors.push({ name: 'role 1', role: 1, location: 0, token: await t.login(t.admin.userName, t.admin.password) });
    for (const org of ORGS) {
      for (const role of [2, 3, 4, 5, 6, 7]) {
        const name = `org${org}role${role}`;
        await t.createUser({ userName: name, password: `password-${name}`, role, location: org });
        actors.push({ name, role, location: org, token: await t.login(name, `password-${name}`) });
      }
    }
    // Accounts without an organisation, as made before organisations were required (the API refuses roles 3-7 now).
    for (const role of [2, 3, 4, 5, 6, 7]) {
      const name = `noorg-role${role}`;
      await t.createUserWithoutOrganisation({ userName: name, password: `password-${name}`, role });
      actors.push({ name, role, location: 0, token: await t.login(name, `password-${name}`) });
    }

    for (const org of ORGS) {
      for (const e of GENERIC) {
        // Upsert entities are keyed by their profile: one each.
        fx[org][e.name] = await make(e, org);
      }
      const w = writer(org);
      const job = await multipartRequest(t, 'PUT', `/jobs/${fx[org].job}`, w.token, {}, { jb_img1: PNG_1PX });
      images[org].job = job.body.jb_img1;
      const service = await multipartRequest(t, 'PUT', `/spDetail/${fx[org].service}`, w.token, {}, { sp_img1: PNG_1PX });
      images[org].service = service.body.sp_img1;
      expect(
        (await multipartRequest(t, 'PUT', `/profile/images/${fx[org].profile}`, w.token, { img_for: 'photo' }, { file: PNG_1PX })).status,
      ).toBe(200);
      const attached = await multipartRequest(t, 'PUT', `/referral/images/${fx[org].referral}`, w.token, {}, { file: PNG_1PX });
      images[org].attachment = attached.body.attachments[0].name;
      fx[org].profileImage = fx[org].profile;
      const [client] = await t.server.db.query<{ prof_Reg_No: string }>('SELECT "prof_Reg_No" FROM "tbl_profiles" WHERE "prof_Id" = $1', [
        fx[org].profile,
      ]);
      // Verification lists: one pending and one rejected service per organisation.
      fx[org].pendingService = await make(entityByName.service, org);
      fx[org].rejectedService = await make(entityByName.service, org);
      await t.server.db.query('UPDATE "tbl_sp_detail" SET "status" = 2 WHERE "sp_Detail_Id" = $1', [fx[org].rejectedService]);
      secrets[org] = [...CLIENT_DATA].map((name) => fx[org][name]).concat(client.prof_Reg_No, fx[org].referral, fx[org].jobReferral);
    }
  }, 120_000);
  afterAll(() => t?.close());

  // ------------------------------------------------------------------------------------------
  // The probes of every route, placed by what the route is in schemas/ (not by a route list).
  // ------------------------------------------------------------------------------------------

  const readOf = (e: EntityShape) => e.access.read;
  const writeOf = (e: EntityShape) => e.access.write;
  /** A probe of each kind, under the entity's own read or write permission unless `more` says otherwise. */
  const readOne = (entity: EntityShape, request: Probe['request'], more: Partial<Probe> = {}): Probe => ({
    kind: 'read-one',
    entity,
    permission: readOf(entity),
    request,
    ...more,
  });
  const readList = (entity: EntityShape, key: Probe['key'], request: Probe['request'], more: Partial<Probe> = {}): Probe => ({
    kind: 'read-list',
    entity,
    permission: readOf(entity),
    key,
    request,
    ...more,
  });
  /** A sync probe of each entity a device holds: its fixture record's key expected in the rows. */
  const syncProbes = (request: (e: EntityShape, org: number) => Request): Probe[] =>
    serverEntities
      .filter((e) => e.offline)
      .map((e): Probe => ({
        kind: 'sync',
        entity: e,
        permission: readOf(e),
        key: (org) => fx[org][e.name],
        request: (org) => request(e, org),
      }));
  const write = (entity: EntityShape, request: Probe['request'], more: Partial<Probe> = {}): Probe => ({
    kind: 'write',
    entity,
    permission: writeOf(entity),
    request,
    ...more,
  });

  function probesFor(method: string, path: string): Probe[] | undefined {
    const url = path.replace(/\/$/, '');
    const special = specialProbes(method, url);
    if (special) return special;
    // The longest entity base path the route starts with.
    const e = [...GENERIC]
      .sort((x, y) => (y.rest?.length ?? 0) - (x.rest?.length ?? 0))
      .find((x) => url === `/api${x.rest}` || url.startsWith(`/api${x.rest}/`));
    if (!e) return undefined;
    const base = `/api${e.rest}`;
    const rest = url.slice(base.length);
    const key = (org: number) => fx[org][e.name];
    if (method === 'GET' && rest === '') {
      return [readList(e, key, () => ({ method, url: `${e.rest}?pageSize=200` }))];
    }
    if (method === 'POST' && e.routes.search && rest === e.routes.search.replace(/\/$/, '')) {
      return [readList(e, key, () => ({ method, url: `${e.rest}${e.routes.search}`, body: { pageSize: 200 } }))];
    }
    if (method === 'GET' && e.routes.byParent && e.parent && rest === `${e.routes.byParent}/{id}`) {
      const parent = e.parent.entity;
      return [readList(e, key, (org) => ({ method, url: `${e.rest}${e.routes.byParent}/${fx[org][parent]}?pageSize=200` }))];
    }
    if (method === 'GET' && rest === '/{id}') {
      return [readOne(e, (org) => ({ method, url: `${e.rest}/${key(org)}` }), { key })];
    }
    if (method === 'PUT' && rest === '/{id}') {
      const edit = text(e);
      if (!edit) return [];
      return [write(e, (org) => ({ method, url: `${e.rest}/${key(org)}`, body: { [edit[0]]: edit[1] } }))];
    }
    if (method === 'POST' && rest === '/delete/{id}') {
      // A fresh record each time: deleting is for good.
      return [
        write(e, async (org, actor) => ({
          method,
          url: `${e.rest}/delete/${await make(e, org)}`,
          body: { reason: 'Scope test', password: passwordOf(actor) },
        })),
      ];
    }
    if (method === 'POST' && rest === '') {
      const parents = (org: number) => ({ ...fx[org] });
      if (e.owner && 'field' in e.owner) {
        return [{ kind: 'create-root', entity: e, permission: writeOf(e), request: (org, actor) => createBody(e, parents(org), actor) }];
      }
      // A child under the organisation's parent (upserts: its profile's one record).
      return [write(e, (org, actor) => createBody(e, parents(org), actor))];
    }
    return undefined;
  }

  function createBody(e: EntityShape, parents: Record<string, string>, actor: Actor): Request {
    const body = sampleBody(e, parents);
    if (e.name === 'profile') body.prof_Reg_No = registrationNumber(ABBR[actor.location] ?? 'ICRS');
    return { method: 'POST', url: `${e.rest}/`, body };
  }

  const passwordOf = (actor: Actor) => (actor.role === 1 && actor.location === 0 ? t.admin.password : `password-${actor.name}`);

  function specialProbes(method: string, url: string): Probe[] | undefined {
    const { service, profile, profileImage, referral, job } = entityByName;
    const route = `${method} ${url}`;
    switch (route) {
      case 'GET /api/spDetail/spending':
      case 'GET /api/spDetail/srejected': {
        // The verification lists: what the user may verify (change); fixture services are pending.
        const status = url.endsWith('spending') ? 0 : 2;
        return [
          readList(
            service,
            (org) => (status === 0 ? fx[org].pendingService : fx[org].rejectedService),
            () => ({ method, url: `${url.slice(4)}?pageSize=200` }),
            { permission: status === 0 ? 'services.verify' : 'serviceProviders.read', scope: 'write' },
          ),
        ];
      }
      case 'GET /api/spDetail/view/{id}':
        return [readOne(service, (org) => ({ method, url: `/spDetail/view/${fx[org].service}` }), { key: (org) => fx[org].service })];
      case 'POST /api/sverify':
        return [
          write(
            service,
            (org) => ({ method, url: '/sverify/', body: { sp_Detail_Id: fx[org].service, status: 2, comment: 'Scope test' } }),
            {
              permission: 'services.verify',
            },
          ),
        ];
      case 'GET /api/history/{entity}/{id}':
        // A record's history (ADR-0036): read as the record itself.
        return GENERIC.filter((e) => e.keyFields.length === 1).map((e) =>
          readOne(e, (org) => ({ method, url: `/history/${e.name}/${fx[org][e.name]}` })),
        );
      case 'GET /api/audit':
      case 'GET /api/audit/csv':
        // The audit log of a record: role 1 reads every entry, role 7 its own organisation's (the write scope's rule).
        return GENERIC.filter((e) => e.keyFields.length === 1).map((e) =>
          readList(
            e,
            (org) => fx[org][e.name],
            (org) => ({ method, url: `${url.slice(4)}?entity=${e.name}&recordId=${fx[org][e.name]}` }),
            { permission: 'audit.read', scope: 'write' },
          ),
        );
      case 'GET /api/audit/clients':
        // The clients one may hand over (ADR-0036): role 1 every one, role 7 its organisation's.
        return [
          readList(
            profile,
            (org) => fx[org].profile,
            async (org) => {
              const [client] = await t.server.db.query<{ prof_Reg_No: string }>(
                'SELECT "prof_Reg_No" FROM "tbl_profiles" WHERE "prof_Id" = $1',
                [fx[org].profile],
              );
              return { method, url: `/audit/clients?q=${client?.prof_Reg_No}` };
            },
            { permission: 'clients.handover', scope: 'write' },
          ),
        ];
      case 'GET /api/profile/{id}/export':
        return [
          readOne(profile, (org) => ({ method, url: `/profile/${fx[org].profile}/export` }), {
            permission: 'clients.handover',
            scope: 'write',
          }),
        ];
      case 'POST /api/profile/{id}/erase':
        // A fresh client each time: an erasure is for good.
        return [
          write(
            profile,
            async (org, actor) => ({
              method,
              url: `/profile/${await make(profile, org)}/erase`,
              body: { reasonCode: 'other', note: 'Scope test', password: passwordOf(actor) },
            }),
            { permission: 'clients.handover' },
          ),
        ];
      case 'POST /api/profile/basicSp':
        return [
          write(profile, (org) => ({
            method,
            url: '/profile/basicSp',
            body: { prof_Id: fx[org].profile, BspData: { appr: [], orgHelp: [{ tbl_Id: 2 }] } },
          })),
        ];
      case 'GET /api/profile/images/{id}':
        return [readOne(profileImage, (org) => ({ method, url: `/profile/images/${fx[org].profile}` }), { key: (org) => fx[org].profile })];
      case 'PUT /api/profile/images/{id}':
        return [
          write(profileImage, (org) => ({
            method,
            url: `/profile/images/${fx[org].profile}`,
            fields: { img_for: 'idDocument' },
            files: { file: PNG_1PX },
          })),
        ];
      case 'POST /api/profile/images/delete/{id}':
        // A consent form put back each time, so that every allowed removal has one to remove.
        return [
          write(profileImage, async (org) => {
            const put = await multipartRequest(
              t,
              'PUT',
              `/profile/images/${fx[org].profile}`,
              writer(org).token,
              { img_for: 'consentForm' },
              { file: PNG_1PX },
            );
            expect(put.status).toBe(200);
            return { method, url: `/profile/images/delete/${fx[org].profile}`, body: { img_for: 'consentForm' } };
          }),
        ];
      case 'POST /api/profile/duplicates':
        // The fixture client's own phone number: found by its organisation (and role 1) only.
        return [
          readList(
            profile,
            (org) => fx[org].profile,
            async (org) => {
              const phone = `+243 99 000 00${org}`;
              await t.server.db.query('UPDATE "tbl_profiles" SET "phone" = $1 WHERE "prof_Id" = $2', [phone, fx[org].profile]);
              return { method, url: '/profile/duplicates', body: { phone } };
            },
          ),
        ];
      case 'POST /api/referral/search':
      case 'POST /api/jobreferral/search': {
        // The referral lists with their client (ADR-0029): the organisation's referrals only.
        const e = url.includes('jobreferral') ? entityByName.jobReferral : referral;
        return [
          readList(
            e,
            (org) => fx[org][e.name],
            () => ({ method, url: `${url.slice(4)}`, body: { pageSize: 200 } }),
          ),
        ];
      }
      case 'PUT /api/referral/images/{id}':
        return [write(referral, (org) => ({ method, url: `/referral/images/${fx[org].referral}`, files: { file: PNG_1PX } }))];
      case 'GET /api/imgs/getById':
        return [
          readOne(job, (org) => ({ method, url: `/imgs/getById?id=${fx[org].job}&imagename=${images[org].job}` })),
          readOne(service, (org) => ({ method, url: `/imgs/getById?id=${fx[org].service}&imagename=${images[org].service}` })),
        ];
      case 'GET /api/imgs/getrefimg':
        return [
          readOne(referral, (org) => ({ method, url: `/imgs/getrefimg?id=${fx[org].referral}&imagename=${images[org].attachment}` })),
        ];
      case 'GET /api/imgs/getfile':
        return [readOne(profileImage, (org) => ({ method, url: `/imgs/getfile?id=${fx[org].profile}&filename=photo` }))];
      case 'POST /api/sync/push/{table}':
        // The batched upload: every create and update probe of the kinds the engine uploads, as a batch of one.
        return GENERIC.filter((e) => e.upload).flatMap((e) =>
          [...(probesFor('POST', `/api${e.rest}/`) ?? []), ...(probesFor('PUT', `/api${e.rest}/{id}`) ?? [])].map((probe) => ({
            ...probe,
            request: async (org: number, actor: Actor) => ({ ...(await probe.request(org, actor)), pushTable: e.table }),
          })),
        );
      case 'GET /api/sync/{table}':
        return syncProbes((e) => ({ method, url: `/sync/${e.table}?limit=1000` }));
      case 'POST /api/sync/{table}/keys':
        // The mirror's rows of named keys (a dropped local edit): the feed's scope, whatever the key.
        // A profile image's key on the device is its two key fields joined (prof_Id|img_for).
        return syncProbes((e, org) => ({
          method,
          url: `/sync/${e.table}/keys`,
          body: { keys: [e === profileImage ? `${fx[org].profile}|photo` : fx[org][e.name]] },
        }));
    }
    if (url.startsWith('/api/stats/'))
      return [{ kind: 'stats', entity: profile, permission: 'stats.read', request: () => ({ method, url: url.slice(4) }) }];
    return undefined;
  }

  /** Every documented route, as "METHOD /api/path/{param}". */
  async function routeTable(): Promise<[string, string][]> {
    const docs = (await t.api('GET', '/docs')).body as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => m !== 'parameters')
        .map((m) => [m.toUpperCase(), path] as [string, string]),
    );
  }

  const isOrganisationData = (method: string, path: string) =>
    !NOT_ORGANISATION_DATA[`${method} ${path}`] && !NOT_ORGANISATION_PREFIXES.some((prefix) => path.startsWith(prefix));

  it('places every route of the route table (a new route must say how it is scoped)', async () => {
    const routes = await routeTable();
    expect(routes.length).toBeGreaterThan(70);
    const unplaced = routes.filter(([m, p]) => isOrganisationData(m, p) && !probesFor(m, p)).map(([m, p]) => `${m} ${p}`);
    expect(unplaced).toEqual([]);
  });

  /** True when `actor` created or last changed the service `id`. */
  const ownChange = async (actor: Actor, id: string) =>
    (
      await t.server.db.query(
        `SELECT 1 FROM "tbl_sp_detail" s JOIN "users" u ON u."userId" IN (s."createdBy", s."updatedBy") WHERE s."sp_Detail_Id" = $1 AND u."userName" = $2`,
        [id, actor.role === 1 && actor.location === 0 ? t.admin.userName : actor.name],
      )
    ).length > 0;

  it('answers every read and write of another organisation as if the record did not exist, and changes nothing', async () => {
    const routes = (await routeTable()).filter(([m, p]) => isOrganisationData(m, p));
    const leaks: string[] = [];
    let probes = 0;
    for (const [method, path] of routes) {
      for (const probe of probesFor(method, path) ?? []) {
        if (probe.kind === 'stats') continue;
        for (const actor of actors) {
          for (const org of ORGS) {
            if (actor.role !== 1 && actor.location === org) continue; // own records: next test
            probes++;
            const where = `${actor.name} → org ${org}: ${method} ${path} (${probe.entity.name})`;
            const writes = probe.kind === 'write' || probe.kind === 'create-root';
            const request = await probe.request(org, actor);
            // The gate refuses a role outside the matrix before any handler runs: only allowed writes can change anything.
            const allowed = can(actor.role, probe.permission);
            const before = writes && allowed ? await databaseHash() : '';
            if (probe.kind === 'create-root') {
              // A client cannot file a record under another organisation: the owner is the server's.
              request.body = { ...request.body, [ownerField(probe.entity)]: org };
            }
            const response = await send(actor, request);
            const answer = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
            const visible = allowed && inScope(actor, probe.entity, org, writes ? 'write' : (probe.scope ?? 'read'));
            if (!allowed) {
              if (response.status !== 403) leaks.push(`${where}: ${response.status} instead of 403`);
            } else if (probe.kind === 'create-root') {
              if (response.status !== 400) leaks.push(`${where}: owner field accepted (${response.status})`);
            } else if (probe.kind === 'write' && visible && request.url === '/sverify/' && (await ownChange(actor, fx[org].service))) {
              // Nobody verifies a service they created or last changed (ADR-0026).
              if (response.status !== 403 || response.body.code !== 'verify.ownService')
                leaks.push(`${where}: own service ${response.status}`);
            } else if (probe.kind === 'write') {
              // A user without an organisation is told so (403 scope.noOrganisation) when it tries to store client data.
              const refused =
                [400, 404].includes(response.status) ||
                (withoutOrganisation(actor) && response.status === 403 && response.body.code === 'scope.noOrganisation');
              const expected = visible ? response.status < 300 : refused;
              if (!expected) leaks.push(`${where}: ${response.status} ${answer.slice(0, 200)}`);
            } else if (probe.kind === 'read-one') {
              if (visible !== (response.status === 200) || (!visible && response.status !== 404))
                leaks.push(`${where}: ${response.status}`);
            } else {
              if (response.status !== 200) leaks.push(`${where}: ${response.status}`);
              const key = probe.key?.(org) ?? '';
              // The device mirrors only its own organisation (role 1 without one: everything).
              const expected = probe.kind === 'sync' ? (actor.role === 1 && actor.location === 0) || actor.location === org : visible;
              if (answer.includes(key) !== expected) leaks.push(`${where}: record ${expected ? 'missing' : 'listed'}`);
            }
            // Never another organisation's client data, whatever the answer.
            if (!inScope(actor, entityByName.profile, org, 'read') && secrets[org].some((secret) => answer.includes(secret))) {
              leaks.push(`${where}: client data of org ${org} in the answer`);
            }
            if (writes && allowed && !visible && (await databaseHash()) !== before)
              leaks.push(`${where}: refused but the database changed`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(probes).toBeGreaterThan(1000);
    console.info(`organisation scope on ${backend}: ${probes} probes of other organisations' records, ${leaks.length} leaks`);
  }, 240_000);

  it('lets each organisation read and write its own records on every route', async () => {
    const routes = (await routeTable()).filter(([m, p]) => isOrganisationData(m, p));
    const failures: string[] = [];
    for (const [method, path] of routes) {
      for (const probe of probesFor(method, path) ?? []) {
        if (probe.kind === 'stats') continue;
        for (const actor of actors.filter((a) => a.location !== 0 && can(a.role, probe.permission))) {
          const org = actor.location;
          const where = `${actor.name}: ${method} ${path} (${probe.entity.name})`;
          const request = await probe.request(org, actor);
          const [{ last }] = await t.server.db.query<{ last: string }>('SELECT coalesce(max("id"), 0)::text AS last FROM "audit_log"');
          const response = await send(actor, request);
          const answer = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
          // Every write that stored leaves its entries (ADR-0036): at least one, one per record changed, by this user.
          if ((probe.kind === 'write' || probe.kind === 'create-root') && response.status < 300) {
            const entries = await t.server.db.query<{ record: string; userName: string }>(
              `SELECT "entity" || ':' || "recordId" AS record, "userName" FROM "audit_log" WHERE "id" > $1::bigint AND "action" <> 'file.download'`,
              [last],
            );
            const records = entries.map((e) => e.record);
            if (!entries.length) failures.push(`${where}: stored without an audit entry`);
            if (new Set(records).size !== records.length) failures.push(`${where}: a record audited twice (${records.join(', ')})`);
            if (entries.some((e) => e.userName !== actor.name))
              failures.push(`${where}: audited as ${entries.map((e) => e.userName).join(', ')}`);
          }
          // Nobody verifies a service they created or last changed (ADR-0026): refused when the database says so.
          if (request.url === '/sverify/' && (await ownChange(actor, fx[org].service))) {
            if (response.status !== 403 || response.body.code !== 'verify.ownService')
              failures.push(`${where}: own service ${response.status}`);
            continue;
          }
          if (response.status >= 300) failures.push(`${where}: ${response.status} ${answer.slice(0, 200)}`);
          else if (probe.kind === 'create-root' && response.body.location !== org)
            failures.push(`${where}: filed under ${response.body.location}`);
          else if ((probe.kind === 'read-list' || probe.kind === 'sync') && !answer.includes(probe.key?.(org) ?? ''))
            failures.push(`${where}: own record missing`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('answers 0 client rows to users without an organisation of every role, not even the clients of no organisation', async () => {
    // A client filed under no organisation (made by an account older than the rule).
    const legacy = await make(entityByName.profile, A);
    await t.server.db.query('UPDATE "tbl_profiles" SET "location" = 0 WHERE "prof_Id" = $1', [legacy]);
    const routes = new Set((await routeTable()).map(([m, p]) => `${m} ${p}`));
    const clientEntities = serverEntities.filter((e) => CLIENT_DATA.has(e.name));
    const orgless = actors.filter(withoutOrganisation);
    expect(orgless.map((a) => a.role)).toEqual([2, 3, 4, 5, 6, 7]);
    const answered: string[] = [];
    let probes = 0;
    for (const actor of orgless) {
      for (const e of clientEntities.filter((x) => can(actor.role, readOf(x)))) {
        const urls = [
          routes.has(`GET /api${e.rest}`) ? `${e.rest}?pageSize=200` : undefined,
          e.offline ? `/sync/${e.table}?limit=1000` : undefined,
        ].filter((url): url is string => url !== undefined);
        for (const url of urls) {
          probes++;
          const response = await t.api('GET', url, { token: actor.token });
          const rows = (response.body.rows ?? response.body.documents) as unknown[] | undefined;
          if (response.status !== 200 || rows?.length !== 0 || (response.body.total ?? 0) !== 0) {
            answered.push(`${actor.name} GET ${url}: ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`);
          }
        }
      }
      if (can(actor.role, readOf(entityByName.profile))) {
        probes++;
        const one = await t.api('GET', `/profile/${legacy}`, { token: actor.token });
        if (one.status !== 404) answered.push(`${actor.name} GET /profile/{no organisation}: ${one.status}`);
      }
      if (can(actor.role, 'stats.read') && !programmeWide(actor)) {
        const gen = (await t.api('GET', '/stats/gen', { token: actor.token })).body;
        if ((gen.profiles ?? 0) !== 0 || (gen.referrals ?? 0) !== 0) answered.push(`${actor.name} /stats/gen: ${JSON.stringify(gen)}`);
      }
    }
    expect(answered).toEqual([]);
    expect(probes).toBeGreaterThan(20);
    // Nor may they store client data: told why, nothing stored.
    const noorg3 = orgless.find((a) => a.role === 3) as Actor;
    const before = await databaseHash();
    const body = { ...sampleBody(entityByName.profile, {}), prof_Reg_No: registrationNumber('ADC') };
    const refused = await t.api('POST', '/profile/', { token: noorg3.token, body });
    expect([refused.status, refused.body.code]).toEqual([400, 'profile.superAdmin']); // the spec's own error (product.md §8)
    const skills = await t.api('POST', `${entityByName.skills.rest}/`, {
      token: noorg3.token,
      body: sampleBody(entityByName.skills, { profile: legacy }),
    });
    expect([skills.status, skills.body.code]).toEqual([403, 'scope.noOrganisation']);
    expect(skills.body.message).toMatch(/no organisation/);
    expect(await databaseHash()).toBe(before);
  });

  it("refuses to move an own record under another organisation's parent, and changes nothing", async () => {
    const moves: [EntityShape, string][] = GENERIC.filter((e) => e.parent && !e.keyFields.includes(e.parent.field)).map((e) => [
      e,
      (e.parent as { field: string }).field,
    ]);
    expect(moves.length).toBeGreaterThan(5);
    for (const [e, field] of moves) {
      const before = await databaseHash();
      const parent = fx[B][(e.parent as { entity: string }).entity];
      const response = await t.api('PUT', `${e.rest}/${fx[A][e.name]}`, { token: writer(A).token, body: { [field]: parent } });
      expect([response.status, response.body.message], `${e.name}.${field}`).toEqual([
        400,
        'The record this one belongs to does not exist',
      ]);
      expect(await databaseHash(), e.name).toBe(before);
    }
  });

  it("counts in the dashboard and reports the clients and referrals of the user's organisation, of every one for roles 1 and 2, none for role 6", async () => {
    const routes = (await routeTable()).filter(([, p]) => p.startsWith('/api/stats/'));
    expect(routes.length).toBeGreaterThan(10);
    const truth = async (sql: string, location: number) => (await t.server.db.query<{ n: number }>(sql, [location]))[0].n;
    const PROFILES = 'SELECT count(*)::int AS n FROM "tbl_profiles" WHERE ($1::int IS NULL OR "location" = $1)';
    const REFERRALS =
      'SELECT count(*)::int AS n FROM "referral" r JOIN "tbl_profiles" p USING ("prof_Id") WHERE ($1::int IS NULL OR p."location" = $1)';
    for (const actor of actors) {
      const location = programmeWide(actor) ? null : actor.location;
      const gen = (await t.api('GET', '/stats/gen', { token: actor.token })).body;
      const kpis = (await t.api('GET', '/stats/getKPIs/', { token: actor.token })).body;
      if (actor.role === 6) {
        expect(gen, actor.name).not.toHaveProperty('profiles');
        expect(kpis, actor.name).not.toHaveProperty('referrals');
        expect((await t.api('GET', '/stats/byter/profiles', { token: actor.token })).status).toBe(403);
        continue;
      }
      // Without an organisation, but for programme-wide readers: none, not even the clients of no organisation.
      const none = withoutOrganisation(actor) && !programmeWide(actor);
      const profiles = none ? 0 : await truth(PROFILES, location as number);
      const referrals = none ? 0 : await truth(REFERRALS, location as number);
      if (!none) expect(profiles, 'fixture').toBeGreaterThan(0);
      expect([gen.profiles, gen.referrals, kpis.profiles, kpis.referrals], actor.name).toEqual([profiles, referrals, profiles, referrals]);
      const byTerritory = (await t.api('GET', '/stats/byter/profiles', { token: actor.token })).body as { count: number }[];
      expect(
        byTerritory.reduce((sum, row) => sum + row.count, 0),
        actor.name,
      ).toBe(profiles);
      const bySex = (await t.api('GET', '/stats/by/profiles/sex', { token: actor.token })).body as { count: number }[];
      expect(
        bySex.reduce((sum, row) => sum + row.count, 0),
        actor.name,
      ).toBe(profiles);
      const byStatus = (await t.api('GET', '/stats/by/referrals/status', { token: actor.token })).body as { count: number }[];
      expect(
        byStatus.reduce((sum, row) => sum + row.count, 0),
        actor.name,
      ).toBe(referrals);
    }
    // Every stats call answers every role with figures only, never a record's key.
    for (const [method, path] of routes) {
      for (const actor of actors) {
        const url = path.slice(4).replace('{x}', 'referrals').replace('{field}', 'status');
        const response = await t.api(method, url, { token: actor.token, body: method === 'POST' ? {} : undefined });
        expect([200, 403], `${actor.name} ${method} ${url}`).toContain(response.status);
        for (const org of ORGS) {
          if (!inScope(actor, entityByName.profile, org, 'read')) expect(JSON.stringify(response.body)).not.toContain(fx[org].profile);
        }
      }
    }
  });
});

function ownerField(e: EntityShape): string {
  return e.owner && 'field' in e.owner ? e.owner.field : 'location';
}
