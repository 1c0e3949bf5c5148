// The engine's batched upload (ADR-0013): a batch with one invalid record, a batch whose answer is
// lost, a batch over the size limit, more records than one batch takes, and progress per record;
// records with small images in multipart batches (large ones alone), with the same faults.
// The fault tests (upload-faults, upload-pull) run the batched mode too, under random faults.
import axios, { type AxiosInstance } from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EntityShape } from '../../schemas/define';
import { docFromRow } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber } from '../../schemas/ids';
import { file, job, otherJob, profile, profileImage, PUSH_LIMITS, service, serviceProvider, skills } from '../../schemas/index';
import { countPending, listPending, uploadAll, type UploadDeps, type UploadReport } from '../../src/lib/sync/upload';
import { collectionOf, type IcrsDatabase } from '../../src/lib/store/database';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { startFieldSetup } from '../helpers/field';
import { bodyOf, photoBody } from '../helpers/pending';
import { PNG_1PX } from '../helpers/records';
import { addPending as addPendingTo, addPendingImage, openTestDb } from '../helpers/rxdb';
import type { TestServer } from '../helpers/server';

type Body = Record<string, unknown>;
const PUSH = `/sync/push/`;

let t: TestServer;
let token: string;
let proxy: FaultyProxy;
let db: IcrsDatabase | undefined;

