// Emptying offline an image slot whose image is on the server (a wrong photo of a job or a
// service): the data layer lists the slot on the pending update, the upload engine sends it as
// `removeImages`, and the server ends with exactly what the user left, across a lost answer,
// a slot filled again, and a colleague's change meanwhile (a conflict, nothing removed).
import axios, { type AxiosInstance } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { job, service, serviceProvider } from '../../schemas/index';
import { collectionOf } from '../../src/lib/store/database';
import { uploadAll, type UploadDeps } from '../../src/lib/sync/upload';
import { CONFLICT } from '../../src/lib/sync/upload/sync-error';
import { withFieldStore } from '../helpers/field';
import { PNG_1PX } from '../helpers/records';

const field = withFieldStore();

const layer = field.layer;
const deps = (client: AxiosInstance = field.http): UploadDeps => ({ db: field.db, http: client, notify: vi.fn(), isConnected: () => true });
const png = (tag: string) => new Blob([new Uint8Array(Buffer.concat([PNG_1PX, Buffer.from(tag)]))], { type: 'image/png' });

/** A job on the server with images in slots 1 and 2, as this device saved it online. */
async function serverJobWithTwoImages(): Promise<string> {
  const body = sampleBody(job);
  delete body.jb_Id;
  const images = [
    { slot: 'jb_img1', blob: png('one'), name: 'one.png' },
    { slot: 'jb_img2', blob: png('two'), name: 'two.png' },
  ];
  const created = await layer().create(job, body, images);
  expect(created).toMatchObject({ syncState: 'synced' });
  expect(created.jb_img1 && created.jb_img2).toBeTruthy();
  return created.jb_Id;
}

const serverJob = async (key: string) => (await field.t.api('GET', `/jobs/${key}`, { token: field.token })).body as Record<string, unknown>;

describe('an image removed offline', () => {
  it('is removed on the server by the upload, the other image and the fields kept', async () => {
    const key = await serverJobWithTwoImages();
    const before = await serverJob(key);
    field.online = false;
    const edited = await layer().update(job, key, { title: 'Mason (edited offline)', jb_img2: null });
    expect(edited).toMatchObject({ syncState: 'pending', syncOp: 'update', syncRemoveImages: ['jb_img2'] });
    expect(edited.jb_img2).toBeUndefined();
    expect((await serverJob(key)).jb_img2).toBe(before.jb_img2); // nothing sent yet

    field.online = true;
    const report = await uploadAll(deps());
    expect(report.kinds[0]).toMatchObject({ table: job.table, success: 1, failed: 0 });
    const after = await serverJob(key);
    expect(after).toMatchObject({ title: 'Mason (edited offline)', jb_img1: before.jb_img1, jb_img2: null });
    expect(await collectionOf(field.db, job).count().exec()).toBe(0);
  });

  it('a removal whose answer was lost is recognised as done on the next run', async () => {
    const key = await serverJobWithTwoImages();
    field.online = false;
    await layer().update(job, key, { jb_img1: null });
    field.online = true;
    // The update (in a batch: the removal travels as its `removeImages`) reaches the server; its answer does not reach the device.
    const lossy = axios.create({
      baseURL: `${field.t.url}/api`,
      headers: { Authorization: `Bearer ${field.token}`, 'Accept-Language': 'en' },
    });
    let loseOnce = true;
    lossy.interceptors.response.use((response) => {
      if ((response.config.method === 'put' || response.config.url?.startsWith('/sync/push/')) && loseOnce) {
        loseOnce = false;
        throw new Error('Network Error');
      }
      return response;
    });
    const first = await uploadAll(deps(lossy));
    expect(first.kinds[0]).toMatchObject({ failed: 1 });
    expect((await serverJob(key)).jb_img1).toBeNull();

    const second = await uploadAll(deps(lossy));
    expect(second.kinds[0]).toMatchObject({ success: 1, failed: 0 });
    expect(await collectionOf(field.db, job).count().exec()).toBe(0);
  });

  it('a slot emptied then filled again offline sends the new image, not a removal', async () => {
    const key = await serverJobWithTwoImages();
    field.online = false;
    await layer().update(job, key, { jb_img2: null });
    const refilled = await layer().update(job, key, {}, [{ slot: 'jb_img2', blob: png('new'), name: 'new.png' }]);
    expect(refilled.syncRemoveImages).toBeUndefined();
    field.online = true;
    expect((await uploadAll(deps())).kinds[0]).toMatchObject({ success: 1, images: 1 });
    const after = await serverJob(key);
    const served = await fetch(`${field.t.url}/api/imgs/getById?id=${key}&imagename=${String(after.jb_img2)}`, {
      headers: { authorization: `Bearer ${field.token}` },
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.concat([PNG_1PX, Buffer.from('new')]))).toBe(true);
  });

  it("is not applied over a colleague's change made meanwhile: a conflict, their image kept", async () => {
    const key = await serverJobWithTwoImages();
    field.online = false;
    await layer().update(job, key, { jb_img2: null });
    // A colleague replaces image 2 on the server while this device is offline.
    const form = new FormData();
    form.append('data', JSON.stringify({}));
    form.append('jb_img2', png('colleague'), 'colleague.png');
    const theirs = await fetch(`${field.t.url}/api/jobs/${key}`, {
      method: 'PUT',
      body: form,
      headers: { authorization: `Bearer ${field.token}` },
    });
    expect(theirs.status).toBe(200);
    const server = await serverJob(key);

    field.online = true;
    const report = await uploadAll(deps());
    expect(report.kinds[0]).toMatchObject({ failed: 1, errors: [{ key, message: CONFLICT }] });
    expect((await serverJob(key)).jb_img2).toBe(server.jb_img2);
    expect(await collectionOf(field.db, job).findOne(key).exec()).toMatchObject({ syncState: 'pending', syncRemoveImages: ['jb_img2'] });
  });

  it('of a record never uploaded simply drops the waiting image (a service here)', async () => {
    field.online = false;
    const provider = await layer().create(serviceProvider, { ...sampleBody(serviceProvider), sp_Id: undefined });
    const body = { ...sampleBody(service, { serviceProvider: provider.sp_Id }), sp_Detail_Id: undefined };
    const created = await layer().create(service, body, [{ slot: 'sp_img1', blob: png('draft'), name: 'draft.png' }]);
    const edited = await layer().update(service, created.sp_Detail_Id, { sp_img1: null });
    expect(edited).toMatchObject({ syncOp: 'create' });
    expect(edited.syncRemoveImages).toBeUndefined();
    field.online = true;
    const report = await uploadAll(deps());
    expect(report.kinds.find((k) => k.table === service.table)).toMatchObject({ success: 1, images: 0 });
    expect((await field.t.api('GET', `/spDetail/${created.sp_Detail_Id}`, { token: field.token })).body.sp_img1).toBeNull();
  });
});
