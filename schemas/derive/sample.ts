// Valid sample values derived from the declarations: for tests, demo seeds and API docs.
// Deterministic except for keys; `refs` supplies the keys of existing parents.

import type { EntityShape, Field, JsonSchema } from '../define.ts';
import { generatedKey, writableFields } from '../define.ts';
import { uuidv7 } from '../ids.ts';

const STRING_SAMPLES: Readonly<Record<string, string>> = {
  date: '2024-05-17',
  'date-time': '2024-05-17T09:30:00.000Z',
  email: 'agent@example.org',
};

function sampleString(name: string, field: Extract<Field, { kind: 'string' }>): string {
  const known = field.example ?? (field.format ? STRING_SAMPLES[field.format] : undefined);
  if (known) return known;
  const text = `Sample ${name}`.slice(0, field.maxLength);
  return text.padEnd(field.minLength ?? 0, 'x');
}

/** A value satisfying a JSON schema: required properties only, arrays empty. */
export function sampleJson(schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return schema.enum[0];
  if (type === 'object') {
    const props = schema.properties ?? {};
    return Object.fromEntries((schema.required ?? []).map((k) => [k, sampleJson(props[k] ?? {})]));
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 0;
  if (type === 'boolean') return true;
  return STRING_SAMPLES[schema.format ?? ''] ?? 'x'.repeat(schema.minLength ?? 1);
}

/** A valid value of one field. References take the parent's key from `refs`. */
export function sampleValue(name: string, field: Field, refs: Readonly<Record<string, string>> = {}): unknown {
  switch (field.kind) {
    case 'id':
      return (field.ref && refs[field.ref]) || uuidv7();
    case 'string':
      return sampleString(name, field);
    case 'integer':
    case 'number':
      return Math.max(field.minimum, Math.min(1, field.maximum));
    case 'lookup':
      return 1;
    case 'enum':
      return field.values[0];
    case 'lat':
      return -4.325;
    case 'lng':
      return 15.322;
    case 'boolean':
      return true;
    case 'json':
      return sampleJson(field.schema);
    case 'image':
      return 'photo.jpg';
  }
}

/** A valid create body with every writable field filled and the key set. */
export function sampleBody(entity: EntityShape, refs: Readonly<Record<string, string>> = {}): Record<string, unknown> {
  const body = Object.fromEntries(writableFields(entity).map(([name, field]) => [name, sampleValue(name, field, refs)]));
  const key = generatedKey(entity);
  return key ? { ...body, [key]: uuidv7() } : body;
}
