// Saves: online to the API and then into RxDB as `synced`; offline (or when the network is
// gone mid-save) into RxDB as `pending`, for the upload engine. Keys are made on the device
// in both cases, so a save repeated after a lost answer is never stored twice (product.md §D2).
import { bodyFromDoc } from '../../../schemas/derive/rxdb';
import { generatedKey, type EntityShape } from '../../../schemas/define';
import { uuidv7 } from '../../../schemas/ids';
import { profileImage } from '../../../schemas';
import type { RxDocument } from 'rxdb';
import { OFFLINE_ENTITIES } from '../store';
import { hasRowApi, type Ctx } from './context';
import { isPending, keyOf, pendingCreateDoc, pendingUpdate, plain, syncedDoc, writeSynced, type DocData } from './docs';
import { answerWrite, readWrite } from './read';
import { checkImages, hasProfileImages, removedSlots, removeLocalImages, removeLocalSlots, storeImagesOffline } from './images';
import { newRegistrationNumber, organisationAbbr, refreshLists } from './lists';
import { ApiError, ConflictError, isAnswer, isNetworkError, postDelete, postRecord, putProfileImage, putRecord, type Row } from '../http';
import type { CreateResult, ImageInput, RemoveInput, UpdateOptions, Values } from './types';

async function stored(ctx: Ctx, entity: EntityShape, key: string): Promise<DocData> {
  const doc = await ctx.collection(entity).findOne(key).exec();
  if (!doc) throw new Error(`${entity.table} ${key} was not stored`);
  return plain(doc);
}

/** The record a save online answered: the device's copy, or the server's row when the device
 * does not keep it (a colleague's client on a field worker's device: read.ts `answerWrite`). */
async function answered(ctx: Ctx, entity: EntityShape, key: string, row: Row): Promise<DocData> {
  const doc = await ctx.collection(entity).findOne(key).exec();
  return doc ? plain(doc) : syncedDoc(entity, row);
}

/** Lists are cached at sign-in; when they are missing but the network is there, fetch them
 * once rather than refuse a user who does have an organisation. */
async function regNo(ctx: Ctx): Promise<string> {
  let lists = ctx.lists();
  const user = ctx.user();
  if (!organisationAbbr(user, lists) && user?.location && ctx.isOnline()) lists = await refreshLists(ctx.http).catch(() => lists);
  return newRegistrationNumber(user, lists);
}

/** Values of a new record: its key (made here unless it is the parent's) and, for a profile
 * (EntityInput.registrationNumber), its registration number (none of `takenRegNos`: those of the same bulk save); offline copies
 * also carry their owner organisation. */
async function prepareCreate(ctx: Ctx, entity: EntityShape, values: Values, takenRegNos = new Set<unknown>()): Promise<Values> {
  const out: Record<string, unknown> = { ...values };
  const own = generatedKey(entity);
  if (own && !out[own]) out[own] = uuidv7();
  const regField = entity.registrationNumber;
  if (regField && !out[regField]) {
    do out[regField] = await regNo(ctx);
    while (takenRegNos.has(out[regField]));
    takenRegNos.add(out[regField]);
  }
  for (const k of entity.keyFields)
    if (out[k] === undefined || out[k] === null || out[k] === '') throw new Error(`${entity.table}: ${k} is required`);
  if (entity.fields.location?.readOnly) out.location = ctx.user()?.location ?? 0;
  return out;
}

function recordImages(entity: EntityShape, images: readonly ImageInput[]): readonly ImageInput[] {
  return hasProfileImages(entity) ? [] : images;
}

/** Profile images go after their profile; those the network drops wait in RxDB. */
async function sendProfileImages(ctx: Ctx, entity: EntityShape, key: string, images: readonly ImageInput[]): Promise<void> {
  for (const [i, image] of images.entries()) {
    try {
      const row = await putProfileImage(ctx.http, key, image);
      await writeSynced(ctx.db, profileImage, [row], await answerWrite(ctx, profileImage, row, true));
    } catch (error) {
      if (!isNetworkError(error)) throw error;
      await storeImagesOffline(ctx.db, entity, key, images.slice(i));
      return;
    }
  }
}

