// A server with the organisations and one field officer (role 3, location 1), signed in, with an
// axios client set up as the app's (JSON by default, English answers): the starting point of the
// data-layer and upload tests.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createDataLayer, type DataLayer, type LookupLists } from '../../src/lib/data';
import type { IcrsDatabase } from '../../src/lib/store/database';
import type { SessionUser } from '../../src/lib/session/session';
import { ensureOrganisations } from './records';
import { openTestDb } from './rxdb';
import { startTestServer, type TestServer } from './server';

export const FIELD_PASSWORD = 'field-password-1';

export interface FieldSetup {
  t: TestServer;
  token: string;
  http: AxiosInstance;
  lists: LookupLists;
  user: SessionUser;
}

export async function startFieldSetup(options: Parameters<typeof startTestServer>[0] = {}): Promise<FieldSetup> {
  const t = await startTestServer(options);
  await ensureOrganisations(t.server.db);
  const { userId } = await t.createUser({ userName: 'field', password: FIELD_PASSWORD, role: 3, location: 1 });
  const token = await t.login('field', FIELD_PASSWORD);
  const http = axios.create({
    baseURL: `${t.url}/api`,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'en' },
  });
  const lists = (await http.get<LookupLists>('/lists/profilelist')).data;
  return { t, token, http, lists, user: { userId, userName: 'field', role: 3, location: 1, fullName: 'Test field' } };
}

export interface FieldStore extends FieldSetup {
  /** This test's store, a fresh one for each test. */
  db: IcrsDatabase;
  /** What the data layer is told of the network; online at the start of each test. */
  online: boolean;
  /** The app's data layer over this test's store, for the field officer. */
  layer(): DataLayer;
}

/** startFieldSetup once for the file and a fresh store for each test, through hooks it registers:
 * read the fields inside the tests. */
export function withFieldStore(): FieldStore {
  const store = { online: true } as FieldStore;
  store.layer = () =>
    createDataLayer({ db: store.db, http: store.http, isOnline: () => store.online, user: store.user, lists: store.lists });
  beforeAll(async () => {
    Object.assign(store, await startFieldSetup());
  });
  afterAll(() => store.t?.close());
  beforeEach(async () => {
    store.db = await openTestDb();
    store.online = true;
  });
  afterEach(async () => {
    await store.db?.close();
  });
  return store;
}
