// The upload engine and the pull replication together (ADR-0018), as in the app: the same
// store, the change stream on, a real server, random delays on every answer (the engine's and the
// pull's), lost answers, a server restart and a page reload (the replication stopped and started
// again, its memory lost) in some runs. Every run must end with no record pending (right after
// the upload and after the next pull), every record exactly once on the server, every record
// mirrored on the device as the server's copy, and no settled record ever written back as
// pending (a "resurrection").
//
// It runs for the two feeds a device pulls (docs/offline-contract.md "The caseload"): a field
// worker's (role 3, the caseload) and office staff's (role 5, the organisation's window), on
// PGlite and on PostgreSQL when TEST_DATABASE_URL is set. In every run but the restarts, clients
// are reassigned to another worker while their records are on their way: one whose edits wait on
// the device (reassigned as the upload starts), one registered in this run (reassigned as soon
// as its record reached the server, its sub-records still to go). On the caseload's device they
// must upload once, then leave the device with every record of theirs, told by the change
// stream, and never come back; office staff's device keeps them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axios, { type AxiosInstance } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { business, profile, profileImage, security, serviceProvider, skills, social } from '../../schemas/index';
import { createDataLayer } from '../../src/lib/data';
import { countPending, uploadAll, type UploadDeps } from '../../src/lib/sync/upload';
import { collectionOf, OFFLINE_ENTITIES, type IcrsDatabase } from '../../src/lib/store/database';
import { startReplication, type Replication } from '../../src/lib/sync/replication';
import { backends, createScratchDatabase, type Backend, type ScratchDatabase } from '../helpers/db';
import { fetchEventSource } from '../helpers/event-source';
import { seededRandom, startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { writeUnit } from '../helpers/pending';
import { ensureOrganisations } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';
import { startTestServer, type TestServer } from '../helpers/server';
import { UploadLedger } from '../helpers/upload-ledger';

type Body = Record<string, unknown>;

/** Runs and record graphs per run (12 records each): ICRS_UPLOAD_PULL_RUNS=100 for a long soak. */
const RUNS = Number(process.env.ICRS_UPLOAD_PULL_RUNS ?? 20);
const GRAPHS_PER_RUN = 2;
const SEED = Number(process.env.ICRS_UPLOAD_PULL_SEED ?? 1017);
/** The roles whose device is played: ICRS_UPLOAD_PULL_ROLES=3 for the caseload alone. */
const ROLES = (process.env.ICRS_UPLOAD_PULL_ROLES ?? '3,5').split(',').map(Number);
/** The records of a client on the device, all carrying the client's key. */
const CLIENT_DATA: readonly EntityShape[] = [profile, skills, social, security, business, profileImage];
const ORG = 1;

const feedOf = (role: number) => (role === 3 ? 'the caseload feed' : "the organisation's window");

describe.each(backends.flatMap((backend) => ROLES.map((role) => ({ backend, role, feed: feedOf(role) }))))(
  'upload engine and pull replication together, role $role ($feed), $backend',
  ({ backend, role }: { backend: Backend; role: number }) => {
    /** On the caseload's device a reassigned client leaves; the window keeps the organisation. */
    const leaves = role === 3;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-upload-pull-'));
    const random = seededRandom(SEED);
    /** PostgreSQL: one database for the whole file, so that it outlives a server restart. */
    let scratch: ScratchDatabase | undefined;
    let t: TestServer;
    /** The engine's way to the server: faults when a run asks for them. */
    let uploadProxy: FaultyProxy;
    /** The pull's and the stream's way: never faulty, but it follows the server across a restart. */
    let pullProxy: FaultyProxy;
    let token: string;
    let officeToken: string;
    let userId: string;
    let otherId: string;
    let db: IcrsDatabase;
    let replication: Replication;
    const expected = new UploadLedger();
    /** Writes that made a document pending which was not pending just before, outside seeding. */
    const resurrections: string[] = [];
    let seeding = false;
    /** Clients registered by this device, in the order of the runs. */
    const clients: string[] = [];
    /** Clients reassigned away, with the edits that waited on the device when they left. */
    const reassigned = new Map<string, { lastName?: string; diploma?: string; updatesBefore?: number }>();

    const serverConfig = () => (scratch ? { databaseUrl: scratch.url } : { dataDir }); // what was committed survives a restart

    /** An axios client whose every answer (and failure) arrives after a random delay of up to `maxMs`. */
    function delayedClient(baseURL: string, maxMs: number): AxiosInstance {
      const client = axios.create({ baseURL, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
      const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * maxMs)));
      client.interceptors.response.use(
        async (response) => {
          await pause();
          return response;
        },
        async (error: unknown) => {
          await pause();
          throw error;
        },
      );
      return client;
    }

    beforeAll(async () => {
      if (backend === 'postgres') scratch = await createScratchDatabase();
      t = await startTestServer({ config: serverConfig() });
      await ensureOrganisations(t.server.db);
      ({ userId } = await t.createUser({ userName: 'field', password: 'field-password-1', role, location: ORG }));
      ({ userId: otherId } = await t.createUser({ userName: 'other', password: 'other-password-1', role: 3, location: ORG }));
      await t.createUser({ userName: 'office', password: 'office-password-1', role: 5, location: ORG });
      token = await t.login('field', 'field-password-1');
      officeToken = await t.login('office', 'office-password-1');
      uploadProxy = await startFaultyProxy({ target: t.url, seed: SEED });
      pullProxy = await startFaultyProxy({ target: t.url });
      db = await openTestDb();
      for (const entity of OFFLINE_ENTITIES) {
        collectionOf(db, entity).$.subscribe((event) => {
          const now = event.documentData as Body | undefined;
          const before = event.previousDocumentData as Body | undefined;
          const wasPending = event.operation === 'UPDATE' && before?.syncState === 'pending';
          if (!seeding && event.operation !== 'DELETE' && now?.syncState === 'pending' && !wasPending)
            resurrections.push(`${entity.table} ${event.documentId}`);
        });
      }
      replication = startPulling();
      await replication.awaitInSync();
    }, 180_000);

    function startPulling(): Replication {
      return startReplication({
        db,
        http: delayedClient(`${pullProxy.url}/api`, 40),
        token,
        eventSource: fetchEventSource({ reconnectMs: 100 }),
        retryTime: 200,
      });
    }

    /** A page reload: the replication stops (rows it held in memory are gone) and starts again. */
    async function reloadPage(): Promise<void> {
      await replication.stop();
      replication = startPulling();
    }

    afterAll(async () => {
      await replication?.stop();
      await db?.close();
      await uploadProxy?.close();
      await pullProxy?.close();
      await t?.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    // --- local records (the shape the data layer stores offline) -------------------------------

    const col = (entity: EntityShape) => collectionOf(db, entity);

    /** One record of every kind (job, other job, provider, service, apprenticeship, vocational,
     * profile with skills, social, security, business and its photo), half the jobs and services
     * with an image; answers the client's key. */
    async function seedGraph(i: number): Promise<string> {
      const prof = await writeUnit(
        expected.writer(() => db),
        { job: i % 2 === 0 ? 1 : undefined, service: i % 2 === 1 ? 2 : undefined },
      );
      clients.push(prof);
      return prof;
    }

    /** A client of an earlier run, on the device as the server's copy, edited offline (the
     * client and its skills) through the data layer, as the client's page does. */
    async function editOffline(run: number): Promise<string | undefined> {
      const staying = clients.filter((id) => !reassigned.has(id));
      const id = staying[Math.floor(random() * staying.length)];
      if (!id) return undefined;
      const data = createDataLayer({
        db,
        http: delayedClient(`${uploadProxy.url}/api`, 0),
        isOnline: () => false,
        user: null,
        lists: null,
      });
      const edit = { lastName: `Editedoffline${run}`, diploma: `Diploma of run ${run}`, updatesBefore: await updatesOf(id) };
      await data.update(profile, id, { lastName: edit.lastName });
      await data.update(skills, id, { diploma: edit.diploma });
      reassigned.set(id, edit); // reassigned as the upload starts
      return id;
    }

    /** The server's audit entries of updates of a client and its one-per-client records. */
    async function updatesOf(id: string): Promise<number> {
      const [row] = await t.server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "audit_log" WHERE "recordId" = $1 AND "action" = 'update'`,
        [id],
      );
      return row?.n ?? 0;
    }

    /** Gives clients to the other worker, as office staff do, retried across a server restart. */
    async function reassign(ids: readonly string[]): Promise<void> {
      for (let attempt = 1; ; attempt += 1) {
        const moved = await t
          .api('POST', '/profile/assign', { token: officeToken, body: { clients: ids, to: otherId } })
          .catch(() => undefined);
        if (moved?.status === 200) return;
        if (attempt >= 40) throw new Error(`reassigning ${ids.join(', ')}: ${moved?.status} ${JSON.stringify(moved?.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    // --- running and checking ------------------------------------------------------------------

    function deps(): UploadDeps {
      return { db, http: delayedClient(`${uploadProxy.url}/api`, 30), notify: () => undefined, isConnected: () => true };
    }

    async function restartServer(): Promise<void> {
      await t.close();
      t = await startTestServer({ config: serverConfig() });
      uploadProxy.setTarget(t.url);
      pullProxy.setTarget(t.url);
      officeToken = await t.login('office', 'office-password-1');
    }

    /** The records of these clients on the device, live, as "table key". */
    async function onDevice(ids: readonly string[]): Promise<string[]> {
      const found = await Promise.all(
        CLIENT_DATA.map(async (entity) =>
          (
            await col(entity)
              .find({ selector: { prof_Id: { $in: [...ids] } } })
              .exec()
          ).map((d) => `${entity.table} ${d.primary}`),
        ),
      );
      return found.flat();
    }

    async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
      const end = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    /** Every uploaded record is on the device as the server's copy (none missing from the
     * mirror), but those of the clients that left the caseload, which are gone. */
    async function expectMirrored(run: number): Promise<void> {
      const gone = leaves ? new Set(reassigned.keys()) : new Set<string>();
      for (const [entity, keys] of expected.keys) {
        const docs = await col(entity)
          .findByIds([...keys])
          .exec();
        const ofLeft = (key: string) => CLIENT_DATA.includes(entity) && gone.has(key.split('|')[0] as string);
        const synced = [...docs.values()].filter((d) => d.get('syncState') === 'synced' && !ofLeft(d.primary)).length;
        const wanted = [...keys].filter((key) => !ofLeft(key)).length;
        expect(synced, `run ${run}: ${entity.table} mirrored as server copies`).toBe(wanted);
      }
      if (leaves) expect(await onDevice([...gone]), `run ${run}: records of clients who left the caseload`).toEqual([]);
    }

    /** Lost: a record missing on the server; doubled: a row of this worker beyond those made. */
    async function expectOnServerExactlyOnce(run: number): Promise<void> {
      const sql = t.server.db;
      await expected.expectOnServer(sql, userId, `run ${run}: `);
      // The clients that left: with the other worker, each edit there, written once.
      for (const [id, edit] of reassigned) {
        const [row] = await sql.query<{ assignedTo: string; lastName: string }>(
          `SELECT "assignedTo", "lastName" FROM "tbl_profiles" WHERE "prof_Id" = $1`,
          [id],
        );
        expect(row?.assignedTo, `run ${run}: ${id} reassigned`).toBe(otherId);
        if (!edit.lastName) continue;
        expect(row?.lastName, `run ${run}: the edit of ${id} uploaded`).toBe(edit.lastName);
        const [sk] = await sql.query<{ diploma: string }>(`SELECT "diploma" FROM "tbl_skills" WHERE "prof_Id" = $1`, [id]);
        expect(sk?.diploma, `run ${run}: the skills edit of ${id} uploaded`).toBe(edit.diploma);
        expect((await updatesOf(id)) - (edit.updatesBefore ?? 0), `run ${run}: updates of ${id} (client and skills)`).toBe(2);
      }
    }

    it(`${RUNS} runs with random delays, lost answers, server restarts, reloads and clients reassigned mid-upload: 0 pending, every record once, mirrored or gone with its client, none resurrected`, async () => {
      let restarts = 0;
      let reloads = 0;
      let uploads = 0;
      for (let run = 1; run <= RUNS; run += 1) {
        seeding = true;
        const restart = run % 10 === 2;
        const edited = restart ? undefined : await editOffline(run);
        const fresh: string[] = [];
        for (let g = 0; g < GRAPHS_PER_RUN; g += 1) fresh.push(await seedGraph(run * GRAPHS_PER_RUN + g));
        seeding = false;
        const faulty = run % 3 === 0;
        const reload = run % 2 === 1;
        uploadProxy.setFaults(
          faulty ? { failRate: 0.05, failAfterRate: 0.05, dropRate: 0.1 } : { failRate: 0, failAfterRate: 0, dropRate: 0 },
        );

        // Reassigned while on their way: the edited client as the upload starts; the first new
        // client as soon as its record is on the server (the engine settled it), before its
        // sub-records and photo.
        const leaving: Promise<void>[] = [];
        let editedMoved = false;
        const leaver = restart ? undefined : fresh[0];
        const settled = leaver
          ? col(profile).$.subscribe((event) => {
              if (event.documentId !== leaver || event.operation !== 'DELETE' || reassigned.has(leaver)) return;
              reassigned.set(leaver, {});
              leaving.push(reassign([leaver]));
            })
          : undefined;

        let restarting: Promise<void> | undefined;
        let reloading: Promise<void> | undefined;
        let rounds = 0;
        /** What each upload left, to say why a plain run needed more than one. */
        const left: string[] = [];
        for (; rounds < 40 && (await countPending(db)) > 0; rounds += 1) {
          const report = await uploadAll(deps(), {
            onProgress: (r) => {
              if (edited && !editedMoved && r.done >= 1) {
                editedMoved = true;
                leaving.push(reassign([edited]));
              }
              if (restart && !restarting && r.done >= r.total / 3) restarting = restartServer();
              if (reload && !reloading && r.done >= r.total / 2) reloading = reloadPage();
            },
          });
          await restarting;
          await reloading;
          left.push(
            ...report.kinds.flatMap((k) => k.errors.map((e) => `${k.table} ${e.key}: ${e.message}`)),
            ...(
              await Promise.all(
                OFFLINE_ENTITIES.map(async (e) =>
                  (
                    await col(e)
                      .find({ selector: { syncState: 'pending' } })
                      .exec()
                  ).map((d) => `${e.table} ${d.primary} pending`),
                ),
              )
            ).flat(),
          );
        }
        uploads += rounds;
        settled?.unsubscribe();
        await Promise.all(leaving);
        if (restarting) restarts += 1;
        if (reloading) reloads += 1;
        expect(await countPending(db), `run ${run}: pending after ${rounds} uploads`).toBe(0);
        // A plain run needs one upload; lost answers and a restart may need a few.
        if (!faulty && !restart) expect(rounds, `run ${run}: uploads needed; left by the first: ${left.join('; ')}`).toBe(1);
        if (leaver) expect(reassigned.has(leaver), `run ${run}: the new client was reassigned`).toBe(true);

        // The change stream tells the device: the clients that left go without another request.
        if (leaves) await until(async () => (await onDevice([...reassigned.keys()])).length === 0, `run ${run}: the leavers' removal`);
        await replication.awaitInSync();
        expect(await countPending(db), `run ${run}: pending after the next pull`).toBe(0);
        replication.reSync();
        await replication.awaitInSync();
        expect(await countPending(db), `run ${run}: pending after another pull`).toBe(0);
        expect(resurrections, `run ${run}: records written back as pending`).toEqual([]);
        await expectOnServerExactlyOnce(run);
        await expectMirrored(run);
      }
      expect(restarts).toBeGreaterThan(0);
      expect(reloads).toBeGreaterThan(0);
      expect(uploadProxy.stats.dropped).toBeGreaterThan(0);
      expect([...reassigned.values()].filter((e) => e.lastName).length).toBeGreaterThan(0);
      // The pull did mirror the uploads: every uploaded provider is in the store as a server copy.
      const providers = await col(serviceProvider)
        .findByIds([...(expected.keys.get(serviceProvider) ?? [])])
        .exec();
      expect([...providers.values()].every((d) => d.get('syncState') === 'synced')).toBe(true);
      expect(providers.size).toBe(expected.keys.get(serviceProvider)?.size);
      const records = [...expected.keys.values()].reduce((n, keys) => n + keys.size, 0);
      console.info(
        `[upload-pull] role ${role}, ${backend}, seed ${SEED}: ${RUNS} runs, ${uploads} uploads, ${records} records, ${reassigned.size} clients reassigned mid-upload (${leaves ? 'gone from the device' : 'kept'}): 0 lost, 0 doubled, 0 resurrected`,
      );
    }, 600_000);
  },
);
