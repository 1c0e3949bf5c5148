// Emptying and replacing image slots through the data layer's `update` (ADR-0025): an image
// field given as null empties its slot (online: multipart `removeImages`; offline: the image
// waiting in `files` goes), new images replace theirs. Real server, icrs_db over fake-indexeddb.
import { describe, expect, it } from 'vitest';
import { file, service, serviceProvider } from '../../schemas/index';
import { collectionOf } from '../../src/lib/store/database';
import { withFieldStore } from '../helpers/field';
import { PNG_1PX } from '../helpers/records';

const field = withFieldStore();

const layer = field.layer;

// Distinct bytes per image (the server only reads the PNG signature; bytes after IEND are ignored).
const pngBytes = (tag: string) => Buffer.concat([PNG_1PX, Buffer.from(tag)]);
const png = (tag: string) => new Blob([new Uint8Array(pngBytes(tag))], { type: 'image/png' });

async function serverImage(id: string, name: unknown): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${field.t.url}/api/imgs/getById?id=${id}&imagename=${String(name)}`, {
    headers: { authorization: `Bearer ${field.token}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function serverService(id: string) {
  const { status, body } = await field.t.api('GET', `/spDetail/${id}`, { token: field.token });
  expect(status).toBe(200);
  return body as Record<string, unknown>;
}

async function newService(images: { slot: string; tag: string }[]) {
  const provider = await layer().create(serviceProvider, { sp_Name: 'Centre images', sp_type: 1, territory: 1 });
  return layer().create(
    service,
    { sp_Id: provider.sp_Id, name: 'Clinic', category: 1, serviceType: 1, territory: 1, eligibility: 'Everyone' },
    images.map(({ slot, tag }) => ({ slot, blob: png(tag), name: `${tag}.png` })),
  );
}

const localFiles = async (srcId: string) =>
  (await collectionOf(field.db, file).find({ selector: { srcId } }).exec()).map((d) => d.toJSON()).sort((a, b) => a.imgNo - b.imgNo);

describe('update: image slots online', () => {
  it('empties one slot and replaces another in the same save', async () => {
    const created = await newService([
      { slot: 'sp_img1', tag: 'one' },
      { slot: 'sp_img2', tag: 'two' },
    ]);
    const oldName2 = created.sp_img2;
    expect(created.sp_img1).toBeTruthy();

    const updated = await layer().update(service, created.sp_Detail_Id, { name: 'Clinic renamed', sp_img1: null }, [
      { slot: 'sp_img2', blob: png('three'), name: 'three.png' },
    ]);
    const row = await serverService(created.sp_Detail_Id);
    expect(row).toMatchObject({ name: 'Clinic renamed', sp_img1: null });
    expect(row.sp_img2).toBeTruthy();
    expect(row.sp_img2).not.toBe(oldName2);
    expect((await serverImage(created.sp_Detail_Id, row.sp_img2)).bytes).toEqual(pngBytes('three'));
    // The local copy follows the server: slot 1 gone, slot 2 the new name, nothing waiting.
    expect(updated.sp_img1).toBeUndefined();
    expect(updated).toMatchObject({ sp_img2: row.sp_img2, syncState: 'synced' });
    expect(await localFiles(created.sp_Detail_Id)).toEqual([]);
  });

  it('empties a slot with no new file and no other change (multipart with removeImages only)', async () => {
    const created = await newService([
      { slot: 'sp_img1', tag: 'keep' },
      { slot: 'sp_img3', tag: 'drop' },
    ]);
    await layer().update(service, created.sp_Detail_Id, { sp_img3: null });
    const row = await serverService(created.sp_Detail_Id);
    expect(row).toMatchObject({ sp_img1: created.sp_img1, sp_img3: null });
    expect((await serverImage(created.sp_Detail_Id, created.sp_img1)).bytes).toEqual(pngBytes('keep'));
  });

  it('a field cleared together with an image change is cleared too (multipart alone cannot clear)', async () => {
    const created = await newService([{ slot: 'sp_img1', tag: 'one' }]);
    await layer().update(service, created.sp_Detail_Id, { eligibility: null, sp_img1: null }, [
      { slot: 'sp_img2', blob: png('new'), name: 'new.png' },
    ]);
    const row = await serverService(created.sp_Detail_Id);
    expect(row).toMatchObject({ eligibility: null, sp_img1: null });
    expect((await serverImage(created.sp_Detail_Id, row.sp_img2)).bytes).toEqual(pngBytes('new'));
    expect(
      await collectionOf(field.db, service)
        .findOne(created.sp_Detail_Id)
        .exec()
        .then((d) => d?.toJSON()),
    ).toMatchObject({ syncState: 'synced', sp_img2: row.sp_img2 });
  });

  it('a null for a slot that also gets a new image is a replacement, not a removal', async () => {
    const created = await newService([{ slot: 'sp_img1', tag: 'old' }]);
    await layer().update(service, created.sp_Detail_Id, { sp_img1: null }, [{ slot: 'sp_img1', blob: png('replaced'), name: 'r.png' }]);
    const row = await serverService(created.sp_Detail_Id);
    expect(row.sp_img1).toBeTruthy();
    expect((await serverImage(created.sp_Detail_Id, row.sp_img1)).bytes).toEqual(pngBytes('replaced'));
  });
});

describe('update: image slots offline', () => {
  it('a record never uploaded loses the emptied image and keeps the others', async () => {
    field.online = false;
    const created = await newService([
      { slot: 'sp_img1', tag: 'one' },
      { slot: 'sp_img2', tag: 'two' },
    ]);
    expect((await localFiles(created.sp_Detail_Id)).map((f) => f.imgNo)).toEqual([1, 2]);
    const updated = await layer().update(service, created.sp_Detail_Id, { sp_img2: null }, [
      { slot: 'sp_img3', blob: png('three'), name: 'three.png' },
    ]);
    expect(updated).toMatchObject({ syncState: 'pending', syncOp: 'create' });
    const files = await localFiles(created.sp_Detail_Id);
    expect(files.map((f) => [f.imgNo, f.name])).toEqual([
      [1, 'one.png'],
      [3, 'three.png'],
    ]);
  });

  it('replacing offline keeps only the newest image of the slot', async () => {
    field.online = false;
    const created = await newService([{ slot: 'sp_img1', tag: 'first' }]);
    await layer().update(service, created.sp_Detail_Id, { sp_img1: null }, [{ slot: 'sp_img1', blob: png('second'), name: 'second.png' }]);
    const files = await localFiles(created.sp_Detail_Id);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ imgNo: 1, name: 'second.png', data: pngBytes('second').toString('base64') });
  });

  it('emptying offline a slot whose image is on the server lists it for the upload (test/rxdb/upload-image-removal.test.ts)', async () => {
    const created = await newService([{ slot: 'sp_img1', tag: 'server' }]);
    field.online = false;
    const updated = await layer().update(service, created.sp_Detail_Id, { name: 'Edited offline', sp_img1: null });
    // The edit waits as a pending update that names the slot to empty; the local copy no longer
    // shows the server's image, which stays on the server until the upload.
    expect(updated).toMatchObject({ name: 'Edited offline', syncState: 'pending', syncOp: 'update', syncRemoveImages: ['sp_img1'] });
    expect(updated.sp_img1).toBeUndefined();
    expect((await serverService(created.sp_Detail_Id)).sp_img1).toBe(created.sp_img1);
  });
});
