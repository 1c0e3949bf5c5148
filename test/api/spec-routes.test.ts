// Every call of product.md §7 is a route the server registers (a missing call fails the suite),
// and every registered route answers 401 without a token unless it is public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import { startTestServer, type TestServer } from '../helpers/server';

/** product.md §7, as written there (ids in braces; paths under /api). */
const SPEC_CALLS = `
POST /login
GET /users
GET /users/all
GET /users/{id}
PUT /users/{id}
PUT /users/staff/{id}
PUT /users/self/{id}
POST /users/
POST /users/createStaff
POST /users/changepass
GET /lists
GET /lists/profilelist
PUT /lists/{id}
POST /lists/{id}
GET /jobs
GET /jobs/{id}
POST /jobs/search/
POST /jobs/
PUT /jobs/{id}
GET /jobsother/jb/{id}
GET /jobsother/{id}
POST /jobsother/
PUT /jobsother/{id}
GET /imgs/getById
GET /imgs/getrefimg
GET /imgs/getfile
GET /profile
GET /profile/{id}
POST /profile/
PUT /profile/{id}
POST /profile/basicSp
POST /profile/skprofile
POST /profile/social
POST /profile/security
POST /profile/Bstart
PUT /profile/images/{id}
GET /referral
GET /referral/{id}
POST /referral/
PUT /referral/{id}
PUT /referral/images/{id}
GET /jobreferral
GET /jobreferral/{id}
POST /jobreferral/
PUT /jobreferral/{id}
GET /sproviers
POST /sproviers/srch
GET /sproviers/{id}
POST /sproviers/
PUT /sproviers/{id}
POST /sproviers/delete/{id}
POST /spDetail/search/
GET /spDetail
GET /spDetail/{id}
GET /spDetail/spending
GET /spDetail/srejected
GET /spDetail/view/{id}
GET /spDetail/getbySp/{id}
POST /spDetail/
PUT /spDetail/{id}
POST /spDetail/delete/{id}
GET /appr/spd/{id}
GET /appr/{id}
POST /appr/
PUT /appr/{id}
GET /vocTrain/spd/{id}
GET /vocTrain/{id}
POST /vocTrain/
PUT /vocTrain/{id}
POST /sverify/
GET /stats/geo
GET /stats/pendings
GET /stats/gen
GET /stats/byspdtype
GET /stats/bySpdTerr
GET /stats/byServiceType
GET /stats/byoffrall
GET /stats/byter/{x}
POST /stats/byterCate/
POST /stats/byterCateMain/
GET /stats/getJbSec/
GET /stats/getKPIs/
`
  .trim()
  .split('\n')
  .map((line) => {
    const [method, path] = line.split(' ');
    return { method: method as HTTPMethods, path };
  });

/** The spec's path as a URL with a sample id, under /api. */
const sampleUrl = (path: string) => `/api${path.replace(/\{\w+\}/g, 'services')}`;

describe('product.md §7 calls', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it.each(SPEC_CALLS.map((c) => [`${c.method} ${c.path}`, c] as const))('%s is a route', (_label, call) => {
    const url = `/api${call.path.replace(/\{(\w+)\}/g, ':$1')}`;
    const found =
      t.server.app.hasRoute({ method: call.method, url }) ||
      t.server.app.hasRoute({ method: call.method, url: url.replace(/:\w+$/, ':id') }) ||
      t.server.app.hasRoute({ method: call.method, url: url.replace(/\/$/, '') });
    expect(found, `${call.method} ${url}`).toBe(true);
  });

  it.each(SPEC_CALLS.filter((c) => c.path !== '/login').map((c) => [`${c.method} ${c.path}`, c] as const))(
    '%s needs a token',
    async (_label, call) => {
      const response = await fetch(`${t.url}${sampleUrl(call.path)}`, { method: call.method });
      expect(response.status).toBe(401);
    },
  );
});