async function createOnline(ctx: Ctx, entity: EntityShape, values: Values, images: readonly ImageInput[]): Promise<DocData> {
  const key = keyOf(entity, values);
  const body = bodyFromDoc(entity, values);
  let row: Row;
  try {
    row = await postRecord(ctx.http, entity, body, recordImages(entity, images));
  } catch (error) {
    // The key is already there: an earlier save whose answer was lost. Its values may be older.
    if (!isAnswer(error, 409, 'http.duplicate')) throw error;
    row = await putRecord(ctx.http, entity, key, withoutKeys(entity, body), recordImages(entity, images));
  }
  await writeSynced(ctx.db, entity, [row], await answerWrite(ctx, entity, row, true));
  if (hasProfileImages(entity)) await sendProfileImages(ctx, entity, key, images);
  return answered(ctx, entity, key, row);
}

/** The offline store's refusal of a key it holds already, read like the server's 409
 * `http.duplicate` (product.md §D2), so that callers check one code either way. */
const duplicateEntry = () => ApiError.local(409, 'http.duplicate', 'duplicate entry');

async function createOffline(ctx: Ctx, entity: EntityShape, values: Values, images: readonly ImageInput[]): Promise<DocData> {
  // Without images the insert itself finds a stored key, decided as createMany decides it (an
  // edit for an upsert entity, else 'duplicate entry'), and answers what it stored: one
  // IndexedDB transaction instead of a read, the insert and a read back (a form's Save).
  if (!images.length) {
    const [result] = await createManyOffline(ctx, entity, [values]);
    if (!result?.ok) throw result?.error ?? new Error(`${entity.table} was not stored`);
    return result.doc;
  }
  const key = keyOf(entity, values);
  const existing = await ctx.collection(entity).findOne(key).exec();
  // One record per profile (skills, social, …): a second create is an edit of the first.
  if (existing && entity.routes.upsert) return updateOffline(ctx, entity, existing, values, images);
  if (existing) throw duplicateEntry();
  // Images first: once the record exists its images do, whatever happens in between.
  if (images.length) await storeImagesOffline(ctx.db, entity, key, images);
  await ctx.collection(entity).insert(pendingCreateDoc(entity, values));
  return stored(ctx, entity, key);
}

export async function create(ctx: Ctx, entity: EntityShape, values: Values, images: readonly ImageInput[] = []): Promise<DocData> {
  if (!hasRowApi(entity)) throw new Error(`${entity.table} records are saved with their parent`);
  checkImages(entity, images);
  const ready = await prepareCreate(ctx, entity, values);
  if (!ctx.isOnline()) return createOffline(ctx, entity, ready, images);
  try {
    return await createOnline(ctx, entity, ready, images);
  } catch (error) {
    if (isNetworkError(error)) return createOffline(ctx, entity, ready, images);
    throw error;
  }
}

type Result = CreateResult<DocData>;

const failed = (error: unknown): Result => ({ ok: false, error: error instanceof Error ? error : new Error(String(error)) });

/** An edit of a stored record of an upsert entity (one per profile), as createOffline makes it. */
async function editStored(ctx: Ctx, entity: EntityShape, values: Values): Promise<Result> {
  const local = await ctx.collection(entity).findOne(keyOf(entity, values)).exec();
  if (!local) return failed(new Error(`${entity.table} ${keyOf(entity, values)} was not stored`));
  return { ok: true, doc: await updateOffline(ctx, entity, local, values, []) };
}

/**
 * Many new records stored offline with one bulkInsert, each record decided as createOffline
 * decides it: a key already stored (or earlier in the same call) is an edit for an upsert
 * entity, made after the insert, in order; otherwise 'duplicate entry' for that record alone.
 * The insert itself finds the stored keys (RxDB reads each one in its write transaction and
 * refuses it with a 409): a findByIds before it would read them all again, about a fifth of
 * the insert's time (docs/performance.md "Offline writes").
 */
async function createManyOffline(ctx: Ctx, entity: EntityShape, records: readonly Values[]): Promise<Result[]> {
  const results: Result[] = [];
  const inserted = new Map<string, number>(); // key -> index of the record inserting it
  const edits: number[] = [];
  const docs: DocData[] = [];
  records.forEach((values, i) => {
    const key = keyOf(entity, values);
    if (!inserted.has(key)) {
      inserted.set(key, i);
      docs.push(pendingCreateDoc(entity, values));
    } else if (entity.routes.upsert) edits.push(i);
    else results[i] = failed(duplicateEntry());
  });
  const { success, error } = await ctx.collection(entity).bulkInsert(docs);
  for (const doc of success) results[inserted.get(doc.primary) as number] = { ok: true, doc: plain(doc) };
  for (const refused of error) {
    const i = inserted.get(refused.documentId) as number;
    if (refused.status === 409 && entity.routes.upsert) edits.push(i);
    else
      results[i] = failed(
        refused.status === 409 ? duplicateEntry() : new Error(`${entity.table} ${refused.documentId} was not stored (${refused.status})`),
      );
  }
  for (const i of edits.sort((a, b) => a - b)) results[i] = await editStored(ctx, entity, records[i] as Values).catch(failed);
  return results;
}

