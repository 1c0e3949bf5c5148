// Every error answer of the API read one way (docs/api.md: {statusCode, error, code, message,
// errors?}): one typed error with the server's `code` from schemas/errorCodes.ts. Code decides
// on `status` and `code`; `message` is the server's text in the user's language, for display
// only (docs/adr/0039-code-layout.md "Error codes, not texts").
import { isAxiosError } from 'axios';
import { isErrorCode, type ErrorCode } from '../../../schemas/errorCodes';

/** An error answer's body: the contract's fields, and whatever a route adds (`server`, `deleted`). */
export type ErrorBody = Readonly<Record<string, unknown>>;

/** An answer of the server that refuses a request: its status, its `code` (undefined when the
 * body carries none: a gateway's page, a proxy's 413) and its text. */
export class ApiError extends Error {
  readonly code: ErrorCode | undefined;

  constructor(
    readonly status: number,
    readonly body: ErrorBody = {},
    message: string = displayText(body) ?? `HTTP ${status}`,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = isErrorCode(body.code) ? body.code : undefined;
  }

  /** A refusal made on the device that mirrors the server's (the offline store's `http.duplicate`). */
  static local(status: number, code: ErrorCode, message: string, body: ErrorBody = {}): ApiError {
    return new ApiError(status, { ...body, code, message }, message);
  }
}

/** 409 `http.conflict`: the server's row changed since the copy the edit was based on. */
export class ConflictError extends ApiError {
  constructor(readonly server: Readonly<Record<string, unknown>>) {
    super(409, { code: 'http.conflict', message: 'conflict', server }, 'conflict');
    this.name = 'ConflictError';
  }
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** product.md §8: the answer's result, else its message. */
function displayText(body: ErrorBody): string | undefined {
  return text(body.result) ?? text(body.message) ?? text(body.error);
}

/** The refusal an error carries: an ApiError as is, an axios error with an answer read into one;
 * undefined when no answer came (network, timeout) or for any other error. */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (!isAxiosError(error) || !error.response) return undefined;
  const { status, statusText, data } = error.response;
  const body: ErrorBody = data && typeof data === 'object' ? (data as ErrorBody) : {};
  return new ApiError(status, body, text(body.result) ?? text(body.message) ?? text(statusText) ?? error.message);
}

/** No answer at all (network down, server unreachable, a request past its bound). */
export function isNetworkError(error: unknown): boolean {
  return isAxiosError(error) && !error.response;
}

/** The server answered `status` (and, when given, one of `codes`). */
export function isAnswer(error: unknown, status: number, ...codes: readonly ErrorCode[]): boolean {
  const answer = apiErrorOf(error);
  if (answer?.status !== status) return false;
  return codes.length === 0 || (answer.code !== undefined && codes.includes(answer.code));
}

/** The `code` of an error answer, if it has one. */
export function codeOf(error: unknown): ErrorCode | undefined {
  return apiErrorOf(error)?.code;
}
