// Reading the API's error answers (docs/api.md: {statusCode, error, message, errors?}) without
// importing the app's axios instance, so these parts stay usable in tests and other screens.
import { isAxiosError } from 'axios';

export interface FieldMessage {
  field: string;
  message: string;
}

/** Server error body (contract): {statusCode, error, code, message, errors?}; legacy bodies use `result`. */
interface ErrorBody {
  message?: unknown;
  result?: unknown;
  errors?: unknown;
}

/** The text to show for a failed call (the interceptor's toast and every screen's): the server's
 * result if a string, else its message, else the status text or the error's own message. */
export function messageOf(error: unknown): string {
  if (isAxiosError<ErrorBody>(error)) {
    const data = error.response?.data;
    if (data && typeof data.result === 'string' && data.result) return data.result;
    if (data && typeof data.message === 'string' && data.message) return data.message;
    return error.response?.statusText || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function isFieldMessage(value: unknown): value is FieldMessage {
  const v = value as Partial<FieldMessage> | null;
  return typeof v === 'object' && v !== null && typeof v.field === 'string' && typeof v.message === 'string';
}

/** `errors: [{field, message}]` of a 400 answer (schema validation, or one field the server
 * checked itself); an empty list for any other failure. */
export function serverFieldErrors(error: unknown): FieldMessage[] {
  if (!isAxiosError<ErrorBody>(error) || error.response?.status !== 400) return [];
  const errors = error.response.data?.errors;
  return Array.isArray(errors) ? errors.filter(isFieldMessage) : [];
}
