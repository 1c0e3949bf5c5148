// One record's upload (product.md §4, product.md §D2, §6). Every step can be repeated: the key is fixed on
// the device, so a POST sent again answers 'duplicate entry', and a PUT sent again answers
// 'conflict' with the server's copy; both are compared with the local copy before anything is
// dropped, so a lost answer, a crash or a second tab never loses or doubles a record.
import type { EntityShape } from '../../../../schemas/define';
import { pendingRemovals } from '../../../../schemas/derive/rxdb';
import { profileImage, PUSH_LIMITS } from '../../../../schemas';
import type { IcrsDatabase } from '../../store';
import { changedFields, changedImages, createBody, updateBody } from './compare';
import { getRecord, postRecord, putProfileImage, putRecord, removeProfileImage, type PushRecord } from '../../http';
import { conflictRow, duplicateCopy, failureOf, imageInputs, isDuplicate, profileImageInput, QUIET, type Failure, type Row } from './http';
import {
  finishUploaded,
  imagesOfMany,
  markConflict,
  markFailed,
  pendingParents,
  readDocs,
  serverKey,
  type DocData,
  type LocalDoc,
} from './store';
import { CONFLICT, conflictOf, deletedText, erasedOf, erasedText } from './sync-error';
import type { ConflictInfo, UploadHttp } from './types';

/** Report text of a child held back because its parent is not on the server (ADR-0018). */
export const PARENT_NOT_UPLOADED = 'parent not uploaded';
/** Report text of a record whose client was erased on the server: never sent again. */
export const CLIENT_ERASED = 'client erased';
/** A duplicate key whose server record was deleted: nothing to merge into, so it is kept. */
export const DELETED_ON_SERVER = 'duplicate entry: the server has deleted this record';

export type Outcome =
  | { status: 'success'; images: number }
  | { status: 'failed'; message: string; images: number; transient: boolean; httpStatus?: number }
  | { status: 'skipped'; message?: string };

export interface RecordContext {
  db: IcrsDatabase;
  http: UploadHttp;
  notify: (title: string, text: string) => void;
}

/** What the server holds after the requests: this version (done), or a conflicting one. */
type Sent = { kind: 'stored'; row: Row } | { kind: 'conflict'; info: ConflictInfo };

const stored = (row: Row): Sent => ({ kind: 'stored', row });

/** A record ready to go: the document as read (its revision decides the settle) and its images. */
export interface Ready {
  key: string;
  doc: LocalDoc;
  images: LocalDoc[];
}

/** The record's first request, already made in a batch: its answer, or its failure as it would have thrown. */
export type FirstAnswer = () => Promise<Row>;

type Skipped = Extract<Outcome, { status: 'skipped' }>;

/** Reads a record just before it goes: skipped (gone, settled elsewhere, in conflict, parent
 * still here) or ready with its images. */
export async function prepareRecord(ctx: RecordContext, entity: EntityShape, key: string): Promise<Ready | Skipped> {
  return (await prepareRecords(ctx, entity, [key]))[0] as Ready | Skipped;
}

/** `prepareRecord` for many records of a kind, in their order, with one read each of the
 * records, their parents and their images (a batched upload reads its records at ~1 ms each
 * instead of three reads per record). */
export async function prepareRecords(ctx: RecordContext, entity: EntityShape, keys: readonly string[]): Promise<(Ready | Skipped)[]> {
  const docs = await readDocs(ctx.db, entity, keys);
  // Gone or no longer pending: another tab (or an earlier run that crashed after its request) finished it.
  const waiting = [...docs.values()].filter((doc) => doc.syncState === 'pending' && !conflictOf(doc.syncError) && !erasedOf(doc.syncError));
  const [parents, images] = await Promise.all([
    pendingParents(
      ctx.db,
      entity,
      waiting.map((doc) => doc.toJSON()),
    ),
    imagesOfMany(
      ctx.db,
      entity,
      waiting.map((doc) => doc.primary),
    ),
  ]);
  const parentField = entity.parent?.field;
  return keys.map((key): Ready | Skipped => {
    const doc = docs.get(key);
    if (!doc || doc.syncState !== 'pending') return { status: 'skipped' };
    if (conflictOf(doc.syncError)) return { status: 'skipped', message: CONFLICT };
    // Its client was erased on the server: it is never sent again, only discarded by the user.
    if (erasedOf(doc.syncError)) return { status: 'skipped', message: CLIENT_ERASED };
    if (parentField && parents.has(String(doc.get(parentField)))) return { status: 'skipped', message: PARENT_NOT_UPLOADED };
    return { key, doc, images: images.get(key) ?? [] };
  });
}

