// The initial state of an EntityForm: which fields it holds and their starting text, from the
// declaration's defaults, the record being edited and a restored draft.
import type { EntityShape, Field } from '../../../schemas/define';
import { generatedKey, writableFields } from '../../../schemas/define';
import type { RawValues } from './validation';

/** Fields a form shows when the screen does not choose: every writable field but keys and
 * parents (carried hidden), structured data and coordinates (the LocationPicker of the
 * form's slot sets lat/lng). */
export function defaultFormFields(entity: EntityShape): string[] {
  return writableFields(entity)
    .filter(([, field]) => !['id', 'json', 'image', 'lat', 'lng'].includes(field.kind))
    .map(([name]) => name);
}

/** A required yes/no question without a default (a client's consent) must be answered: it
 * starts unanswered, not as a silent "no". */
export function mustAnswer(field: Field): boolean {
  return isQuestion(field) && field.required === true;
}

/** A yes/no question (a boolean without a default): it starts unanswered, and an optional one
 * may stay so: "not asked" and "no" are different answers (docs/adr/0045-three-state-booleans.md "Yes/no questions
 * have three states"). A boolean with a default (a job's "open") is a switch. */
export function isQuestion(field: Field): boolean {
  return field.kind === 'boolean' && field.default === undefined;
}

function emptyValue(field: Field): unknown {
  if (field.kind === 'boolean') return isQuestion(field) ? null : field.default;
  if ('default' in field && field.default !== undefined) return field.default;
  return field.kind === 'lookup' ? null : '';
}

/** The value an input shows for a stored value (numbers as typed text, nulls empty). */
function inputValue(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return emptyValue(field);
  if (field.kind === 'integer' || field.kind === 'number' || field.kind === 'lat' || field.kind === 'lng') return String(value);
  return value;
}

/** The form holds the shown fields, every required field (a missing one must be reported,
 * not sent empty) and whatever writable value the record or the screen provides (a parent
 * key, coordinates). The key a create makes on the device is left out when not given. */
export function initialRaw(entity: EntityShape, shown: readonly string[], initial: Readonly<Record<string, unknown>>): RawValues {
  const own = generatedKey(entity);
  const raw: RawValues = {};
  for (const [name, field] of writableFields(entity)) {
    const given = initial[name] !== undefined && initial[name] !== null;
    const needed = shown.includes(name) || (field.required && name !== own) || given;
    if (needed) raw[name] = inputValue(field, initial[name]);
  }
  return raw;
}

/** Draft values over the record's: the fields the form holds, and the writable fields the
 * form's extra content had set (a location picked on the map for a new record, which the
 * record itself did not have). Anything else in a stored draft is ignored. */
export function withDraft(entity: EntityShape, raw: RawValues, draft: RawValues | undefined): RawValues {
  if (!draft) return raw;
  const writable = new Set(writableFields(entity).map(([name]) => name));
  const out = { ...raw };
  for (const name of Object.keys(draft)) if (name in raw || writable.has(name)) out[name] = draft[name];
  return out;
}

export function sameValues(a: RawValues, b: RawValues): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
