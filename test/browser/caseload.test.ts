// The field worker's caseload on the device (docs/product.md §6.5.1, docs/offline-contract.md
// "The caseload"), in the built app against a real server: an organisation of 12,000 clients
// with their records; a field worker (role 3) assigned 1,500 of them, with one territory holding
// 300 more and 20 pinned. Read raw from IndexedDB (the sealed store keeps keys in clear), the
// device holds exactly those 1,820 clients and exactly their records, nothing else of the
// organisation; opened through the app, they are those clients. 100 reassigned away leave the
// device with their records at the change event; one of them, edited offline, uploads once and
// then goes. What is not on the device is counted; a search online finds one such client, and
// "keep on this device" makes them readable offline after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newDebugPage, signIn, storeReady } from '../helpers/browser';
import { ensureOrganisations } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

const ORG = 2; // 'ADC' of the seed lists
const TERRITORY = 7; // 'Beni': the worker's territory
const CLIENTS = 12_000;
const ASSIGNED = 1_500; // clients 1…1500
const IN_TERRITORY = 300; // clients 1501…1800
const PINNED = 20; // clients 1801…1820
const CASELOAD = ASSIGNED + IN_TERRITORY + PINNED;
const REASSIGNED = 100; // clients 1…100
/** A client of the organisation the device does not hold (assigned to another, elsewhere). */
const OUTSIDE = 5_000;

/** Client n's key, as the seed below makes it (a UUIDv7 shape; newest first in n). */
const clientKey = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-7000-8000-00000000c11e`;
const KEY_SQL = `lpad(to_hex(n), 8, '0') || '-0000-7000-8000-00000000c11e'`;
const lastName = (n: number) => `Muhindo${n}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The clients with a security record: one in three. */
const hasSecurity = (n: number) => n % 3 === 0;

/** The device's client collections, all keyed by (or under) the client's key. */
const CLIENT_TABLES = [
  'tbl_profiles',
  'tbl_skills',
  'tbl_profiles_social',
  'tbl_profiles_sec',
  'tbl_profiles_bstart',
  'tbl_profiles_images',
];

const field = { userName: 'caseload3', password: 'caseload-password-3', role: 3, location: ORG };
const other = { userName: 'caseload3b', password: 'caseload-password-3b', role: 3, location: ORG };
const office = { userName: 'caseload5', password: 'caseload-password-5', role: 5, location: ORG };
const orgAdmin = { userName: 'caseload7', password: 'caseload-password-7', role: 7, location: ORG };

let server: TestServer;
let browser: Browser;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};

/**
 * The organisation in SQL, in one transaction without row triggers (the audit and change
 * triggers; as bench/scale/build.ts loads): 12,000 clients, each with skills and social records,
 * one in three with a security record. Clients 1…1500 are assigned to the worker, the others to
 * another worker; clients 1501…1800 are in the worker's territory, none else is.
 */
