// Reading multipart requests: record fields plus image files, within the limits of ADR-0010
// "Upload limits". The type is read from the file's first bytes, not trusted from the client.
//
// Limits (docs/security.md "Input rules"): 5 MB per file (MAX_IMAGE_BYTES), counted while the
// file streams in, so an oversize file fails at its 5 MB + 1st byte and is never held whole;
// at most MAX_FILES files and MAX_FILE_TOTAL bytes of files per request; MAX_FIELDS text
// fields of at most MAX_FIELD_BYTES each; and at most MAX_CONCURRENT_UPLOADS multipart
// requests read at once (the others wait, their bodies held back by TCP), so the memory the
// server gives to uploads stays below MAX_CONCURRENT_UPLOADS × (MAX_FILE_TOTAL + fields).
import type {} from '@fastify/multipart'; // adds parts() and isMultipart() to requests
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_IMAGE_BYTES } from '../../schemas/index';
import { TEXT_PATTERN } from '../../schemas/derive/json-schema';
import { HttpError } from './errors';

export const MAX_FILE_BYTES = MAX_IMAGE_BYTES;
/** Files of one request: the most a route takes (referral attachments). */
export const MAX_FILES = 10;
/** Bytes of all files of one request: three images at the limit (a job's or a service's slots). */
export const MAX_FILE_TOTAL = 3 * MAX_FILE_BYTES;
export const MAX_FIELDS = 100;
/** One text field: the whole record as JSON in `data` fits easily. */
export const MAX_FIELD_BYTES = 256 * 1024;
/** Multipart requests read and stored at the same time. */
export const MAX_CONCURRENT_UPLOADS = 4;
/** Multipart requests waiting for a turn; more answer 503 (the app retries later). */
export const MAX_WAITING_UPLOADS = 200;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const DOCUMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;

export interface UploadedFile {
  field: string;
  fileName: string;
  mime: string;
  data: Buffer;
}

/** The limits of a request that carries more than one record (the batched push); the per-file
 * limit and the type check stay the same. */
export interface MultipartOptions {
  maxFiles?: number;
  maxFileTotal?: number;
  maxFieldBytes?: number;
  /** A file of a refused type goes here instead of failing the whole request (its record fails alone). */
  rejectFile?: (field: string, error: HttpError) => void;
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

const TEXT = new RegExp(TEXT_PATTERN, 'u');
/** With the `u` flag a lone surrogate is one code point; a pair (an emoji) is not matched. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/gu;

/** A client's file name, kept for display only: control characters removed, 255 characters at most. */
function cleanFileName(name: string): string {
  return name.replace(CONTROL_CHARS, '').slice(0, 255);
}

/** Busboy and @fastify/multipart errors that are the client's mistake, with their answer. */
const MULTIPART_ERRORS: Record<string, [number, 'upload.tooLarge' | 'http.tooLarge' | 'upload.tooManyFiles' | 'upload.broken']> = {
  FST_REQ_FILE_TOO_LARGE: [413, 'upload.tooLarge'],
  FST_FILES_LIMIT: [413, 'upload.tooManyFiles'],
  FST_PARTS_LIMIT: [413, 'http.tooLarge'],
  FST_FIELDS_LIMIT: [413, 'http.tooLarge'],
  FST_PROTO_VIOLATION: [400, 'upload.broken'],
  FST_INVALID_JSON_FIELD_ERROR: [400, 'upload.broken'],
};

/** Any failure while reading a multipart body, as the 4xx it deserves: a truncated or
 * malformed body is the client's mistake (busboy says 'Unexpected end of form', 'Malformed
 * part header', 'Multipart: Boundary not found'), never a 500. */
function asClientError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string } | null)?.code;
  const known = code ? MULTIPART_ERRORS[code] : undefined;
  if (known) return new HttpError(known[0], known[1], { limit: MAX_FILES });
  return new HttpError(400, 'upload.broken');
}

/**
 * Reads every part of a multipart request. Files are counted while they stream: one over
 * MAX_FILE_BYTES, or files over MAX_FILE_TOTAL together, fail the request (413) at once;
 * a file of a type not in `allowed` fails it (415); a truncated field (413) or a field with
 * control characters (400) too. Nothing is stored before this returns.
 */
export async function readMultipart(
  request: FastifyRequest,
  allowed: readonly string[],
  options: MultipartOptions = {},
): Promise<MultipartBody> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const { maxFiles = MAX_FILES, maxFileTotal = MAX_FILE_TOTAL, maxFieldBytes = MAX_FIELD_BYTES, rejectFile } = options;
  let fileTotal = 0;
  try {
    const parts = request.parts({
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: maxFiles,
        fields: MAX_FIELDS,
        fieldSize: maxFieldBytes,
        parts: maxFiles + MAX_FIELDS,
        headerPairs: 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw new HttpError(413, 'http.tooLarge');
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        if (!TEXT.test(value) || !TEXT.test(part.fieldname))
          throw new HttpError(400, 'validation.controlChars', { field: cleanFileName(part.fieldname) });
        fields[part.fieldname] = value;
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        fileTotal += chunk.length;
        if (size > MAX_FILE_BYTES || part.file.truncated) throw new HttpError(413, 'upload.tooLarge');
        if (fileTotal > maxFileTotal) throw new HttpError(413, 'http.tooLarge');
        chunks.push(chunk);
      }
      if (part.file.truncated) throw new HttpError(413, 'upload.tooLarge');
      if (size === 0) continue; // an empty file input: nothing chosen
      const data = Buffer.concat(chunks, size);
      const mime = sniffMime(data);
      const name = cleanFileName(part.filename || part.fieldname);
      if (!mime || !allowed.includes(mime)) {
        const refused = new HttpError(415, 'upload.badType', { file: name, types: allowed.map(extensionOf).join(', ') });
        if (!rejectFile) throw refused;
        rejectFile(part.fieldname, refused);
        continue;
      }
      files.push({ field: part.fieldname, fileName: name || `${part.fieldname}.${extensionOf(mime)}`, mime, data });
    }
  } catch (error) {
    throw asClientError(error);
  }
  return { fields, files };
}

// ---------------------------------------------------------------------------------------------
// How many uploads at once
// ---------------------------------------------------------------------------------------------

/** A counting semaphore: a turn is taken before a multipart body is read and given back when
 * its answer has gone (or the client went away), so buffered files stay bounded. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Resolves with the function that gives the turn back; undefined when the queue is full. */
  async take(): Promise<(() => void) | undefined> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the turn passes on: `running` stays the same
      else this.running--;
    };
  }
}

function isMultipartRequest(request: FastifyRequest): boolean {
  return /^multipart\//i.test(request.headers['content-type'] ?? '');
}

/** Makes every multipart request wait for a turn (MAX_CONCURRENT_UPLOADS) before its handler reads it. */
export function limitConcurrentUploads(app: FastifyInstance, limit = MAX_CONCURRENT_UPLOADS) {
  const turns = new Turns(limit, MAX_WAITING_UPLOADS);
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isMultipartRequest(request)) return;
    const state: { closed: boolean; giveBack?: () => void } = { closed: false };
    // Listening before waiting: a client gone while it waited gives its turn back at once.
    reply.raw.once('close', () => {
      state.closed = true;
      state.giveBack?.();
    });
    const giveBack = await turns.take();
    state.giveBack = giveBack;
    if (!giveBack) {
      void reply.header('retry-after', '5');
      throw new HttpError(503, 'upload.busy');
    }
    if (state.closed) giveBack();
  });
}