/** Online: each record through create's own path; once the network is gone, the rest offline. */
async function createManyOnline(ctx: Ctx, entity: EntityShape, records: readonly Values[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const [i, values] of records.entries()) {
    try {
      results.push({ ok: true, doc: await createOnline(ctx, entity, values, []) });
    } catch (error) {
      if (!isNetworkError(error)) results.push(failed(error));
      else return [...results, ...(await createManyOffline(ctx, entity, records.slice(i)))];
    }
  }
  return results;
}

/**
 * Many new records of one kind, prepared and checked as `create` prepares them (no images: a
 * record with images is saved with `create`). Answers one result per record, in order: a bad
 * record fails alone and nothing is stored twice. Offline, one bulk insert.
 */
export async function createMany(ctx: Ctx, entity: EntityShape, records: readonly Values[]): Promise<Result[]> {
  if (!hasRowApi(entity)) throw new Error(`${entity.table} records are saved with their parent`);
  const takenRegNos = new Set<unknown>();
  const prepared: ({ ready: Values } | { error: unknown })[] = [];
  for (const values of records) {
    prepared.push(
      await prepareCreate(ctx, entity, values, takenRegNos).then(
        (ready) => ({ ready }),
        (error: unknown) => ({ error }),
      ),
    );
  }
  const ready = prepared.flatMap((p) => ('ready' in p ? [p.ready] : []));
  const saved = ctx.isOnline() ? await createManyOnline(ctx, entity, ready) : await createManyOffline(ctx, entity, ready);
  let next = 0;
  return prepared.map((p) => ('ready' in p ? (saved[next++] as Result) : failed(p.error)));
}

function withoutKeys(entity: EntityShape, body: Row): Row {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !entity.keyFields.includes(name)));
}

/**
 * An edit saved on this device. An emptied image slot loses the image waiting here for upload
 * (all there is for a record never uploaded); a slot whose image is on the server is listed in
 * `syncRemoveImages`, and the upload engine sends it as `removeImages`.
 */
async function updateOffline(
  ctx: Ctx,
  entity: EntityShape,
  local: RxDocument<unknown>,
  values: Values,
  images: readonly ImageInput[],
  basedOn?: string,
): Promise<DocData> {
  const key = keyOf(entity, local.toJSON() as Values);
  const emptied = removedSlots(entity, values, images);
  await removeLocalSlots(ctx.db, entity, key, emptied);
  if (images.length) await storeImagesOffline(ctx.db, entity, key, images);
  const edit = { basedOn, emptied, filled: images.map((image) => image.slot) };
  await local.incrementalModify((current: unknown) => pendingUpdate(entity, current as DocData, values, edit));
  return stored(ctx, entity, key);
}

/**
 * PUT of fields, new images and emptied slots. Multipart cannot clear a field (the server reads
 * an empty form value as "not given"), so when the body clears one and the images change too,
 * the fields go first as JSON and the images onto the version that answers (as the upload
 * engine does). Most edits take the one request.
 */
async function putFieldsAndImages(
  ctx: Ctx,
  entity: EntityShape,
  key: string,
  body: Row,
  images: readonly ImageInput[],
  removeImages: readonly string[],
): Promise<Row> {
  const multipart = images.length > 0 || removeImages.length > 0;
  if (!multipart || !Object.values(body).some((v) => v === null)) return putRecord(ctx.http, entity, key, body, images, removeImages);
  const fields = await putRecord(ctx.http, entity, key, body, []);
  await writeSynced(ctx.db, entity, [fields], await answerWrite(ctx, entity, fields, false));
  return putRecord(ctx.http, entity, key, { updatedAt: fields.updatedAt }, images, removeImages);
}

