// One error shape for every answer: {statusCode, error, code, message, errors?}. Client mistakes
// get a 4xx with a message in the user's language; only real faults are 500, and those never
// show their details. `code` is the message's key (auth.inactive, auth.sessionEnded, …), the
// same in every language, so the app can tell the cases apart without reading the text.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/index';
import { DATE_YEAR_PATTERN, MAX_YEAR, MIN_YEAR, TEXT_PATTERN } from '../../schemas/derive/json-schema';
import { VALIDATION_CODE, type ErrorCode } from '../../schemas/errorCodes';
import { requestLang, translate, type Lang, type MessageKey } from './messages';

export { VALIDATION_CODE, type ErrorCode };

/** The codes whose answer is one message of messages.ts (all but a validation failure's, whose
 * message joins its fields'). A code missing from schemas/errorCodes.ts is a type error here. */
export type KeyedCode = Exclude<ErrorCode, typeof VALIDATION_CODE> & MessageKey;
// Every shared code but the validation failure's has its text in both languages.
const everyCodeHasText: Exclude<ErrorCode, typeof VALIDATION_CODE> extends MessageKey ? true : never = true;
void everyCodeHasText;

/** How long a client should wait before trying again while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: KeyedCode,
    readonly values: Record<string, string | number> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(messageKey);
  }
}

export interface FieldError {
  field: string;
  message: string;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

function fieldOf(error: AjvError): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const child = (error.params.missingProperty ?? error.params.additionalProperty) as string | undefined;
  return [path, child].filter(Boolean).join('.') || 'body';
}

function describe(lang: Lang, error: AjvError): FieldError {
  const field = fieldOf(error);
  const p = error.params;
  const say = (key: MessageKey, values: Record<string, string | number> = {}) => ({
    field,
    message: translate(lang, key, { field, ...values }),
  });
  switch (error.keyword) {
    case 'required':
      return say('validation.required');
    case 'minLength':
      return say('validation.minLength', { limit: Number(p.limit) });
    case 'maxLength':
      return say('validation.maxLength', { limit: Number(p.limit) });
    case 'minimum':
      return say('validation.minimum', { limit: Number(p.limit) });
    case 'maximum':
      return say('validation.maximum', { limit: Number(p.limit) });
    case 'type':
      return say('validation.type', { type: String(p.type) });
    case 'enum':
      return say('validation.enum', { values: ((p.allowedValues as unknown[]) ?? []).join(', ') });
    case 'format':
      return say('validation.format');
    case 'pattern':
      if (p.pattern === TEXT_PATTERN) return say('validation.controlChars');
      if (p.pattern === DATE_YEAR_PATTERN) return say('validation.dateRange', { min: MIN_YEAR, max: MAX_YEAR });
      return say('validation.format');
    case 'propertyNames':
      return say('validation.controlChars');
    case 'additionalProperties':
      return say('validation.unknown');
    default:
      return say('validation.other');
  }
}

export function validationErrors(lang: Lang, errors: readonly AjvError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.map((e) => describe(lang, e)).filter((e) => !seen.has(e.field) && seen.add(e.field));
}

/** An error answer: the status and the body every route sends ({statusCode, error, code, message, …}). */
export interface ErrorAnswer {
  statusCode: number;
  body: { statusCode: number; error: string | undefined; code: ErrorCode; message: string } & Record<string, unknown>;
}

function answer(statusCode: number, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): ErrorAnswer {
  return { statusCode, body: { statusCode, error: STATUS_CODES[statusCode], code, message, ...extra } };
}

/** The answer of message `key`, in the request's language. */
function keyed(
  request: FastifyRequest,
  statusCode: number,
  key: KeyedCode,
  values: Record<string, string | number> = {},
  extra: Record<string, unknown> = {},
): ErrorAnswer {
  return answer(statusCode, key, translate(requestLang(request), key, values), extra);
}

function send(reply: FastifyReply, { statusCode, body }: ErrorAnswer) {
  return reply.status(statusCode).send(body);
}

const FRAMEWORK_ERRORS: Record<string, [number, KeyedCode]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'http.badJson'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'http.badJson'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'http.tooLarge'],
  FST_REQ_FILE_TOO_LARGE: [413, 'upload.tooLarge'],
  FST_FILES_LIMIT: [413, 'http.tooLarge'],
  FST_PARTS_LIMIT: [413, 'http.tooLarge'],
  FST_FIELDS_LIMIT: [413, 'http.tooLarge'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'http.mediaType'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'http.mediaType'],
};

/** PostgreSQL error classes whose text quotes the values of a row: data exceptions (22) and
 * integrity violations (23), e.g. `Key (prof_Reg_No)=(…) already exists`. */
const VALUE_QUOTING_SQLSTATE = /^2[23]/;