async function seedOrganisation(): Promise<void> {
  await server.server.db.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    const created = `now() - n * (interval '2 years' / ${CLIENTS})`;
    await tx.query(
      `INSERT INTO "tbl_profiles" ("prof_Id", "prof_Reg_No", "firstName", "lastName", "sex", "territory", "consent", "location",
         "createdAt", "updatedAt", "createdBy", "updatedBy", "assignedTo")
       SELECT ${KEY_SQL}, 'ADC' || upper(lpad(to_hex(n), 6, '0')), 'Furaha', 'Muhindo' || n, CASE WHEN n % 2 = 0 THEN 'F' ELSE 'M' END,
         CASE WHEN n BETWEEN $3 + 1 AND $3 + $4 THEN $5 ELSE 1 + n % 6 END, true, $6, ${created}, ${created}, $2, $2,
         CASE WHEN n <= $3 THEN $1 ELSE $2 END
       FROM generate_series(1, $7::int) AS n`,
      [ids.field, ids.other, ASSIGNED, IN_TERRITORY, TERRITORY, ORG, CLIENTS],
    );
    for (const [table, every] of [
      ['tbl_skills', 1],
      ['tbl_profiles_social', 1],
      ['tbl_profiles_sec', 3],
    ] as const) {
      await tx.query(
        `INSERT INTO "${table}" ("prof_Id", "createdAt", "updatedAt", "createdBy", "updatedBy", "organisation")
         SELECT ${KEY_SQL}, ${created}, ${created}, $1, $1, $2 FROM generate_series(1, $3::int) AS n WHERE n % $4 = 0`,
        [ids.other, ORG, CLIENTS, every],
      );
    }
  });
  // As autovacuum leaves a table soon after a bulk load (bench/seed.ts): without statistics the
  // embedded database, which has no autovacuum, plans the caseload's reconciliation and feed
  // over 12,000 fresh rows badly enough that a first pull of the clients took minutes.
  for (const table of ['tbl_profiles', 'tbl_skills', 'tbl_profiles_social', 'tbl_profiles_sec'])
    await server.server.db.query(`VACUUM ANALYZE "${table}"`);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await ensureOrganisations(server.server.db);
  for (const [name, user] of Object.entries({ field, other, office, orgAdmin })) {
    ({ userId: ids[name] as string } = await server.createUser(user));
    tokens[name] = await server.login(user.userName, user.password);
  }
  await seedOrganisation();
  step('organisation seeded');
  // The territory, set where users are managed; the pins, as the worker makes them.
  const worker = await server.api('GET', `/users/${ids.field}`, { token: tokens.orgAdmin });
  const set = await server.api('PUT', `/users/staff/${ids.field}`, {
    token: tokens.orgAdmin,
    body: { territories: [TERRITORY], updatedAt: worker.body.updatedAt },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  for (const n of range(ASSIGNED + IN_TERRITORY + 1, CASELOAD)) {
    const pinned = await server.api('PUT', `/caseload/pins/${clientKey(n)}`, { token: tokens.field });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The live documents of each client collection, read raw from IndexedDB: their clients' keys
 * (in clear in the sealed store, src/lib/store/sealedStorage.ts), and how many are pending. Every
 * live document of client data must hold a sealed field: nothing of a client in clear. */
function rawClientData(page: Page): Promise<Record<string, { clients: string[]; pending: string[]; unsealed: number }>> {
  return page.evaluate(async (tables) => {
    const out: Record<string, { clients: string[]; pending: string[]; unsealed: number }> = {};
    const names = (await indexedDB.databases()).map((d) => d.name ?? '');
    for (const table of tables) {
      const entry = { clients: [] as string[], pending: [] as string[], unsealed: 0 };
      for (const name of names.filter((n) => n.startsWith('rxdb-dexie-icrs_db-') && n.endsWith(`--${table}`))) {
        // Never in the app's way: a database not made yet is not made here (the upgrade is
        // aborted), and this connection closes whenever the app's asks for a new version.
        const db = await new Promise<IDBDatabase | undefined>((resolve, reject) => {
          const request = indexedDB.open(name);
          request.onupgradeneeded = () => request.transaction?.abort();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => (request.error?.name === 'AbortError' ? resolve(undefined) : reject(request.error));
        });
        if (!db) continue;
        db.onversionchange = () => db.close();
        const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
          if (!db.objectStoreNames.contains('docs')) return resolve([]);
          const request = db.transaction('docs').objectStore('docs').getAll();
          request.onsuccess = () => resolve(request.result as Record<string, unknown>[]);
          request.onerror = () => reject(request.error);
        }).finally(() => db.close());
        for (const row of rows) {
          if (row._deleted === '1' || row._deleted === true) continue;
          entry.clients.push(String(row.prof_Id));
          if (row.syncState === 'pending') entry.pending.push(String(row.prof_Id));
          if (row.sealed === undefined || 'lastName' in row || 'firstName' in row) entry.unsealed += 1;
        }
      }
      out[table] = entry;
    }
    return out;
  }, CLIENT_TABLES);
}

/** What the device must hold: these clients, each with exactly the records the server has. */
function expectedData(clients: readonly number[]): Record<string, string[]> {
  const keys = (ns: readonly number[]) => ns.map(clientKey).sort();
  return {
    tbl_profiles: keys(clients),
    tbl_skills: keys(clients),
    tbl_profiles_social: keys(clients),
    tbl_profiles_sec: keys(clients.filter(hasSecurity)),
    tbl_profiles_bstart: [],
    tbl_profiles_images: [],
  };
}

async function heldData(page: Page): Promise<Record<string, string[]>> {
  const raw = await rawClientData(page);
  return Object.fromEntries(Object.entries(raw).map(([table, entry]) => [table, [...entry.clients].sort()]));
}

const poll = <T>(read: () => Promise<T>, timeout = 60_000) => expect.poll(read, { timeout, interval: 1000 });
const begun = Date.now();
/** A step's line with the time since the start: a slow machine's run says where it spent it. */
const step = (what: string) => console.info(`[caseload] ${((Date.now() - begun) / 1000).toFixed(1)} s: ${what}`);

/** The last names of these clients as the app opens them (the vault's key, the data layer). */
function openedNames(page: Page, keys: readonly string[]): Promise<string[]> {
  return page.evaluate(async (wanted) => {
    const { db, entities } = window.__icrs!;
    const collection = db.collections[entities.profile.table];
    const docs = await collection!.findByIds([...wanted]).exec();
    return [...docs.values()].map((d) => String(d.get('lastName'))).sort();
  }, keys);
}

describe('the caseload of a field worker in an organisation of 12,000 clients', () => {
  it('holds exactly its 1,820 clients and their records; 100 reassigned leave (an edited one after its upload); the rest is counted, found and pinned', async () => {
    const { context, page } = await newDebugPage(browser, { baseURL: server.url, lang: 'en' });
    await signIn(page, field.userName, field.password);
    await storeReady(page);

    // The first sign-in fills the caseload: exactly those clients and records, read raw.
    const caseload = range(1, CASELOAD);
    const started = Date.now();
    step('signed in');
    await poll(async () => {
      const held = (await rawClientData(page)).tbl_profiles?.clients.length;
      step(`${held} clients on the device`);
      return held;
    }, 150_000).toBe(CASELOAD);
    await poll(() => heldData(page), 60_000).toEqual(expectedData(caseload));
    const raw = await rawClientData(page);
    for (const [table, entry] of Object.entries(raw)) {
      expect(entry.unsealed, `${table}: documents not sealed`).toBe(0);
      expect(entry.pending, `${table}: pending`).toEqual([]);
    }
    console.info(`[caseload] ${CASELOAD} clients and their records on the device within ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Opened by the app: they are those clients (a sample across the three rules).
    const sample = [1, 750, 1500, 1501, 1650, 1800, 1801, 1820];
    expect(await openedNames(page, sample.map(clientKey))).toEqual(sample.map(lastName).sort());
    // The server's count of what the device does not hold.
    const before = await server.api('GET', '/caseload', { token: tokens.field });
    expect(before.body.figures).toMatchObject({ clients: CASELOAD, pinned: PINNED, outside: CLIENTS - CASELOAD });

    step('the caseload checked');
    // One of the clients to be reassigned is edited offline: a pending edit.
    const edited = clientKey(1);
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await storeReady(page);
    await page.evaluate(async (key) => {
      const { data, entities } = window.__icrs!;
      await data!.update(entities.profile, key, { lastName: 'Editedoffline' });
    }, edited);
    expect(await page.evaluate(() => window.__icrs?.countPending())).toBe(1);
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await storeReady(page);

    // Office staff give 100 of the worker's clients to another worker: the change event tells
    // the device, which drops them with their records, but holds the edited one.
    const away = range(1, REASSIGNED);
    const moved = await server.api('POST', '/profile/assign', {
      token: tokens.office,
      body: { clients: away.map(clientKey), to: ids.other },
    });
    expect(moved.body).toEqual({ assigned: REASSIGNED, unchanged: 0 });
    step('reassigned');
    const staying = range(REASSIGNED + 1, CASELOAD);
    await poll(() => heldData(page)).toEqual({ ...expectedData(staying), tbl_profiles: [edited, ...staying.map(clientKey)].sort() });
    expect((await rawClientData(page)).tbl_profiles?.pending).toEqual([edited]);

    step('the reassigned clients gone');
    // The upload sends the edit once; then the client goes too.
    await page.goto('/offlinehp');
    await page.getByTestId('offline-total').getByText('1 record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    const [row] = await server.server.db.query<{ lastName: string; assignedTo: string; updates: number }>(
      `SELECT "lastName", "assignedTo",
         (SELECT count(*)::int FROM "audit_log" WHERE "recordId" = $1 AND "action" = 'update') AS "updates"
       FROM "tbl_profiles" WHERE "prof_Id" = $1`,
      [edited],
    );
    expect(row).toEqual({ lastName: 'Editedoffline', assignedTo: ids.other, updates: 1 });
    await poll(() => heldData(page)).toEqual(expectedData(staying));

    step('the edited client uploaded and gone');
    // What is not on the device: counted at the last sync (the server's figures), and said by
    // the client list offline.
    const after = await server.api('GET', '/caseload', { token: tokens.field });
    const notHeld = CLIENTS - CASELOAD + REASSIGNED;
    expect(after.body.figures).toMatchObject({ clients: CASELOAD - REASSIGNED, outside: notHeld });
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.goto('/profiles');
    await page
      .getByTestId('caseload-outside')
      .getByText(`${notHeld.toLocaleString('en')} of your organisation's clients are not on this device`, { exact: false })
      .waitFor({ timeout: 30_000 });
    step('the offline count said');

    // Online, the list's search finds a client the device does not hold (the server's search);
    // "Keep on this device" on their page brings them, with their records.
    const outside = clientKey(OUTSIDE);
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/profiles');
    await page.getByTestId('grid-search').fill(lastName(OUTSIDE));
    await poll(() =>
      page
        .getByRole('row')
        .filter({ hasText: lastName(OUTSIDE) })
        .count(),
    ).toBe(1);
    await page
      .getByRole('row')
      .filter({ hasText: lastName(OUTSIDE) })
      .click();
    await page.waitForURL((url) => url.pathname.endsWith(outside));
    await page.getByTestId('client-keep').click();
    await poll(() => page.getByTestId('client-keep').textContent()).toMatch(/Remove from this device/);
    const kept = [...staying, OUTSIDE];
    await poll(() => heldData(page)).toEqual(expectedData(kept));
    step('kept and on the device');

    // Readable offline after a reload.
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await page.reload();
    await page.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();
    await storeReady(page);
    expect(await openedNames(page, [outside])).toEqual([lastName(OUTSIDE)]);
    await page.goto(`/profiles/${outside}`);
    await page.getByText(lastName(OUTSIDE)).first().waitFor({ timeout: 20_000 });
    await context.close();
  }, 400_000);
});