/** Uploads one pending record with its images; never throws for a server answer. */
export async function uploadRecord(ctx: RecordContext, entity: EntityShape, key: string): Promise<Outcome> {
  const ready = await prepareRecord(ctx, entity, key);
  return 'doc' in ready ? sendRecord(ctx, entity, ready) : ready;
}

/** Bytes of a stored image (base64 in RxDB: 3 bytes per 4 characters). */
export function imageSize(image: LocalDoc): number {
  return Math.floor((String(image.get('data') ?? '').length * 3) / 4);
}

/** Bytes of the images a record carries: its `files` (jobs, services), or a profile image's own. */
export function imageBytes(entity: EntityShape, ready: Ready): number {
  if (isProfileImage(entity)) return imageSize(ready.doc);
  return ready.images.reduce((n, image) => n + imageSize(image), 0);
}

/** Images a record carries, for the report: a profile image is one. */
export function imageCount(entity: EntityShape, ready: Ready): number {
  return isProfileImage(entity) ? 1 : ready.images.length;
}

/** True when the record can travel in a batch: its images (if any) are small
 * (PUSH_LIMITS.smallImage each); larger ones go with their record alone. A profile image is
 * small or not by its own bytes; one removed offline goes alone (its own delete call). */
export function batchable(entity: EntityShape, ready: Ready): boolean {
  if (isProfileImage(entity)) return !pendingRemovals(ready.doc.toJSON()).length && imageSize(ready.doc) <= PUSH_LIMITS.smallImage;
  return ready.images.every((image) => imageSize(image) <= PUSH_LIMITS.smallImage);
}

/** The record as one entry of a batch: the body its own POST or PUT would carry (and the slots
 * it empties); its images travel beside it as parts of the batch. A profile image is its PUT's
 * key and kind (replaced by kind: create and update are the same call). */
export function pushEntry(entity: EntityShape, ready: Ready): PushRecord {
  const data = ready.doc.toJSON();
  if (isProfileImage(entity)) return { op: 'create', data: { prof_Id: data.prof_Id, img_for: data.img_for } };
  if (data.syncOp !== 'update') return { op: 'create', data: createBody(entity, data) };
  const removeImages = pendingRemovals(data);
  return { op: 'update', id: serverKey(entity, data), data: updateRequest(entity, data), ...(removeImages.length ? { removeImages } : {}) };
}

/** A PUT's body: the fields and the `updatedAt` the edit was based on (a newer server row answers 'conflict'). */
const updateRequest = (entity: EntityShape, data: Readonly<DocData>): Row => ({
  ...updateBody(entity, data),
  ...(data.syncBase ? { updatedAt: data.syncBase } : {}),
});

/**
 * Sends a ready record (or settles the answer its batch brought: `first`) and everything that
 * follows from the answer: the duplicate and conflict rules, the removal or the kept error.
 */