interface DatabaseErrorFields {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  routine?: unknown;
}

/**
 * The log's view of an error. Clients' names, phones and birth dates must never reach the
 * server's logs (ADR-0028), and a database error can quote them in its message and detail:
 * for those only where it happened is kept (SQLSTATE, constraint, table, column).
 */
export function loggedError(error: Error): LoggedError {
  const fields = error as Error & DatabaseErrorFields;
  const stack = error.stack ?? '';
  if (typeof fields.code === 'string' && VALUE_QUOTING_SQLSTATE.test(fields.code)) {
    const where = { code: fields.code, constraint: fields.constraint, table: fields.table, column: fields.column, routine: fields.routine };
    // The stack's first line repeats the message.
    return { type: error.name, message: '[database error: values hidden]', ...where, stack: stack.split('\n').slice(1).join('\n') };
  }
  return { type: error.name, message: error.message, ...(typeof fields.code === 'string' ? { code: fields.code } : {}), stack };
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: HttpError) {
  return send(reply, httpErrorAnswer(request, error));
}

/** An answer that asks the client to wait (429, 503) says how long in Retry-After too. */
function retryAfterHeader(reply: FastifyReply, error: Error): void {
  const seconds = error instanceof HttpError ? error.extra.retryAfter : undefined;
  if (typeof seconds === 'number') reply.header('Retry-After', String(seconds));
}

/** An HttpError about one field (`extra.field`) also lists it in `errors`, shaped like a schema
 * validation failure, so that a form shows the message beside the field. */
function httpErrorAnswer(request: FastifyRequest, error: HttpError): ErrorAnswer {
  const { field, ...extra } = error.extra;
  if (typeof field !== 'string') return keyed(request, error.statusCode, error.messageKey, error.values, error.extra);
  const message = translate(requestLang(request), error.messageKey, error.values);
  return answer(error.statusCode, error.messageKey, message, { ...extra, errors: [{ field, message }] });
}

/** A validation failure of `errors` (Ajv's), in the request's language. */
export function validationAnswer(request: FastifyRequest, errors: readonly AjvError[]): ErrorAnswer {
  const fields = validationErrors(requestLang(request), errors);
  return answer(400, VALIDATION_CODE, fields.map((e) => e.message).join('; '), { errors: fields });
}

/**
 * The answer to a client's mistake (an HttpError, a validation failure, a framework's 4xx), or
 * undefined for a fault of the server or the database (logged and answered 500 / 503). The
 * error handler and the batched push (one answer per record) both read errors through it.
 */
export function clientErrorAnswer(request: FastifyRequest, error: Error): ErrorAnswer | undefined {
  if (error instanceof HttpError) return httpErrorAnswer(request, error);
  const framework = error as Partial<FastifyError>;
  if (framework.validation) return validationAnswer(request, framework.validation as AjvError[]);
  const known = framework.code ? FRAMEWORK_ERRORS[framework.code] : undefined;
  if (known) return keyed(request, known[0], known[1]);
  if (framework.statusCode && framework.statusCode >= 400 && framework.statusCode < 500) {
    return keyed(request, framework.statusCode, 'http.badRequest');
  }
  return undefined;
}

/** The 500 answer: its details stay in the log. */
export const internalErrorAnswer = (request: FastifyRequest): ErrorAnswer => keyed(request, 500, 'http.internal');

export function installErrorHandler(app: FastifyInstance, fallback?: (request: FastifyRequest, reply: FastifyReply) => unknown) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Refused before the body's end (a file over the limit, a bad part): the rest is not read,
    // so the connection closes with the answer rather than stay open half-read (a keep-alive
    // socket in that state would also hold up the server's close).
    if (!request.raw.complete) reply.header('connection', 'close');
    const client = clientErrorAnswer(request, error);
    retryAfterHeader(reply, error);
    if (client) return send(reply, client);
    if (isDatabaseUnavailable(error)) {
      // Not a bug: the database is down, restarting or frozen. The request may be repeated.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return send(reply, keyed(request, 503, 'http.databaseUnavailable'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, internalErrorAnswer(request));
  });
  app.setNotFoundHandler((request, reply) => {
    const answered = fallback?.(request, reply);
    if (answered) return answered;
    return send(reply, keyed(request, 404, 'http.notFound', { path: request.url.split('?')[0] ?? '' }));
  });
}

/** PostgreSQL's unique_violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** A 4xx about one field, shaped like a schema validation failure so a form shows it next to the field. */
export function fieldError(
  request: FastifyRequest,
  field: string,
  key: KeyedCode,
  values: Record<string, string | number> = {},
  statusCode = 400,
): HttpError {
  const message = translate(requestLang(request), key, values);
  return new HttpError(statusCode, key, values, { errors: [{ field, message }] });
}
