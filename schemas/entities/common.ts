// Field shapes several entities share, so that a limit changes in one place.

import { f, text, PHONE_PATTERN } from '../define.ts';

/** Largest image or file accepted (ADR-0010: 5 MB per image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** One batched upload (POST /api/sync/push/{table}, ADR-0013): at most this many records and
 * bytes of JSON and (multipart) `imageBytes` of images, each image within MAX_IMAGE_BYTES as on
 * the single-record routes. The engine puts in a batch only records whose images are at most
 * `smallImage` each (larger ones go with their record alone) and splits what it sends to fit;
 * the server refuses more (400 / 413). */
export const PUSH_LIMITS = { records: 100, bytes: 1024 * 1024, imageBytes: 4 * 1024 * 1024, smallImage: 256 * 1024 } as const;

/** Base64 of MAX_IMAGE_BYTES (4 characters per 3 bytes, rounded up to whole groups). */
export const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/** Image types accepted for record images (jobs, services). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Profile images and referral attachments may also be scanned documents. */
export const FILE_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;

export const phone = () => f.string({ maxLength: 24, format: 'phone', pattern: PHONE_PATTERN, example: '+243 81 234 5678' });
export const email = () => f.string({ maxLength: 254, format: 'email' });
export const name = () => f.string({ required: true, minLength: 2, maxLength: 200 });
export const longText = () => text(4000);

/** How many people a posting or training takes. */
export const places = () => f.integer({ minimum: 1, maximum: 10_000 });
export const durationMonths = () => f.integer({ minimum: 1, maximum: 120 });

/** The organisation owning a record (a lookup item id, 0 = none). The server sets it from
 * the creating user's `location`, so a client can never file records under another one. */
export const owner = () => f.lookup({ list: 'organisation', allowNone: true, readOnly: true });