beforeAll(async () => {
  ({ t, token } = await startFieldSetup());
  // Faults only on batches: the lost answers below are those of a whole batch.
  proxy = await startFaultyProxy({
    target: t.url,
    seed: 16,
    faultable: (method, url) => method === 'POST' && url.startsWith('/api/sync/push/'),
  });
});
afterEach(async () => {
  await db?.close();
  db = undefined;
  proxy.setFaults({ failRate: 0, failAfterRate: 0, dropRate: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

const addPending = (entity: EntityShape, body: Body) => addPendingTo(db as IcrsDatabase, entity, body);

/** `n` pending jobs (with `extra` fields) and one other job under each. */
async function seedJobs(n: number, extra: Body = {}): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const key = await addPending(job, { ...sampleBody(job), ...extra });
    await addPending(otherJob, sampleBody(otherJob, { job: key }));
    keys.push(key);
  }
  return keys;
}

function client(baseURL = `${t.url}/api`): { http: AxiosInstance; log: string[] } {
  const http = axios.create({ baseURL, headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
  const log: string[] = [];
  http.interceptors.request.use((config) => {
    const form = config.data instanceof FormData ? config.data : undefined;
    const batch = form?.has('records') ? (JSON.parse(String(form.get('records'))) as { records: unknown[] }) : undefined;
    const records = (batch ?? (config.data as { records?: unknown[] } | undefined))?.records;
    const images = form ? [...form.values()].filter((v) => v instanceof Blob).length : 0;
    log.push(
      `${String(config.method).toUpperCase()} ${config.url}${records ? ` ×${records.length}` : ''}${batch ? ` +${images} images` : ''}`,
    );
    return config;
  });
  return { http, log };
}

function deps(http: AxiosInstance): UploadDeps & { notify: ReturnType<typeof vi.fn> } {
  return { db: db as IcrsDatabase, http, notify: vi.fn(), isConnected: () => true } as UploadDeps & { notify: ReturnType<typeof vi.fn> };
}

async function serverCount(entity: EntityShape, keys: readonly string[]): Promise<number> {
  const column = entity.keyFields[0] as string;
  const [row] = await t.server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "${entity.table}" WHERE "${column}" = ANY($1::text[])`,
    [[...keys]],
  );
  return row?.n ?? 0;
}

/** A pending image of `bytes` in slot 1 of a job. */
const addImage = (srcId: string, bytes: Buffer) => addPendingImage(db as IcrsDatabase, job, srcId, 1, bytes);

/** Stored images (owner:slot:size) of these jobs on the server. */
async function serverImages(keys: readonly string[]): Promise<string[]> {
  const rows = await t.server.db.query<{ ownerId: string; slot: string; size: number }>(
    'SELECT "ownerId", "slot", "size" FROM "images" WHERE "ownerId" = ANY($1::text[]) ORDER BY "ownerId", "slot"',
    [[...keys]],
  );
  return rows.map((r) => `${r.ownerId}:${r.slot}:${r.size}`);
}

const localImages = async () =>
  (
    await collectionOf(db as IcrsDatabase, file)
      .find()
      .exec()
  ).length;

/** An image of about `kb` KB (a PNG and filler the server stores as it is). */
const imageOf = (kb: number) => Buffer.concat([PNG_1PX, Buffer.alloc(kb * 1024, 7)]);

const batches = (log: string[]) => log.filter((line) => line.startsWith(`POST ${PUSH}`));

describe('batched upload', () => {
  it('sends records without images in batches, parents first, with progress per record', async () => {
    db = await openTestDb();
    const keys = await seedJobs(PUSH_LIMITS.records + 20);
    const { http, log } = client();
    const seen: UploadReport[] = [];
    const report = await uploadAll(deps(http), { onProgress: (r) => seen.push(r) });
    expect(report).toMatchObject({ total: 240, uploaded: 240, percent: 100 });
    // 120 jobs: a batch of 100 and one of 20; then the other jobs, the same.
    expect(batches(log)).toEqual([
      `POST ${PUSH}${encodeURIComponent(job.table)} ×100`,
      `POST ${PUSH}${encodeURIComponent(job.table)} ×20`,
      `POST ${PUSH}${otherJob.table} ×100`,
      `POST ${PUSH}${otherJob.table} ×20`,
    ]);
    expect(log).toHaveLength(4);
    // The bar moves record by record, not batch by batch.
    const done = seen.map((r) => r.done);
    expect(done.slice(1, 6)).toEqual([1, 2, 3, 4, 5]);
    expect(await serverCount(job, keys)).toBe(120);
    expect(await countPending(db)).toBe(0);
  });

  it('a batch with one invalid record: the others land, that one is kept with its error and its child waits', async () => {
    db = await openTestDb();
    const keys: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      // The third is numbered for another organisation: the server refuses it (product.md §5), the store cannot tell.
      const prof = await addPending(profile, { ...sampleBody(profile), prof_Reg_No: registrationNumber(i === 2 ? 'ADC' : 'ICRS') });
      await addPending(skills, sampleBody(skills, { profile: prof }));
      keys.push(prof);
    }
    const bad = keys[2] as string;
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d);
    expect(batches(log)).toContain(`POST ${PUSH}${profile.table} ×5`);
    const profiles = report.kinds.find((k) => k.table === profile.table);
    expect(profiles).toMatchObject({ total: 5, success: 4, failed: 1, errors: [{ key: bad, message: expect.stringContaining('ICRS') }] });
    expect(report.kinds.find((k) => k.table === skills.table)).toMatchObject({
      total: 5,
      success: 4,
      skipped: 1,
      errors: [{ message: 'parent not uploaded' }],
    });
    expect(d.notify).toHaveBeenCalledWith('Save Prof basic Error', expect.stringContaining('ICRS'));
    expect(await serverCount(profile, keys)).toBe(4);
    expect(await listPending(db)).toMatchObject([
      { table: profile.table, key: bad, state: 'failed', attempts: 1, lastError: expect.stringContaining('ICRS') },
      { table: skills.table, state: 'pending' },
    ]);
  });

  it('a batch whose answer is lost: kept, and the next upload settles it as duplicate entries, nothing doubled', async () => {
    db = await openTestDb();
    const keys = await seedJobs(30);
    proxy.setFaults({ dropRate: 1 });
    const { http } = client(`${proxy.url}/api`);
    const lost = await uploadAll(deps(http));
    expect(proxy.stats.dropped).toBeGreaterThan(0);
    // The server stored the jobs, the device does not know it.
    expect(await serverCount(job, keys)).toBe(30);
    expect(lost.kinds[0]).toMatchObject({ failed: 30, success: 0 });
    expect(await countPending(db)).toBe(60);

    proxy.setFaults({ dropRate: 0 });
    const again = await uploadAll(deps(http));
    expect(again.kinds[0]).toMatchObject({ success: 30, failed: 0 });
    expect(again.kinds[1]).toMatchObject({ success: 30, failed: 0 });
    expect(await serverCount(job, keys)).toBe(30);
    const [mine] = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "available-jobs" WHERE "jb_Id" = ANY($1::text[])`,
      [keys],
    );
    expect(mine?.n).toBe(30);
    expect(await countPending(db)).toBe(0);
  });

  it('an answer lost after the server stored part of the kind, edits made meanwhile still reach the server', async () => {
    db = await openTestDb();
    const keys = await seedJobs(10);
    proxy.setFaults({ failAfterRate: 1 });
    const { http } = client(`${proxy.url}/api`);
    await uploadAll(deps(http));
    // Edited offline after the lost answer: the duplicate carries a newer local copy.
    await collectionOf(db, job)
      .findOne(keys[0])
      .exec()
      .then((d) => d?.incrementalPatch({ title: 'Edited after the lost answer' }));
    proxy.setFaults({ failAfterRate: 0 });
    await uploadAll(deps(http));
    expect(await countPending(db)).toBe(0);
    const [row] = await t.server.db.query<{ title: string }>('SELECT "title" FROM "available-jobs" WHERE "jb_Id" = $1', [keys[0]]);
    expect(row?.title).toBe('Edited after the lost answer');
    expect(await serverCount(job, keys)).toBe(10);
  });

  it('a batch over the size limit is split, not refused', async () => {
    db = await openTestDb();
    const long = 'é'.repeat(4000); // 8,000 bytes of UTF-8; two such fields per job
    const keys = await seedJobs(80, { description: long, requirements: long });
    // Filled far past the server's limit on purpose: the server's 413 splits it.
    const { http, log } = client();
    const report = await uploadAll(deps(http), { batchBytes: 10 * PUSH_LIMITS.bytes });
    expect(report.kinds[0]).toMatchObject({ total: 80, success: 80, failed: 0 });
    expect(batches(log)[0]).toBe(`POST ${PUSH}${encodeURIComponent(job.table)} ×80`);
    expect(batches(log).filter((line) => line.includes(encodeURIComponent(job.table))).length).toBeGreaterThan(2);
    expect(await serverCount(job, keys)).toBe(80);
    expect(await countPending(db)).toBe(0);

    // By default the engine fills batches below the limit: no refusal at all.
    await db.close();
    db = await openTestDb();
    const more = await seedJobs(80, { description: long, requirements: long });
    const second = client();
    const d = deps(second.http);
    await uploadAll(d);
    const jobBatches = batches(second.log).filter((line) => line.includes(encodeURIComponent(job.table)));
    expect(jobBatches.length).toBe(2);
    expect(d.notify).not.toHaveBeenCalled();
    expect(await serverCount(job, more)).toBe(80);
  });

  it('a kind leaves once the one before it has sent everything, but never before the kinds it refers to have finished', async () => {
    db = await openTestDb();
    await seedJobs(3);
    for (let i = 0; i < 3; i += 1)
      await addPending(service, sampleBody(service, { serviceProvider: await addPending(serviceProvider, sampleBody(serviceProvider)) }));
    const { http } = client();
    const events: string[] = [];
    const tableOf = (url = '') => decodeURIComponent(url.replace(PUSH, ''));
    http.interceptors.request.use((config) => {
      events.push(`sent ${tableOf(config.url)}`);
      return config;
    });
    http.interceptors.response.use(async (response) => {
      // The other jobs' answer comes late: the providers (which refer to nothing) go meanwhile.
      if (tableOf(response.config.url) === otherJob.table) await new Promise((resolve) => setTimeout(resolve, 300));
      events.push(`answered ${tableOf(response.config.url)}`);
      return response;
    });
    const report = await uploadAll(deps(http));
    expect(report).toMatchObject({ total: 12, uploaded: 12 });
    const at = (event: string) => events.indexOf(event);
    const [jobs, others, providers, services] = [job, otherJob, serviceProvider, service].map((e) => e.table);
    expect(at(`answered ${jobs}`)).toBeLessThan(at(`sent ${others}`)); // children after their parents
    expect(at(`answered ${providers}`)).toBeLessThan(at(`sent ${services}`));
    expect(at(`sent ${others}`)).toBeLessThan(at(`sent ${providers}`)); // spec order of leaving
    expect(at(`sent ${providers}`)).toBeLessThan(at(`answered ${others}`)); // the waits overlap
    expect(await countPending(db)).toBe(0);
  });

  it('one request per record is kept for comparison (batch: false) with the same result', async () => {
    db = await openTestDb();
    const keys = await seedJobs(6);
    const { http, log } = client();
    const report = await uploadAll(deps(http), { batch: false });
    expect(report).toMatchObject({ uploaded: 12, percent: 100 });
    expect(batches(log)).toEqual([]);
    expect(log.filter((line) => line === 'POST /jobs/')).toHaveLength(6);
    expect(await serverCount(job, keys)).toBe(6);
  });
});

