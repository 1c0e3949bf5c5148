// What the client registration form needs beyond create/update (ADR-0028): a client's photo,
// identity document and consent form saved and removed (a removed one is deleted on the server
// too, at once online, at the upload offline), and the search for possible duplicates (the
// server's, within the user's organisation, and this device's store).
import { COMPOSITE_KEY, COMPOSITE_SEPARATOR, newestFirstKey, pendingRemovals } from '../../../schemas/derive/rxdb';
import { duplicateMatch, foldName, type DuplicateQuery } from '../../../schemas/duplicates';
import { profile, profileImage } from '../../../schemas';
import type { Ctx } from './context';
import { answerWrite, readWrite } from './read';
import { isPending, plain, syncedDoc, writeSynced, type DocData } from './docs';
import { checkImages, storeImagesOffline } from './images';
import { isNetworkError, putProfileImage } from '../http';
import type { DuplicateClient, ImageInput, UploadProgress } from './types';

export const PROFILE_FILE_KINDS = profileImage.fields.img_for.values as readonly string[];

/** A profile image document that stands for a removal waiting for the upload (not an image). */
export function isRemovalPending(doc: Readonly<Record<string, unknown>>): boolean {
  return pendingRemovals(doc).length > 0;
}

const pkOf = (key: string, kind: string) => `${key}${COMPOSITE_SEPARATOR}${kind}`;

/** POST /profile/images/delete/{id}: harmless when the server has none (a repeat). */
export async function postProfileImageRemoval(ctx: Pick<Ctx, 'http'>, key: string, kind: string): Promise<void> {
  await ctx.http.post(`/profile/images/delete/${encodeURIComponent(key)}`, { img_for: kind });
}

/**
 * A removal kept on this device: an image never uploaded is simply forgotten; one the server
 * holds (a synced copy, or a replacement of one) becomes a pending removal the upload engine
 * sends. `serverMayHave`: the client is on the server, so its server image may not be mirrored here.
 */
async function removeOffline(ctx: Ctx, key: string, kind: string, serverMayHave: boolean): Promise<void> {
  const collection = ctx.collection(profileImage);
  const doc = await collection.findOne(pkOf(key, kind)).exec();
  const data = doc ? plain(doc) : null;
  const onServer = data ? data.syncState === 'synced' || data.syncOp === 'update' : serverMayHave;
  if (!onServer) {
    await doc?.remove();
    return;
  }
  const now = Date.now();
  const base: DocData = data ?? { [COMPOSITE_KEY]: pkOf(key, kind), prof_Id: key, img_for: kind, name: kind, type: 'image/jpeg', size: 1 };
  const removal: DocData = {
    ...base,
    data: '',
    syncState: 'pending',
    syncOp: 'update',
    syncAttempts: 0,
    syncRemoveImages: [kind],
    sortDesc: newestFirstKey(now, pkOf(key, kind)),
  };
  delete removal.syncError;
  await collection.upsert(removal);
}

/** Is the client on the server (so that its images go there at once when online)? */
async function profileOnServer(ctx: Ctx, key: string): Promise<boolean> {
  const local = await ctx.collection(profile).findOne(key).exec();
  return !(isPending(local) && local?.syncOp === 'create');
}

/**
 * Saves a client's photos and documents: `images` fill or replace their kind (photo,
 * idDocument, consentForm), `remove` names kinds to delete. Online (and the client on the
 * server) they go at once, removals first; what the network drops waits here for the upload.
 */
export async function saveProfileImages(
  ctx: Ctx,
  key: string,
  images: readonly ImageInput[],
  remove: readonly string[] = [],
  onProgress?: UploadProgress,
): Promise<void> {
  checkImages(profile, images);
  const removals = remove.filter((kind) => PROFILE_FILE_KINDS.includes(kind) && !images.some((image) => image.slot === kind));
  const onServer = await profileOnServer(ctx, key);
  let online = ctx.isOnline() && onServer;
  for (const kind of removals) {
    if (online) {
      try {
        await postProfileImageRemoval(ctx, key, kind);
        await (await ctx.collection(profileImage).findOne(pkOf(key, kind)).exec())?.remove();
        continue;
      } catch (error) {
        if (!isNetworkError(error)) throw error;
        online = false;
      }
    }
    await removeOffline(ctx, key, kind, onServer);
  }
  for (const [i, image] of images.entries()) {
    if (online) {
      try {
        onProgress?.(image.slot, 0);
        const row = await putProfileImage(ctx.http, key, image, { onProgress: onProgress && ((sent) => onProgress(image.slot, sent)) });
        await writeSynced(ctx.db, profileImage, [row], await answerWrite(ctx, profileImage, row, true));
        continue;
      } catch (error) {
        if (!isNetworkError(error)) throw error;
        online = false;
      }
    }
    await storeImagesOffline(ctx.db, profile, key, images.slice(i, i + 1));
  }
}