export async function sendRecord(ctx: RecordContext, entity: EntityShape, { doc, images }: Ready, first?: FirstAnswer): Promise<Outcome> {
  const imageCount = isProfileImage(entity) ? 1 : images.length;
  let sent: Sent;
  try {
    sent = await send(ctx, entity, doc.toJSON(), images, first);
  } catch (error) {
    const half = error instanceof HalfSent ? error : undefined;
    return fail(ctx, entity, doc, imageCount, failureOf(half?.cause ?? error), half?.updatedAt);
  }
  if (sent.kind === 'conflict') {
    await markConflict(doc, sent.info);
    ctx.notify(errorTitle(entity), CONFLICT);
    return { status: 'failed', message: CONFLICT, images: imageCount, transient: false };
  }
  await finishUploaded(ctx.db, entity, doc, images, updatedAtOf(sent.row));
  return { status: 'success', images: imageCount };
}

// By table: tests and migrations may hand in a copy of a declaration.
const isProfileImage = (entity: EntityShape) => entity.table === profileImage.table;

function errorTitle(entity: EntityShape): string {
  return entity.upload?.errorTitle ?? entity.table;
}

async function fail(
  ctx: RecordContext,
  entity: EntityShape,
  doc: LocalDoc,
  images: number,
  failure: Failure,
  serverUpdatedAt?: string,
): Promise<Outcome> {
  ctx.notify(errorTitle(entity), failure.message);
  const kept =
    deletedText(failure.status, failure.body, failure.message) ??
    erasedText(failure.status, failure.body, failure.message) ??
    failure.message;
  await markFailed(doc, kept, serverUpdatedAt);
  return { status: 'failed', message: failure.message, images, transient: failure.transient, httpStatus: failure.status };
}

const updatedAtOf = (row: Row): string | undefined => (typeof row.updatedAt === 'string' ? row.updatedAt : undefined);

function send(
  ctx: RecordContext,
  entity: EntityShape,
  data: Readonly<DocData>,
  images: readonly LocalDoc[],
  first?: FirstAnswer,
): Promise<Sent> {
  // Profile images are replaced by kind on every PUT: create and update are the same call. A
  // removal made offline (ADR-0028) deletes the kind on the server; repeating it is harmless.
  if (isProfileImage(entity) && pendingRemovals(data).length)
    return removeProfileImage(ctx.http, String(data.prof_Id), String(data.img_for), QUIET).then(stored);
  if (isProfileImage(entity))
    return (first ?? (() => putProfileImage(ctx.http, String(data.prof_Id), profileImageInput(data), QUIET)))().then(stored);
  return data.syncOp === 'update' ? sendUpdate(ctx, entity, data, images, first) : sendCreate(ctx, entity, data, images, first);
}

/** POST; profile sub-records are create-or-update on the server, so a repeat simply succeeds. */
async function sendCreate(
  ctx: RecordContext,
  entity: EntityShape,
  data: Readonly<DocData>,
  images: readonly LocalDoc[],
  first?: FirstAnswer,
): Promise<Sent> {
  try {
    return stored(await (first ?? (() => postRecord(ctx.http, entity, createBody(entity, data), imageInputs(entity, images), QUIET)))());
  } catch (error) {
    const failure = failureOf(error);
    if (!isDuplicate(failure)) throw error;
    return afterDuplicate(ctx, entity, data, images, duplicateCopy(failure));
  }
}

/**
 * 'duplicate entry': the server has the record already (an earlier answer was lost). If the
 * local copy holds nothing more, it is done. If it was edited since, the edit goes as a PUT, but
 * only onto a server row nobody has touched since its creation; otherwise it is a conflict.
 * Profiles are always updated first (product.md §4), on the same terms.
 */
async function afterDuplicate(
  ctx: RecordContext,
  entity: EntityShape,
  data: Readonly<DocData>,
  images: readonly LocalDoc[],
  copy?: Row,
): Promise<Sent> {
  const key = serverKey(entity, data);
  // A batch sends the server's copy with the answer; the single-record route does not.
  const server = copy ?? (await getRecord(ctx.http, entity, key));
  if (!server) throw new Error(DELETED_ON_SERVER);
  const fields = changedFields(entity, data, server);
  const newImages = await changedImages(ctx.http, entity, key, images, server);
  const differs = Object.keys(fields).length > 0 || newImages.length > 0;
  if (!differs && !entity.upload?.updateOnDuplicate) return stored(server);
  if (differs && server.updatedAt !== server.createdAt) return { kind: 'conflict', info: conflictInfo(entity, server, fields, newImages) };
  const body = entity.upload?.updateOnDuplicate ? updateBody(entity, data) : fields;
  return putOnto(ctx, entity, data, key, body, newImages, server);
}

