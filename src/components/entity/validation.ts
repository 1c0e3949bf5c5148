// Client-side field validation with the rules the server applies (schemas/derive/json-schema.ts
// createBodySchema/updateBodySchema, checked by ajv with ajv-formats): the same declarations,
// so a form never accepts what the server refuses, and its messages are clear and translated.
// Raw form state (text of inputs) is turned into API values here as well.
import { type EntityShape, type Field, MAX_INT, UUID_PATTERN, writableFields } from '../../../schemas/define';
import { DATE_YEAR_PATTERN, MAX_YEAR, MIN_YEAR, TEXT_PATTERN } from '../../../schemas/derive/json-schema';
import { dateBounds, localToday } from '../../../schemas/dates';
import { formatDate } from '../../lib/ui';

/** A message id and its values; the field's label is added as `field` when shown. */
export interface Problem {
  id: string;
  values?: Record<string, string | number>;
}

export type RawValues = Record<string, unknown>;

export interface Checked {
  value: unknown;
  problem?: Problem;
}

// ajv-formats "full" mode, the one Fastify loads.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
// The server's input rules (json-schema.ts withInputRules): no control characters, years 1900-2100.
const TEXT = new RegExp(TEXT_PATTERN, 'u');
const DATE_YEARS = new RegExp(DATE_YEAR_PATTERN);
const yearProblem = () => problem('dateRange', { min: MIN_YEAR, max: MAX_YEAR });

function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** ajv counts characters as code points: an emoji is one character, not two. */
function length(text: string): number {
  return [...text].length;
}

const problem = (id: string, values?: Problem['values']): Problem => ({ id: `entityForm.error.${id}`, ...(values ? { values } : {}) });

function isEmpty(raw: unknown): boolean {
  return raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
}

function checkString(field: Extract<Field, { kind: 'string' }>, raw: unknown): Checked {
  const text = String(raw).trim();
  if (field.format === 'date-time') {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) return { value: text, problem: problem('dateTime') };
    const iso = date.toISOString();
    return DATE_YEARS.test(iso) ? { value: iso } : { value: iso, problem: yearProblem() };
  }
  if (field.format === 'date' && !isValidDate(text)) return { value: text, problem: problem('date') };
  if (field.format === 'date' && !DATE_YEARS.test(text)) return { value: text, problem: yearProblem() };
  if (field.format === 'date' && field.range) {
    // The declared range (schemas/dates.ts), the server's rule, from this device's today.
    const { min, max } = dateBounds(field.range, localToday());
    if (text < min || text > max) return { value: text, problem: problem('dateOutOfRange', { min, max }) };
  }
  if (!field.pattern && !TEXT.test(text)) return { value: text, problem: problem('controlChars') };
  if (field.minLength && length(text) < field.minLength) return { value: text, problem: problem('minLength', { limit: field.minLength }) };
  if (length(text) > field.maxLength)
    return { value: text, problem: problem('maxLength', { limit: field.maxLength, count: length(text) }) };
  if (field.format === 'email' && !EMAIL.test(text)) return { value: text, problem: problem('email') };
  if (field.pattern && !new RegExp(field.pattern, 'u').test(text)) {
    const id = field.format === 'phone' ? 'phone' : 'pattern';
    return { value: text, problem: problem(id, { example: field.example ?? '' }) };
  }
  return { value: text };
}

/** Inputs of type number give '12.5'; a typed coordinate may come with a decimal comma. */
function toNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  return Number(String(raw).trim().replace(',', '.'));
}

function checkNumber(raw: unknown, integer: boolean, minimum: number, maximum: number): Checked {
  const n = toNumber(raw);
  if (!Number.isFinite(n)) return { value: raw, problem: problem('number') };
  if (integer && !Number.isInteger(n)) return { value: n, problem: problem('integer') };
  if (n < minimum) return { value: n, problem: problem('minimum', { limit: minimum }) };
  if (n > maximum) return { value: n, problem: problem('maximum', { limit: maximum }) };
  return { value: n };
}

function checkChoice(field: Extract<Field, { kind: 'enum' }>, raw: unknown): Checked {
  const value = field.values.find((v) => v === raw || String(v) === String(raw));
  return value === undefined ? { value: raw, problem: problem('choice') } : { value };
}

function checkValue(field: Field, raw: unknown): Checked {
  switch (field.kind) {
    case 'string':
      return checkString(field, raw);
    case 'integer':
      return checkNumber(raw, true, field.minimum, field.maximum);
    case 'number':
      return checkNumber(raw, false, field.minimum, field.maximum);
    case 'lat':
      return checkNumber(raw, false, -90, 90);
    case 'lng':
      return checkNumber(raw, false, -180, 180);
    case 'lookup': {
      const checked = checkNumber(raw, true, field.allowNone ? 0 : 1, MAX_INT);
      return checked.problem ? { value: raw, problem: problem('choice') } : checked;
    }
    case 'enum':
      return checkChoice(field, raw);
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { value: raw, problem: problem('invalid') };
    case 'id': {
      const text = String(raw).trim();
      return new RegExp(UUID_PATTERN).test(text) ? { value: text } : { value: text, problem: problem('invalid') };
    }
    default:
      return { value: raw };
  }
}

/** One field: its API value (null when empty) and what is wrong with it, if anything.
 * A required field is required on edits too: the update schema refuses null for it. */
export function checkField(field: Field, raw: unknown): Checked {
  if (isEmpty(raw)) return field.required ? { value: null, problem: problem('required') } : { value: null };
  return checkValue(field, raw);
}

export interface Validation {
  values: Record<string, unknown>;
  problems: Record<string, Problem>;
}

/** The fields a client may send, by name (json-schema.ts writableFields). */
export function writableFieldMap(entity: EntityShape): Record<string, Field> {
  return Object.fromEntries(writableFields(entity));
}

/** Every writable field present in `raw`: API values and problems by field name. Fields the
 * form does not hold (names absent from `raw`) are not sent, so an edit leaves them alone. */
export function validateValues(entity: EntityShape, raw: RawValues): Validation {
  const fields = writableFieldMap(entity);
  const values: Record<string, unknown> = {};
  const problems: Record<string, Problem> = {};
  for (const [name, value] of Object.entries(raw)) {
    const field = fields[name];
    if (!field) continue;
    const checked = checkField(field, value);
    values[name] = checked.value;
    if (checked.problem) problems[name] = checked.problem;
  }
  return { values, problems };
}

/** A problem's day values ('YYYY-MM-DD', the bounds of a date) as the user's language writes them. */
export function localDates(values: Problem['values'], lang: string): Problem['values'] {
  if (!values) return values;
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? formatDate(v, lang) : v]),
  );
}