describe('batched upload with images', () => {
  const JOBS = encodeURIComponent(job.table);

  it('small images travel in the batch (multipart), large ones alone; every record and image lands once', async () => {
    db = await openTestDb();
    const small = imageOf(100);
    const large = imageOf(PUSH_LIMITS.smallImage / 1024 + 10);
    const keys = await seedJobs(6);
    for (const key of keys.slice(0, 4)) await addImage(key, small);
    await addImage(keys[5] as string, large);
    const { http, log } = client();
    const seen: UploadReport[] = [];
    const report = await uploadAll(deps(http), { onProgress: (r) => seen.push(r) });
    expect(report.kinds[0]).toMatchObject({ total: 6, success: 6, failed: 0, images: 5 });
    expect(batches(log)).toContain(`POST ${PUSH}${JOBS} ×5 +4 images`);
    expect(log.filter((line) => line === 'POST /jobs/')).toHaveLength(1);
    expect(await serverImages(keys)).toEqual(
      [...keys.slice(0, 4).map((k) => `${k}:jb_img1:${small.length}`), `${keys[5]}:jb_img1:${large.length}`].sort(),
    );
    expect(seen.map((r) => r.done).slice(1, 7)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await countPending(db)).toBe(0);
    expect(await localImages()).toBe(0);
  });

  it('one invalid image fails only its record, kept with its error and its image; the others land', async () => {
    db = await openTestDb();
    const keys = await seedJobs(4);
    for (const key of keys) await addImage(key, key === keys[1] ? Buffer.from('GIF89a not an image the server takes') : imageOf(1));
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d);
    expect(batches(log)).toContain(`POST ${PUSH}${JOBS} ×4 +4 images`);
    expect(report.kinds[0]).toMatchObject({ total: 4, success: 3, failed: 1, imagesFailed: 1, errors: [{ key: keys[1] }] });
    expect(report.kinds[1]).toMatchObject({ success: 3, skipped: 1, errors: [{ message: 'parent not uploaded' }] });
    expect(d.notify).toHaveBeenCalledWith('JAALL Error', expect.stringMatching(/type/i));
    expect(await serverCount(job, keys)).toBe(3);
    expect(await serverImages([keys[1] as string])).toEqual([]);
    expect(await listPending(db)).toMatchObject([
      { table: job.table, key: keys[1], state: 'failed', attempts: 1 },
      { table: otherJob.table, state: 'pending' },
    ]);
    expect(await localImages()).toBe(1);
  });

  it('a multipart batch whose answer is lost: the next upload settles it, no record or image doubled', async () => {
    db = await openTestDb();
    const image = imageOf(50);
    const keys = await seedJobs(8);
    for (const key of keys.slice(0, 5)) await addImage(key, image);
    proxy.setFaults({ dropRate: 1 });
    const { http } = client(`${proxy.url}/api`);
    const lost = await uploadAll(deps(http));
    expect(proxy.stats.dropped).toBeGreaterThan(0);
    expect(lost.kinds[0]).toMatchObject({ failed: 8, success: 0 });
    // The server stored them, the device does not know it.
    expect(await serverCount(job, keys)).toBe(8);
    expect(await localImages()).toBe(5);

    proxy.setFaults({ dropRate: 0 });
    const again = await uploadAll(deps(http));
    expect(again.kinds[0]).toMatchObject({ success: 8, failed: 0 });
    expect(again.kinds[1]).toMatchObject({ success: 8, failed: 0 });
    expect(await serverCount(job, keys)).toBe(8);
    expect(await serverImages(keys)).toEqual(
      keys
        .slice(0, 5)
        .map((k) => `${k}:jb_img1:${image.length}`)
        .sort(),
    );
    expect(await countPending(db)).toBe(0);
    expect(await localImages()).toBe(0);
  });

  it('an offline edit that clears a field and adds a small image: one batch, the null and the image both reach the server', async () => {
    db = await openTestDb();
    const created = await t.api('POST', '/jobs/', { token, body: sampleBody(job) });
    expect(created.body.address).toBeTruthy();
    const key = String(created.body.jb_Id);
    const { address: _cleared, ...edited } = created.body as Body;
    const doc = docFromRow(job, edited) as Body;
    await collectionOf(db, job).insert({ ...doc, syncState: 'pending', syncOp: 'update', syncBase: created.body.updatedAt });
    const image = imageOf(10);
    await addImage(key, image);
    const { http, log } = client();
    const report = await uploadAll(deps(http));
    expect(report.kinds[0]).toMatchObject({ success: 1, images: 1 });
    // Multipart cannot carry a null, but the batch's records are JSON: one request, not two.
    expect(log).toEqual([`POST ${PUSH}${JOBS} ×1 +1 images`]);
    const [row] = await t.server.db.query<{ address: string | null }>('SELECT "address" FROM "available-jobs" WHERE "jb_Id" = $1', [key]);
    expect(row?.address).toBeNull();
    expect(await serverImages([key])).toEqual([`${key}:jb_img1:${image.length}`]);
    expect(await countPending(db)).toBe(0);
  });

  it('a batch over the image limit is split, not refused', async () => {
    db = await openTestDb();
    const image = imageOf(200);
    const keys = await seedJobs(24);
    for (const key of keys) await addImage(key, image);
    // Filled past the server's limit on purpose (24 × 200 KB > 4 MB): its 413 splits the batch.
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d, { batchImageBytes: 10 * PUSH_LIMITS.imageBytes });
    expect(report.kinds[0]).toMatchObject({ total: 24, success: 24, failed: 0, images: 24 });
    const jobBatches = batches(log).filter((line) => line.includes(JOBS));
    expect(jobBatches[0]).toBe(`POST ${PUSH}${JOBS} ×24 +24 images`);
    expect(jobBatches.length).toBeGreaterThan(2);
    expect(d.notify).not.toHaveBeenCalled();
    expect(await serverImages(keys)).toHaveLength(24);
    expect(await countPending(db)).toBe(0);
  });
});

