// ADR-0010: every string a request may carry is held to the input rules by the derived
// schemas (json-schema.ts withInputRules): no control characters, dates in 1900..2100.
// Walks every request schema derived from schemas/ and checks each string in it, nested JSON
// included, so a new entity or field cannot escape the rules.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../schemas/define';
import { allFields } from '../../schemas/define';
import { createBodySchema, listQuerySchema, TEXT_PATTERN, updateBodySchema } from '../../schemas/derive/json-schema';
import { entities, serverEntities } from '../../schemas/index';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const HOSTILE = ['a\u0000b', 'a\u0001', '\u001b[31m', 'a\u007f', 'a\u0085', 'a\u009b', 'a\ud800', '\udfffa'];
const FINE = ['two\nlines', 'tab\tx', 'crlf\r\n', 'emoji 😀', 'é à ç'];

/** Every string schema inside `schema`, with its path. */
function strings(schema: JsonSchema, path: string): [string, JsonSchema][] {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const own: [string, JsonSchema][] = types.includes('string') && !schema.enum ? [[path, schema]] : [];
  const props = Object.entries(schema.properties ?? {}).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  const items = schema.items ? strings(schema.items, `${path}[]`) : [];
  return [...own, ...props, ...items];
}

const requestSchemas = serverEntities.flatMap(
  (e) =>
    [
      [`${e.name} create`, createBodySchema(e)],
      [`${e.name} update`, updateBodySchema(e)],
      ...(e.list ? [[`${e.name} list`, listQuerySchema(e)]] : []),
    ] as [string, JsonSchema][],
);

describe.each(requestSchemas)('%s', (_name, schema) => {
  it.each(strings(schema, 'body'))('%s refuses control characters and keeps dates in range', (_path, s) => {
    const check = ajv.compile({ ...s, type: 'string', maxLength: undefined, minLength: undefined });
    for (const value of HOSTILE) expect(check(value), JSON.stringify(value)).toBe(false);
    if (s.format === 'date') {
      expect(check('0000-01-01')).toBe(false);
      expect(check('2101-01-01')).toBe(false);
      expect(check('1900-01-01')).toBe(true);
    }
    if (s.format === 'date-time') {
      expect(check('0000-01-01T00:00:00Z')).toBe(false);
      expect(check('2024-05-17T09:30:00.000Z')).toBe(true);
    }
    // Free text (TEXT_PATTERN): line breaks, tabs and any letter or emoji stay allowed.
    if (s.pattern === TEXT_PATTERN) for (const value of FINE) expect(check(value), JSON.stringify(value)).toBe(true);
  });
});

it('every declared pattern refuses control characters around a valid example', () => {
  for (const e of entities) {
    for (const [name, field] of allFields(e)) {
      if (field.kind !== 'string' || !field.pattern) continue;
      const re = new RegExp(field.pattern, 'u');
      expect(re.test(field.example ?? ''), `${e.name}.${name} example`).toBe(true);
      for (const c of HOSTILE) expect(re.test(`${field.example}${c}`), `${e.name}.${name}`).toBe(false);
    }
  }
});
