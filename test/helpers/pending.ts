// Pending records as the data layer stores them offline (docs/offline-contract.md, ADR-0018): the
// upload tests and benches put them straight into a store (test/helpers/rxdb.ts), or into an
// export, and upload them. One unit of every kind of record is written the same way by all of
// them. Schemas only: a bench in a browser's page or in plain Node imports it too.
import type { EntityShape } from '../../schemas/define';
import { docFromRow, newestFirstKey } from '../../schemas/derive/rxdb';
import { sampleBody } from '../../schemas/derive/sample';
import { registrationNumber, uuidv7 } from '../../schemas/ids';
import {
  apprenticeship,
  business,
  job,
  otherJob,
  profile,
  security,
  service,
  serviceProvider,
  skills,
  social,
  vocational,
} from '../../schemas/index';
import { PNG_1PX } from './records';

type Body = Record<string, unknown>;
export type PendingOp = 'create' | 'update';

/** sampleBody's references of a record of `entity` whose parent has the key `parent`. */
export function refsTo(entity: EntityShape, parent?: string): Record<string, string> {
  return parent !== undefined && entity.parent ? { [entity.parent.entity]: parent } : {};
}

/** A body the server accepts; profiles get a registration number of the user's organisation. */
export function bodyOf(entity: EntityShape, refs: Record<string, string> = {}): Body {
  const body = sampleBody(entity, refs);
  if (entity === profile) body.prof_Reg_No = registrationNumber('ICRS');
  return body;
}

/** A pending document as the data layer stores it offline. */
export function pendingDoc(entity: EntityShape, body: Body, op: PendingOp = 'create', base?: string): Body {
  const doc = docFromRow(entity, { ...body, createdAt: new Date().toISOString() }) as Body;
  return { ...doc, syncState: 'pending', syncOp: op, ...(base ? { syncBase: base } : {}) };
}

/** A client (profile) made on this device, as its store holds it: `values` over the sample, its
 * key, and a registration number of organisation `org` derived from the key (no server needed). */
export function localClientDoc(values: Body = {}, org = 'ORG'): Body & { prof_Id: string; prof_Reg_No: string } {
  const prof_Id = uuidv7();
  return {
    ...sampleBody(profile),
    prof_Id,
    prof_Reg_No: `${org}${prof_Id
      .slice(-8)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, 'X')}`,
    syncState: 'pending',
    syncOp: 'create',
    syncAttempts: 0,
    sortDesc: newestFirstKey(Date.now(), prof_Id),
    ...values,
  };
}

/** Distinct PNG bytes per image (the server sniffs only the signature). */
export const pngFor = (tag: string): Buffer => Buffer.concat([PNG_1PX, Buffer.from(tag)]);

/** A pending image of slot `imgNo` of a record, as `files` keeps it; `data` is its base64 (or what
 * stands for it until then). */
export function pendingImageDoc(owner: EntityShape, srcId: string, imgNo: number, bytes: Buffer, data = bytes.toString('base64')): Body {
  const pk = `${srcId}|${imgNo}`;
  return {
    pk,
    srcId,
    srcTable: owner.table,
    imgNo,
    name: `img${imgNo}.png`,
    type: 'image/png',
    size: bytes.length,
    data,
    syncState: 'pending',
    syncAttempts: 0,
    sortDesc: newestFirstKey(Date.now(), pk),
  };
}

/** A client's photo (a profile image record) of `bytes`; `data` as for an image. */
export function photoBody(profileKey: string, bytes: Buffer, name = 'photo.png', data = bytes.toString('base64')): Body {
  return { prof_Id: profileKey, img_for: 'photo', name, type: 'image/png', size: bytes.length, data };
}

/** The records of a unit with its photo: job, other job, provider, service, apprenticeship,
 * vocational, profile, its four sub-records and its photo. */
export const UNIT_RECORDS = 12;

/** How a unit's records are written: into a store, an export or a plan of the app's saves. */
export interface UnitWriter<K> {
  /** Writes one record of `entity` under the parent of key `parent`; answers the record's key. */
  record(entity: EntityShape, parent?: K): K | Promise<K>;
  /** Writes the image of slot `slot` of a job or service. */
  image?(owner: EntityShape, key: K, slot: number): unknown;
  /** Writes the client's photo. */
  photo?(profileKey: K): unknown;
}

/** The slot of the image the unit's job and service carry (none where absent). */
export interface UnitImages {
  job?: number | undefined;
  service?: number | undefined;
}

/** Writes one unit, parents before children; answers the client's (profile's) key. */
export async function writeUnit<K>(writer: UnitWriter<K>, images: UnitImages = {}): Promise<K> {
  const jb = await writer.record(job);
  if (images.job !== undefined) await writer.image?.(job, jb, images.job);
  await writer.record(otherJob, jb);
  const sp = await writer.record(serviceProvider);
  const spd = await writer.record(service, sp);
  if (images.service !== undefined) await writer.image?.(service, spd, images.service);
  await writer.record(apprenticeship, spd);
  await writer.record(vocational, spd);
  const prof = await writer.record(profile);
  for (const sub of [skills, social, security, business]) await writer.record(sub, prof);
  await writer.photo?.(prof);
  return prof;
}