describe('profile images in batches', () => {
  const PHOTOS = encodeURIComponent(profileImage.table);

  /** Profiles already on the server, each with a pending photo of `bytesOf(i)` on the device. */
  async function seedPhotos(n: number, bytesOf: (i: number) => Buffer): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const body = bodyOf(profile);
      expect((await t.api('POST', `${profile.rest ?? ''}/`, { token, body })).status).toBe(201);
      const bytes = bytesOf(i);
      const id = String(body.prof_Id);
      await addPending(profileImage, photoBody(id, bytes, `p${i}.png`));
      ids.push(id);
    }
    return ids;
  }

  /** Stored photos on the server: rows (not deleted) and image bytes, owner:size. */
  async function serverPhotos(ids: readonly string[]): Promise<{ rows: number; images: string[] }> {
    const [row] = await t.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "tbl_profiles_images" WHERE "prof_Id" = ANY($1::text[]) AND NOT "deleted"',
      [[...ids]],
    );
    const images = await t.server.db.query<{ ownerId: string; size: number }>(
      'SELECT "ownerId", "size" FROM "images" WHERE "ownerTable" = $1 AND "ownerId" = ANY($2::text[]) ORDER BY "ownerId"',
      [profileImage.table, [...ids]],
    );
    return { rows: row?.n ?? 0, images: images.map((r) => `${r.ownerId}:${r.size}`) };
  }

  it('small photos travel in multipart batches of the push, large ones alone; each lands once, progress per record', async () => {
    db = await openTestDb();
    const small = imageOf(20);
    const large = imageOf(PUSH_LIMITS.smallImage / 1024 + 10);
    const ids = await seedPhotos(5, (i) => (i === 4 ? large : small));
    const { http, log } = client();
    const seen: UploadReport[] = [];
    const d = deps(http);
    const report = await uploadAll(d, { onProgress: (r) => seen.push(r) });
    const photos = report.kinds.find((k) => k.table === profileImage.table);
    expect(photos).toMatchObject({ total: 5, success: 5, failed: 0, images: 5 });
    expect(log).toEqual([`POST ${PUSH}${PHOTOS} ×4 +4 images`, `PUT ${profileImage.rest}/${ids[4]}`]);
    expect(seen.map((r) => r.done)).toEqual([0, 1, 2, 3, 4, 5, 5]);
    expect(d.notify).not.toHaveBeenCalled();
    expect(await serverPhotos(ids)).toEqual({
      rows: 5,
      images: ids.map((id, i) => `${id}:${(i === 4 ? large : small).length}`).sort(),
    });
    expect(await countPending(db)).toBe(0);
  });

  it('one refused photo fails its record alone, kept with its error and its bytes; the others land', async () => {
    db = await openTestDb();
    const ids = await seedPhotos(3, (i) => (i === 1 ? Buffer.from('GIF89a not a type the server takes') : imageOf(5)));
    const { http, log } = client();
    const d = deps(http);
    const report = await uploadAll(d);
    expect(log).toEqual([`POST ${PUSH}${PHOTOS} ×3 +3 images`]);
    expect(report.kinds.find((k) => k.table === profileImage.table)).toMatchObject({ success: 2, failed: 1, imagesFailed: 1 });
    expect(d.notify).toHaveBeenCalledWith('Profile Sync Error', expect.stringMatching(/type/i));
    expect((await serverPhotos(ids)).rows).toBe(2);
    expect(await serverPhotos([ids[1] as string])).toEqual({ rows: 0, images: [] });
    const kept = await listPending(db);
    expect(kept).toMatchObject([{ table: profileImage.table, state: 'failed', attempts: 1 }]);
    expect(kept[0]?.key).toContain(ids[1]);
    const [doc] = await collectionOf(db, profileImage).find().exec();
    expect(String(doc?.get('data'))).toBe(Buffer.from('GIF89a not a type the server takes').toString('base64'));
  });

  it('a batch whose answer is lost: the next upload sends the photos again, which replace themselves: nothing doubled', async () => {
    db = await openTestDb();
    const image = imageOf(30);
    const ids = await seedPhotos(4, () => image);
    proxy.setFaults({ dropRate: 1 });
    const { http } = client(`${proxy.url}/api`);
    const lost = await uploadAll(deps(http));
    expect(proxy.stats.dropped).toBeGreaterThan(0);
    expect(lost.kinds.find((k) => k.table === profileImage.table)).toMatchObject({ failed: 4, success: 0 });
    expect((await serverPhotos(ids)).rows).toBe(4); // stored, the device does not know it

    proxy.setFaults({ dropRate: 0 });
    const again = await uploadAll(deps(http));
    expect(again.kinds.find((k) => k.table === profileImage.table)).toMatchObject({ success: 4, failed: 0 });
    expect(await serverPhotos(ids)).toEqual({ rows: 4, images: ids.map((id) => `${id}:${image.length}`).sort() });
    const [all] = await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "images" WHERE "ownerId" = ANY($1::text[])', [
      ids,
    ]);
    expect(all?.n).toBe(4);
    expect(await countPending(db)).toBe(0);
  });
});
