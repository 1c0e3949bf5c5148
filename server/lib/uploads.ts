// Reading multipart requests: record fields plus image files, within the limits of issue 3
// (5 MB per file; JPEG, PNG, WebP, and PDF where documents are allowed). The type is read
// from the file's first bytes, not trusted from the client.
import type {} from '@fastify/multipart'; // adds parts() and isMultipart() to requests
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors';

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const DOCUMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;

export interface UploadedFile {
  field: string;
  fileName: string;
  mime: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** The real type of a file from its magic bytes, or undefined when it is none we accept. */
export function sniffMime(data: Buffer): string | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (data.length >= 5 && data.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

export function extensionOf(mime: string): string {
  return EXTENSIONS[mime] ?? 'bin';
}

export function isMultipart(request: FastifyRequest): boolean {
  return request.isMultipart();
}

/**
 * Reads every part of a multipart request into memory. Files over the limit, or of a type
 * not in `allowed`, fail the whole request (413 / 415) before anything is stored.
 */
export async function readMultipart(request: FastifyRequest, allowed: readonly string[]): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for await (const part of request.parts({ limits: { fileSize: MAX_FILE_BYTES, files: 10, fields: 200 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    const data = await part.toBuffer(); // throws FST_REQ_FILE_TOO_LARGE (413) past the limit
    if (data.length === 0) continue; // an empty file input: nothing chosen
    const mime = sniffMime(data);
    if (!mime || !allowed.includes(mime)) {
      throw new HttpError(415, 'upload.badType', { file: part.filename || part.fieldname, types: allowed.map(extensionOf).join(', ') });
    }
    files.push({ field: part.fieldname, fileName: part.filename || `${part.fieldname}.${extensionOf(mime)}`, mime, data });
  }
  return { fields, files };
}
