// A client's photo, identity document and consent form through the data layer and the upload
// engine (ADR-0028): saved and removed online at once, kept offline and sent by the upload, a
// removal included (the server ends without the removed file), and the duplicate search of the
// store and the server.
import { describe, expect, it, vi } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { profile, profileImage, skills } from '../../schemas/index';
import { isRemovalPending } from '../../src/lib/data';
import { collectionOf } from '../../src/lib/store/database';
import { countPending, uploadAll } from '../../src/lib/sync/upload';
import { withFieldStore } from '../helpers/field';
import { PNG_1PX } from '../helpers/records';
import { openTestDb } from '../helpers/rxdb';

const field = withFieldStore();

const layer = field.layer;
const png = (tag: string) => new Blob([new Uint8Array(Buffer.concat([PNG_1PX, Buffer.from(tag)]))], { type: 'image/png' });
const pdf = () => new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' });
const serverKinds = async (id: string) =>
  ((await field.t.api('GET', `/profile/images/${id}`, { token: field.token })).body as { img_for: string }[]).map((r) => r.img_for);
const upload = () => uploadAll({ db: field.db, http: field.http, notify: vi.fn(), isConnected: () => true });

async function newClient(values: Record<string, unknown> = {}): Promise<string> {
  const body = { ...sampleBody(profile), ...values };
  delete body.prof_Id;
  delete body.prof_Reg_No;
  return (await layer().create(profile, body)).prof_Id;
}

describe('photos and documents of a client', () => {
  it('online: saved at once (a PDF document too) and a removed one is gone from the server', async () => {
    const id = await newClient();
    await layer().saveProfileImages(id, [
      { slot: 'photo', blob: png('face'), name: 'face.png' },
      { slot: 'idDocument', blob: pdf(), name: 'id.pdf' },
    ]);
    expect(await serverKinds(id)).toEqual(['idDocument', 'photo']);
    await layer().saveProfileImages(id, [], ['idDocument']);
    expect(await serverKinds(id)).toEqual(['photo']);
    expect(await collectionOf(field.db, profileImage).findOne(`${id}|idDocument`).exec()).toBeNull();
    expect(await countPending(field.db)).toBe(0);
  });

  it('offline: a removal of a server file and a new file wait here, and the upload sends both', async () => {
    const id = await newClient();
    await layer().saveProfileImages(id, [{ slot: 'photo', blob: png('old'), name: 'old.png' }]);
    field.online = false;
    await layer().saveProfileImages(id, [{ slot: 'consentForm', blob: pdf(), name: 'consent.pdf' }], ['photo']);
    const photo = await collectionOf(field.db, profileImage).findOne(`${id}|photo`).exec();
    expect(photo && isRemovalPending(photo.toJSON())).toBe(true);
    expect(await serverKinds(id)).toEqual(['photo']); // nothing sent yet
    field.online = true;
    const report = await upload();
    expect(report.kinds.find((k) => k.table === profileImage.table)).toMatchObject({ total: 2, success: 2, failed: 0 });
    expect(await serverKinds(id)).toEqual(['consentForm']);
    expect(await countPending(field.db)).toBe(0);
  });

  it('offline: a client registered here with its records and files goes up whole; a file removed before the upload never leaves', async () => {
    field.online = false;
    const id = await newClient({ firstName: 'Offline', lastName: 'Client' });
    await layer().create(skills, { prof_Id: id, diploma: 'Carpentry' });
    await layer().saveProfileImages(id, [
      { slot: 'photo', blob: png('p'), name: 'p.png' },
      { slot: 'idDocument', blob: pdf(), name: 'id.pdf' },
    ]);
    await layer().saveProfileImages(id, [], ['photo']);
    expect(await collectionOf(field.db, profileImage).findOne(`${id}|photo`).exec()).toBeNull();
    field.online = true;
    const report = await upload();
    expect(report.kinds.filter((k) => k.total > 0).map((k) => [k.table, k.success])).toEqual([
      ['tbl_profiles', 1],
      ['tbl_skills', 1],
      ['tbl_profiles_images', 1],
    ]);
    expect((await field.t.api('GET', `/profile/skprofile/${id}`, { token: field.token })).body.diploma).toBe('Carpentry');
    expect(await serverKinds(id)).toEqual(['idDocument']);
  });
});

describe('possible duplicates', () => {
  it('offline: the store is searched, names without case and accents with the birth date, or the phone', async () => {
    field.online = false;
    const id = await newClient({ firstName: 'Amélie', lastName: 'Kabila', birthDate: '1990-01-02', phone: '+243 97 111 2233' });
    const byName = await layer().findDuplicates({ firstName: 'AMELIE ', lastName: 'kabila', birthDate: '1990-01-02' });
    expect(byName.map((d) => [d.prof_Id, d.match, d.local])).toEqual([[id, ['name'], true]]);
    expect(byName[0]?.prof_Reg_No).toMatch(/^ICRS[A-Z0-9]{8}$/);
    expect(await layer().findDuplicates({ firstName: 'Amelie', lastName: 'Kabila', birthDate: '1990-01-03' })).toEqual([]);
    expect((await layer().findDuplicates({ phone: '243971112233' })).map((d) => d.prof_Id)).toEqual([id]);
    expect(await layer().findDuplicates({ phone: '243971112233', exclude: id })).toEqual([]);
  });

  it("online: the server's clients and this device's not uploaded ones, once each", async () => {
    const onServer = await newClient({ firstName: 'Bienvenu', lastName: 'Mukendi', birthDate: '1985-06-07', phone: '+243 81 000 1111' });
    field.online = false;
    const here = await newClient({ firstName: 'Bienvenu', lastName: 'Mukendi', birthDate: '1985-06-07' });
    field.online = true;
    await field.db.close();
    field.db = await openTestDb(); // a device that never saw the first one: only the server knows it
    field.online = false;
    const local = await newClient({ firstName: 'BIENVENU', lastName: 'Mukendi', birthDate: '1985-06-07' });
    field.online = true;
    const found = await layer().findDuplicates({ firstName: 'Bienvenu', lastName: 'Mukéndi', birthDate: '1985-06-07', phone: '' });
    expect(found.map((d) => d.prof_Id).sort()).toEqual([onServer, local].sort());
    expect(found.find((d) => d.prof_Id === local)?.local).toBe(true);
    expect(found.map((d) => d.prof_Id)).not.toContain(here);
  });
});
