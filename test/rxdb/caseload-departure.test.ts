// A client leaving a field worker's caseload (docs/offline-contract.md "The caseload") leaves the
// device at the next pull, told by the change stream, with its records; a client whose record
// waits on the device to be uploaded is not lost: it stays, uploads once, then goes.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { profile, skills } from '../../schemas/index';
import { createDataLayer } from '../../src/lib/data';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { startReplication, type Replication } from '../../src/lib/sync/replication';
import { countPending, uploadAll } from '../../src/lib/sync/upload';
import { fetchEventSource } from '../helpers/event-source';
import { ensureOrganisations } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';

const ORG = 2; // 'ADC'
let t: TestServer;
let db: IcrsDatabase;
let http: AxiosInstance;
let replication: Replication;
const token: Record<string, string> = {};
const ids: Record<string, string> = {};

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newClient(firstName: string): Promise<string> {
  const body = { ...sampleBody(profile, {}), prof_Reg_No: registrationNumber('ADC'), firstName } as Record<string, unknown>;
  expect((await t.api('POST', '/profile/', { token: token.field, body })).status).toBe(201);
  const id = String(body.prof_Id);
  expect((await t.api('POST', '/profile/skprofile/', { token: token.field, body: { prof_Id: id, diploma: 'Diploma' } })).status).toBe(201);
  return id;
}

const local = async (id: string) => ({
  profile: (await collectionOf(db, profile).findOne(id).exec())?.toJSON() as Record<string, unknown> | undefined,
  skills: (await collectionOf(db, skills).findOne(id).exec())?.toJSON() as Record<string, unknown> | undefined,
});

beforeAll(async () => {
  t = await startTestServer();
  await ensureOrganisations(t.server.db);
  for (const [name, role] of [
    ['field', 3],
    ['other', 3],
    ['office', 5],
  ] as const) {
    ({ userId: ids[name] as string } = await t.createUser({ userName: `dep-${name}`, password: `password-${name}`, role, location: ORG }));
    token[name] = await t.login(`dep-${name}`, `password-${name}`);
  }
  http = axios.create({ baseURL: `${t.url}/api`, headers: { Authorization: `Bearer ${token.field}`, 'Accept-Language': 'en' } });
  db = await openTestDb();
}, 120_000);

afterAll(async () => {
  await replication?.stop();
  await db?.close();
  await t?.close();
});

it('removes a reassigned client with its records at once, and uploads a pending edit of one before removing it', async () => {
  const quiet = await newClient('Quiet');
  const edited = await newClient('Edited');
  const kept = await newClient('Kept');
  replication = startReplication({
    db,
    http,
    token: token.field as string,
    tables: [profile.table, skills.table],
    eventSource: fetchEventSource({ reconnectMs: 100 }),
    retryTime: 200,
  });
  await replication.awaitInSync();
  for (const id of [quiet, edited, kept])
    expect(await local(id)).toMatchObject({ profile: { syncState: 'synced' }, skills: { syncState: 'synced' } });

  // An edit waits on the device.
  const data = createDataLayer({ db, http, isOnline: () => false, user: null, lists: null });
  await data.update(profile, edited, { lastName: 'Editedoffline' });
  expect((await local(edited)).profile).toMatchObject({ syncState: 'pending' });

  // Both are given to another worker: the stream tells the device, which drops the quiet one
  // and its record, and keeps the pending one.
  const moved = await t.api('POST', '/profile/assign', { token: token.office, body: { clients: [quiet, edited], to: ids.other } });
  expect(moved.status).toBe(200);
  await until(async () => {
    const now = await local(quiet);
    return !now.profile && !now.skills;
  }, 'the removal of the reassigned client');
  expect((await local(edited)).profile).toMatchObject({ syncState: 'pending', lastName: 'Editedoffline' });
  expect((await local(kept)).profile).toMatchObject({ syncState: 'synced' });

  // Uploaded once: on the server with the edit, then gone from the device with its records.
  await uploadAll({ db, http, notify: () => undefined, isConnected: () => true });
  expect(await countPending(db)).toBe(0);
  const server = await t.api('GET', `/profile/${edited}`, { token: token.office });
  expect(server.body).toMatchObject({ lastName: 'Editedoffline', assignedTo: ids.other });
  await until(async () => {
    const now = await local(edited);
    return !now.profile && !now.skills;
  }, 'the removal of the uploaded client');
  // Nothing came back, nothing was uploaded twice.
  const history = await t.api('GET', `/audit?recordId=${edited}&action=update`, { token: token.office });
  expect(history.status).toBe(403); // role 5 reads no audit log; the count is read below
  const [{ n } = { n: -1 }] = await t.server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "audit_log" WHERE "recordId" = $1 AND "action" = 'update'`,
    [edited],
  );
  expect(n).toBe(1);
  expect((await local(kept)).profile).toMatchObject({ syncState: 'synced' });
}, 120_000);