/** PUT based on the server row just read; a change in between is a conflict, never overwritten. */
async function putOnto(
  ctx: RecordContext,
  entity: EntityShape,
  data: Readonly<DocData>,
  key: string,
  body: Row,
  images: readonly LocalDoc[],
  server: Row,
): Promise<Sent> {
  try {
    return stored(await putFieldsAndImages(ctx.http, entity, key, { ...body, updatedAt: server.updatedAt }, images));
  } catch (error) {
    const newer = conflictRow(failureOf(error));
    if (!newer) throw error;
    return { kind: 'conflict', info: conflictInfo(entity, newer, changedFields(entity, data, newer), images) };
  }
}

/**
 * PUT with the `updatedAt` the edit was based on, the new images and the slots to empty.
 * 'conflict' with a server copy that already holds every local value (and none of the removed
 * images) means this very update went through before (its answer was lost).
 */
async function sendUpdate(
  ctx: RecordContext,
  entity: EntityShape,
  data: Readonly<DocData>,
  images: readonly LocalDoc[],
  first?: FirstAnswer,
): Promise<Sent> {
  const key = serverKey(entity, data);
  const body = updateRequest(entity, data);
  const removals = pendingRemovals(data);
  try {
    return stored(await (first ?? (() => putFieldsAndImages(ctx.http, entity, key, body, images, removals)))());
  } catch (error) {
    const server = conflictRow(failureOf(error));
    if (!server) throw error;
    const fields = changedFields(entity, data, server);
    for (const slot of removals) if (server[slot] !== null && server[slot] !== undefined) fields[slot] = null;
    const newImages = await changedImages(ctx.http, entity, key, images, server);
    if (!Object.keys(fields).length && !newImages.length) return stored(server);
    return { kind: 'conflict', info: conflictInfo(entity, server, fields, newImages) };
  }
}

/** The fields went through, the images did not: the server holds a new version (`updatedAt`). */
class HalfSent extends Error {
  constructor(
    override readonly cause: unknown,
    readonly updatedAt: string,
  ) {
    super('images not sent');
  }
}

/**
 * PUT of fields, images and emptied slots. Multipart cannot clear a field (the server reads an
 * empty form value as "not given"), so when the body clears one and images or removals go too,
 * the fields go first as JSON and the images onto the version that answers. Most updates take
 * the one request.
 */
async function putFieldsAndImages(
  http: UploadHttp,
  entity: EntityShape,
  key: string,
  body: Row,
  images: readonly LocalDoc[],
  removeImages: readonly string[] = [],
): Promise<Row> {
  const multipart = images.length > 0 || removeImages.length > 0;
  if (!multipart || !Object.values(body).some((v) => v === null))
    return putRecord(http, entity, key, body, imageInputs(entity, images), removeImages, QUIET);
  const fields = await putRecord(http, entity, key, body, [], [], QUIET);
  try {
    return await putRecord(http, entity, key, { updatedAt: fields.updatedAt }, imageInputs(entity, images), removeImages, QUIET);
  } catch (error) {
    throw new HalfSent(error, String(fields.updatedAt));
  }
}

/** The server side of a conflict: its version and its values of the fields that differ. */
function conflictInfo(entity: EntityShape, server: Row, fields: Row, images: readonly LocalDoc[]): ConflictInfo {
  const names = [...Object.keys(fields), ...images.map((i) => entity.images[Number(i.get('imgNo')) - 1] ?? '')].filter(Boolean);
  return { updatedAt: String(server.updatedAt), server: Object.fromEntries(names.map((n) => [n, server[n] ?? null])) };
}