/** A client's photo and documents: online the server's list (GET /profile/images/{id}) is
 * written here as synced copies, and copies of files the server no longer has are forgotten;
 * answered from the store, where files waiting for the upload (and removals) are too. */
export async function listProfileFiles(ctx: Ctx, key: string): Promise<DocData[]> {
  const collection = ctx.collection(profileImage);
  let served: DocData[] = [];
  if (ctx.isOnline() && (await profileOnServer(ctx, key))) {
    try {
      const rows = (await ctx.http.get<Record<string, unknown>[]>(`/profile/images/${encodeURIComponent(key)}`, { silent: true })).data;
      served = rows.map((row) => syncedDoc(profileImage, row));
      await writeSynced(ctx.db, profileImage, rows, readWrite(ctx, profileImage));
      const kinds = new Set(rows.map((row) => String(row.img_for)));
      const gone = (await collection.find({ selector: { prof_Id: key } }).exec()).filter(
        (doc) => !isPending(plain(doc)) && !kinds.has(String(plain(doc).img_for)),
      );
      await Promise.all(gone.map((doc) => doc.remove()));
    } catch (error) {
      if (!isNetworkError(error)) throw error;
    }
  }
  const held = (await collection.find({ selector: { prof_Id: key } }).exec()).map(plain);
  // Files of a client this device does not keep (outside its caseload) were not written: as served.
  const heldKinds = new Set(held.map((doc) => String(doc.img_for)));
  return [...held, ...served.filter((doc) => !heldKinds.has(String(doc.img_for)))];
}

// ------------------------------------------------------------------------------------------
// Possible duplicates
// ------------------------------------------------------------------------------------------

export { duplicateMatch, foldName, type DuplicateQuery };

/** The store's clients matching `query` (offline, and the ones not uploaded yet when online). */
async function localDuplicates(ctx: Ctx, query: DuplicateQuery): Promise<DuplicateClient[]> {
  const docs = await ctx.collection(profile).find().exec();
  return docs.flatMap((doc) => {
    const data = plain(doc);
    const match = duplicateMatch(query, data);
    if (!match.length || data.prof_Id === query.exclude) return [];
    const { prof_Id, prof_Reg_No, firstName, lastName, birthDate, phone } = data as Record<string, string>;
    return [{ prof_Id, prof_Reg_No, firstName, lastName, birthDate, phone, match, local: isPending(data) }];
  });
}

/** The query as the API takes it: empty values left out. */
function requestBody(query: DuplicateQuery): DuplicateQuery {
  const entries = Object.entries(query).filter(([, v]) => typeof v === 'string' && v.trim() !== '');
  return Object.fromEntries(entries.map(([k, v]) => [k, String(v).trim()]));
}

/** Possible duplicates: the server's (scoped to the user's organisation) when online, and the
 * store's (every client this device holds, uploaded or not); one entry per client. */
export async function findDuplicates(ctx: Ctx, query: DuplicateQuery): Promise<DuplicateClient[]> {
  const local = await localDuplicates(ctx, query);
  if (!ctx.isOnline()) return local;
  let remote: DuplicateClient[] = [];
  try {
    remote = (await ctx.http.post<DuplicateClient[]>('/profile/duplicates', requestBody(query), { silent: true })).data;
  } catch (error) {
    if (!isNetworkError(error)) throw error;
  }
  const seen = new Set(remote.map((r) => r.prof_Id));
  return [...remote, ...local.filter((l) => !seen.has(l.prof_Id))];
}
