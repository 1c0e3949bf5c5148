// Images of records. Online they travel with their record (multipart jb_img1..3 / sp_img1..3)
// or right after it (profiles: PUT /profile/images/{id}). Offline their bytes wait in RxDB as
// base64: `files` for jobs and services, `tbl_profiles_images` for profiles (product.md §3).
import type { EntityShape } from '../../../schemas/define';
import { COMPOSITE_KEY, COMPOSITE_SEPARATOR, newestFirstKey } from '../../../schemas/derive/rxdb';
import { file as fileEntity, FILE_TYPES, IMAGE_TYPES, MAX_IMAGE_BYTES, profileImage } from '../../../schemas';
import { collectionOf, type IcrsDatabase } from '../store';
import type { DocData } from './docs';
import { imageName, type ImageInput } from '../http';
import { blobBase64 } from '../util';

const PROFILE_SLOTS = profileImage.fields.img_for.values as readonly string[];

/** True for entities whose images are profile images rather than record slots. */
export function hasProfileImages(entity: EntityShape): boolean {
  return entity.fileRecords === profileImage.name;
}

/** Checks slots, types and sizes before anything is written, so a bad file fails the save
 * instead of failing the upload days later. */
export function checkImages(entity: EntityShape, images: readonly ImageInput[]): void {
  const profile = hasProfileImages(entity);
  const slots: readonly string[] = profile ? PROFILE_SLOTS : entity.images;
  const types: readonly string[] = profile ? FILE_TYPES : IMAGE_TYPES;
  for (const image of images) {
    if (!slots.includes(image.slot)) throw new Error(`${entity.table} has no image slot ${image.slot}`);
    if (!types.includes(image.blob.type)) throw new Error(`Image type not accepted: ${image.blob.type || 'unknown'}`);
    if (image.blob.size < 1 || image.blob.size > MAX_IMAGE_BYTES) throw new Error(`Image too large (max ${MAX_IMAGE_BYTES} bytes)`);
  }
}

/** jb_img2 → 2. */
function slotNumber(slot: string): number {
  return Number(slot.slice(-1));
}

async function fileDoc(entity: EntityShape, key: string, image: ImageInput, now: number): Promise<DocData> {
  const imgNo = slotNumber(image.slot);
  const pk = `${key}${COMPOSITE_SEPARATOR}${imgNo}`;
  const data = await blobBase64(image.blob);
  return {
    [COMPOSITE_KEY]: pk,
    srcId: key,
    srcTable: entity.table,
    imgNo,
    name: imageName(image),
    type: image.blob.type,
    size: image.blob.size,
    data,
    syncState: 'pending',
    syncOp: 'create',
    syncAttempts: 0,
    sortDesc: newestFirstKey(now, pk),
  };
}

async function profileImageDoc(key: string, image: ImageInput, now: number, op: 'create' | 'update'): Promise<DocData> {
  const pk = `${key}${COMPOSITE_SEPARATOR}${image.slot}`;
  const data = await blobBase64(image.blob);
  return {
    [COMPOSITE_KEY]: pk,
    prof_Id: key,
    img_for: image.slot,
    name: imageName(image),
    type: image.blob.type,
    size: image.blob.size,
    data,
    syncState: 'pending',
    syncOp: op,
    syncAttempts: 0,
    sortDesc: newestFirstKey(now, pk),
  };
}

/** Keeps images in RxDB until the upload engine sends them; a new image replaces the one of
 * the same slot. A profile image replacing one already on the server is an update. */
export async function storeImagesOffline(db: IcrsDatabase, entity: EntityShape, key: string, images: readonly ImageInput[]): Promise<void> {
  const now = Date.now();
  if (!hasProfileImages(entity)) {
    const docs = await Promise.all(images.map((image) => fileDoc(entity, key, image, now)));
    await collectionOf(db, fileEntity).bulkUpsert(docs);
    return;
  }
  const collection = collectionOf(db, profileImage);
  for (const image of images) {
    const existing = await collection.findOne(`${key}${COMPOSITE_SEPARATOR}${image.slot}`).exec();
    const onServer = existing && (existing.syncState === 'synced' || existing.syncOp === 'update');
    const op = onServer ? 'update' : 'create';
    await collection.upsert(await profileImageDoc(key, image, now, op));
  }
}

/** Forgets the local images of a discarded record. */
export async function removeLocalImages(db: IcrsDatabase, entity: EntityShape, key: string): Promise<void> {
  if (hasProfileImages(entity)) {
    await collectionOf(db, profileImage)
      .find({ selector: { prof_Id: key } })
      .remove();
  } else if (entity.images.length) {
    await collectionOf(db, fileEntity)
      .find({ selector: { srcId: key } })
      .remove();
  }
}

/** The image slots an update empties: an image field given as null in the values (the
 * data layer's "null clears a field"), unless a new image for that slot comes along, which
 * replaces it anyway. Profiles keep their images by kind and have no slots to empty. */
export function removedSlots(entity: EntityShape, values: Readonly<Record<string, unknown>>, images: readonly ImageInput[]): string[] {
  if (hasProfileImages(entity)) return [];
  return entity.images.filter((slot) => slot in values && values[slot] === null && !images.some((image) => image.slot === slot));
}

/** Forgets the images of `slots` that wait on this device (the `files` documents of the record). */
export async function removeLocalSlots(db: IcrsDatabase, entity: EntityShape, key: string, slots: readonly string[]): Promise<void> {
  if (!slots.length || hasProfileImages(entity)) return;
  const keys = slots.map((slot) => `${key}${COMPOSITE_SEPARATOR}${slotNumber(slot)}`);
  await collectionOf(db, fileEntity)
    .find({ selector: { [COMPOSITE_KEY]: { $in: keys } } })
    .remove();
}