async function updateOnline(
  ctx: Ctx,
  entity: EntityShape,
  key: string,
  local: DocData | null,
  values: Values,
  images: readonly ImageInput[],
  basedOn?: string,
): Promise<DocData> {
  const body: Row = withoutKeys(entity, bodyFromDoc(entity, values));
  // The copy the edit was based on: the server refuses the edit if its row changed since.
  const base = basedOn ?? local?.updatedAt;
  if (typeof base === 'string') body.updatedAt = base;
  const removeImages = removedSlots(entity, values, images);
  let row: Row;
  try {
    row = await putFieldsAndImages(ctx, entity, key, body, recordImages(entity, images), removeImages);
    await writeSynced(ctx.db, entity, [row], await answerWrite(ctx, entity, row, false));
    // A copy of an emptied slot still waiting here would otherwise show again and be re-sent.
    await removeLocalSlots(ctx.db, entity, key, removeImages);
  } catch (error) {
    // Keep the server's newer copy locally (where the device keeps the record at all); the
    // screen decides with the user.
    if (error instanceof ConflictError) await writeSynced(ctx.db, entity, [error.server], readWrite(ctx, entity));
    throw error;
  }
  if (hasProfileImages(entity)) await sendProfileImages(ctx, entity, key, images);
  return answered(ctx, entity, key, row);
}

/** A server copy stored here that is newer than the one the edit was made on: refused at once,
 * online or offline, with that copy for the screen to show (as the server would answer). */
function assertNotOvertaken(local: RxDocument<unknown> | null, basedOn: string | undefined): void {
  if (basedOn === undefined || !local) return;
  const copy = plain(local);
  if (!isPending(copy) && typeof copy.updatedAt === 'string' && copy.updatedAt !== basedOn) throw new ConflictError(copy);
}

/** An edit. `values` holds the fields to change (null clears one); an image slot given as null
 * (`{sp_img2: null}`) is emptied (online: multipart `removeImages`), and `images` fill or
 * replace slots. `options.basedOn` names the version the edit was made on. */
export async function update(
  ctx: Ctx,
  entity: EntityShape,
  key: string,
  values: Values,
  images: readonly ImageInput[] = [],
  options: UpdateOptions = {},
): Promise<DocData> {
  if (!hasRowApi(entity)) throw new Error(`${entity.table} records are saved with their parent`);
  checkImages(entity, images);
  const { basedOn } = options;
  const local = await ctx.collection(entity).findOne(key).exec();
  assertNotOvertaken(local, basedOn);
  // A record not uploaded yet keeps collecting edits locally: the upload engine sends it whole.
  if (!ctx.isOnline() || isPending(local)) {
    if (local) return updateOffline(ctx, entity, local, values, images, basedOn);
    if (entity.routes.upsert) return createOffline(ctx, entity, { ...values, [entity.keyFields[0] as string]: key }, images);
    throw new Error(`${entity.table} ${key} is not available offline`);
  }
  try {
    return await updateOnline(ctx, entity, key, local ? plain(local) : null, values, images, basedOn);
  } catch (error) {
    if (isNetworkError(error) && local) return updateOffline(ctx, entity, local, values, images, basedOn);
    throw error;
  }
}

/** Children the server soft-deletes with their parent (a provider's services) leave the
 * device at once rather than at the next pull. */
async function removeSyncedChildren(ctx: Ctx, entity: EntityShape, key: string): Promise<void> {
  const children = OFFLINE_ENTITIES.filter((child) => child.softDelete && child.parent?.entity === entity.name);
  for (const child of children) {
    await ctx
      .collection(child)
      .find({ selector: { [child.parent?.field as string]: key, syncState: 'synced' } })
      .remove();
  }
}

/** Soft delete (product.md §5: reason and password), online only. A record never uploaded is
 * simply discarded; anything else needs the server, so offline it is refused plainly. */
export async function remove(ctx: Ctx, entity: EntityShape, key: string, input?: RemoveInput): Promise<void> {
  const local = await ctx.collection(entity).findOne(key).exec();
  if (isPending(local) && local?.syncOp === 'create') {
    await removeLocalImages(ctx.db, entity, key);
    await local.remove();
    return;
  }
  if (!ctx.isOnline()) throw new Error('Deleting a record needs a connection: switch to online mode and try again');
  if (!entity.softDelete) throw new Error(`${entity.table} records cannot be deleted`);
  if (!input) throw new Error('Deleting needs a reason and your password');
  await postDelete(ctx.http, entity, key, input);
  await removeLocalImages(ctx.db, entity, key);
  await local?.remove();
  await removeSyncedChildren(ctx, entity, key);
}
