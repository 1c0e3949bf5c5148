// Photos are shrunk on the device before they are stored or sent (ADR-0025): a phone photo of
// 4000×3000 px and 4-8 MB becomes 1600×1200 px and a few hundred kB, which fits the 5 MB limit,
// the offline store and a slow field connection.
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../../schemas/index';

/** Longest side after shrinking. */
export const MAX_SIDE = 1600;
/** JPEG quality: visually lossless for photos of signs, documents and places. */
export const JPEG_QUALITY = 0.85;

export type ImageProblem = 'notImage' | 'unreadable' | 'tooLarge';

export class ImageRejected extends Error {
  constructor(readonly reason: ImageProblem) {
    super(reason);
    this.name = 'ImageRejected';
  }
}

export interface Size {
  width: number;
  height: number;
}

/** The size to draw at: the longest side brought down to `max`, proportions kept, never
 * enlarged. 4000×3000 → 1600×1200; 1200×3000 → 640×1600; 800×600 stays. */
export function targetSize(width: number, height: number, max = MAX_SIDE): Size & { scaled: boolean } {
  const longest = Math.max(width, height);
  if (longest <= max) return { width, height, scaled: false };
  const ratio = max / longest;
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)), scaled: true };
}

/** Types the server stores as they are (schemas IMAGE_TYPES); anything else is re-encoded. */
export function isStoredType(type: string): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(type);
}

/** 'IMG_0001.HEIC' → 'IMG_0001.jpg'. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]+$/, '') || 'photo';
  return `${base}.jpg`;
}

interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close: () => void;
}

async function decodeWithElement(blob: Blob): Promise<Decoded> {
  const url = URL.createObjectURL(blob);
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  return { source: img, width: img.naturalWidth, height: img.naturalHeight, close: () => URL.revokeObjectURL(url) };
}

/** Decodes with the phone's rotation applied (EXIF orientation), so portraits stay upright. */
async function decode(blob: Blob): Promise<Decoded> {
  try {
    if (typeof createImageBitmap === 'function') {
      const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
      return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    }
    return await decodeWithElement(blob);
  } catch {
    throw new ImageRejected('unreadable');
  }
}

async function encodeJpeg(image: Decoded, size: Size): Promise<Blob> {
  const draw = (ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
    // A transparent PNG would turn black in a JPEG: paint white under it.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(image.source, 0, 0, size.width, size.height);
  };
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new ImageRejected('unreadable');
    draw(ctx);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new ImageRejected('unreadable');
  draw(ctx);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new ImageRejected('unreadable'))), 'image/jpeg', JPEG_QUALITY),
  );
}

export interface ShrunkImage {
  blob: Blob;
  name: string;
  width: number;
  height: number;
}

/** The image ready to store or send: the original when it is small enough and of a type the
 * server keeps (no quality lost), else a JPEG of at most MAX_SIDE px. Refuses what is not an
 * image, what the device cannot read, and what is still over 5 MB. */
export async function shrinkImage(file: Blob, fileName = (file as Partial<File>).name ?? 'photo'): Promise<ShrunkImage> {
  // Some Android pickers give no type: let the decoder decide.
  if (file.type && !file.type.startsWith('image/')) throw new ImageRejected('notImage');
  const image = await decode(file);
  try {
    const size = targetSize(image.width, image.height);
    const keep = !size.scaled && isStoredType(file.type);
    const blob = keep ? file : await encodeJpeg(image, size);
    if (blob.size > MAX_IMAGE_BYTES) throw new ImageRejected('tooLarge');
    return { blob, name: keep ? fileName : jpegName(fileName), width: size.width, height: size.height };
  } finally {
    image.close();
  }
}

/** A scanned document kept as it is (no re-encoding: the server reads its first bytes). */
export const PDF_TYPE = 'application/pdf';

/** A file for a slot that takes documents too: a PDF as it is (within 5 MB), an image shrunk
 * like any photo. */
export async function prepareDocument(
  file: Blob,
  fileName = (file as Partial<File>).name ?? 'document',
): Promise<{ blob: Blob; name: string }> {
  const isPdf = file.type === PDF_TYPE || (!file.type && /\.pdf$/i.test(fileName));
  if (!isPdf) return shrinkImage(file, fileName);
  if (file.size > MAX_IMAGE_BYTES) throw new ImageRejected('tooLarge');
  return { blob: file.type ? file : new Blob([file], { type: PDF_TYPE }), name: fileName };
}
