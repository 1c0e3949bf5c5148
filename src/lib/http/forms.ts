// The multipart bodies of the entity calls (docs/api.md "Images"): a record's fields in one JSON
// field `data` with its images as file parts named by slot, a profile image's `img_for` + `file`.

/** One file of a save: its slot (jb_img1, sp_img2, a profile kind), its bytes and its name. */
export interface ImageInput {
  slot: string;
  blob: Blob;
  /** File name; a File's own name when absent. */
  name?: string;
}

export function imageName(image: ImageInput): string {
  const own = image.name ?? (image.blob as Partial<File>).name;
  return (own || image.slot).slice(0, 255);
}

/** The record's fields in `data`, its images as files and the slots to empty as `removeImages`
 * (server/plugins/records/body.ts). */
export function recordForm(
  body: Readonly<Record<string, unknown>>,
  images: readonly ImageInput[],
  removeImages: readonly string[] = [],
): FormData {
  const form = new FormData();
  form.append('data', JSON.stringify(body));
  appendImages(form, images);
  if (removeImages.length) form.append('removeImages', removeImages.join(','));
  return form;
}

/** Adds images as file parts named by their slot, after `prefix` (a batch names each record's
 * images `{index}.{slot}`: POST /api/sync/push/{table}, server/plugins/sync/push.ts). */
export function appendImages(form: FormData, images: readonly ImageInput[], prefix = ''): void {
  for (const image of images) form.append(`${prefix}${image.slot}`, image.blob, imageName(image));
}

/** The file part of a profile image: PUT /profile/images/{prof_Id}'s field, `{index}.file` in a batch. */
export const PROFILE_IMAGE_PART = 'file';

/** The multipart body of PUT /profile/images/{id}. */
export function profileImageForm(image: ImageInput): FormData {
  const form = new FormData();
  form.append('img_for', image.slot);
  form.append(PROFILE_IMAGE_PART, image.blob, imageName(image));
  return form;
}
