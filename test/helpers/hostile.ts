// Hostile values for property-based tests, generated from the entity declarations in schemas/:
// per field kind, values just outside what the schema allows (control characters, lone
// surrogates, oversize text, year 0000 dates, numbers out of range, invalid UUIDs, wrong
// types, deep objects), and broken multipart bodies.
import fc from 'fast-check';
import type { Field, JsonSchema } from '../../schemas/define';
import { MAX_INT } from '../../schemas/define';

/** Characters PostgreSQL or a screen chokes on: NUL, other C0 controls, DEL, C1, lone surrogates. */
const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\u0085', '\u009b', '\ud800', '\udfff');

/** Some ordinary text with hostile characters spliced in. */
export const controlText = (maxLength = 20): fc.Arbitrary<string> =>
  fc.tuple(fc.string({ maxLength: Math.max(0, maxLength - 2) }), CONTROL, fc.string({ maxLength: 1 })).map(([a, c, b]) => `${a}${c}${b}`);

const BAD_DATES = [
  '0000-01-01',
  '0000-00-00',
  '9999-12-31',
  '10000-01-01',
  '1899-12-31',
  '2101-01-01',
  '2024-02-30',
  '2024-13-01',
  '-0001-01-01',
  '2024-01-01\u0000',
];
const BAD_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59Z',
  '2024-01-01T25:00:00Z',
  '2024-01-01T00:00:00+99:00',
  '1899-12-31T23:59:59Z',
];
const BAD_UUIDS = [
  'x',
  '00000000-0000-0000-0000-00000000000',
  '0190ABCD-0000-7000-8000-000000000000',
  '01900000-0000-7000-8000-00000000000\u0000',
  "'; DROP TABLE x; --",
  '../../etc/passwd',
];

/** Values of the wrong JSON type, deep nesting and huge text: wrong for any field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, '', [], {}, [null], { a: 1 }, 'x'.repeat(100_000)),
  fc.integer({ min: 1, max: 2000 }).map((depth) => deepObject(depth)),
  fc.integer({ min: 1, max: 2000 }).map((depth) => deepArray(depth)),
  controlText(),
);

export function deepObject(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** A JSON value that breaks `schema` somewhere inside: hostile strings and keys in nested objects. */
function hostileJson(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const props = Object.entries(schema.properties ?? {});
    const nested = props.length
      ? fc.constantFrom(...props).chain(([name, sub]) => hostileJson(sub).map((v) => ({ [name]: v })))
      : wrongType.map((v) => ({ a: v }));
    return fc.oneof(
      nested,
      controlText().map((key) => ({ [key]: 'x' })),
      wrongType,
    );
  }
  if (type === 'array') {
    return fc.oneof(
      hostileJson(schema.items ?? {}).map((v) => [v]),
      fc.constant(Array.from({ length: 10_000 }, () => 1)),
      wrongType,
    );
  }
  return hostileScalar(schema);
}

function hostileScalar(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') {
    const min = schema.minimum ?? -MAX_INT;
    const max = schema.maximum ?? MAX_INT;
    return fc.oneof(fc.constantFrom(min - 1, max + 1, MAX_INT + 1, 1e308, -1e308, 0.5, '12abc'), wrongType);
  }
  if (schema.format === 'date') return fc.oneof(fc.constantFrom(...BAD_DATES), wrongType);
  if (schema.format === 'date-time') return fc.oneof(fc.constantFrom(...BAD_DATE_TIMES), wrongType);
  if (type === 'string') {
    const max = schema.maxLength ?? 1000;
    return fc.oneof(controlText(Math.min(max, 40)), fc.constant('x'.repeat(max + 1)), fc.constantFrom(...BAD_UUIDS), wrongType);
  }
  return wrongType;
}

/** A value the field must refuse (or at worst store harmlessly): never one that answers 500. */
export function hostileValue(field: Field): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'id':
      return fc.oneof(fc.constantFrom(...BAD_UUIDS), controlText(36), wrongType);
    case 'string':
      return hostileScalar({ type: 'string', maxLength: field.maxLength, format: field.format });
    case 'integer':
    case 'number':
      return hostileScalar({ type: field.kind, minimum: field.minimum, maximum: field.maximum });
    case 'lookup':
      return hostileScalar({ type: 'integer', minimum: 1, maximum: MAX_INT });
    case 'lat':
      return hostileScalar({ type: 'number', minimum: -90, maximum: 90 });
    case 'lng':
      return hostileScalar({ type: 'number', minimum: -180, maximum: 180 });
    case 'enum':
      return fc.oneof(fc.constantFrom<unknown>('not-a-value', 999_999, -1), controlText(), wrongType);
    case 'boolean':
      return fc.oneof(fc.constantFrom<unknown>('yes', 2, 'true\u0000'), wrongType);
    case 'json':
      return hostileJson(field.schema);
    case 'image':
      return fc.oneof(controlText(), wrongType);
  }
}

/** Query-string values: everything arrives as text, so hostility is in the characters. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  controlText(),
  fc.constantFrom(...BAD_DATES, ...BAD_DATE_TIMES, ...BAD_UUIDS),
  fc.constantFrom('-1', '0', '1e999', '99999999999999999999', 'NaN', '1.5', 'true', '[]', '{}', '%', '%00', '\\', "'", '"', ';'),
  fc.constant('x'.repeat(10_000)),
);

/** A query parameter name: known ones, unknown ones, hostile ones. */
export const hostileQueryName = (known: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...known), fc.constantFrom('unknown', '__proto__', 'constructor', 'sort[]', 'page[0]'), controlText(10));

// ---------------------------------------------------------------------------------------------
// Broken multipart bodies
// ---------------------------------------------------------------------------------------------

export interface RawRequest {
  name: string;
  contentType?: string;
  body: Buffer;
}

const CRLF = '\r\n';

/** A well-formed multipart body with the given fields and files. */
export function multipartBody(
  boundary: string,
  fields: Record<string, string>,
  files: { field: string; name: string; data: Buffer; type?: string }[],
): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${file.field}"; filename="${file.name}"${CRLF}Content-Type: ${file.type ?? 'application/octet-stream'}${CRLF}${CRLF}`,
      ),
    );
    parts.push(file.data, Buffer.from(CRLF));
  }
  parts.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(parts);
}

/**
 * Broken and hostile multipart requests for a route whose file field is `fileField`, with
 * `fields` a valid set of text fields and `image` a valid small file, `maxBytes` the per-file limit.
 */
export function brokenMultipart(fields: Record<string, string>, fileField: string, image: Buffer, maxBytes: number): RawRequest[] {
  const b = 'hostileBoundary7MA4YWxkTrZu0gW';
  const type = `multipart/form-data; boundary=${b}`;
  const good = multipartBody(b, fields, [{ field: fileField, name: 'a.png', data: image, type: 'image/png' }]);
  const oversize = Buffer.alloc(maxBytes + 1, 0xaa);
  image.copy(oversize); // looks like the image type from its first bytes
  return [
    { name: 'truncated in a file', contentType: type, body: good.subarray(0, good.length - 30) },
    { name: 'truncated in the headers', contentType: type, body: good.subarray(0, 60) },
    { name: 'wrong boundary', contentType: 'multipart/form-data; boundary=someOtherBoundary', body: good },
    { name: 'no boundary', contentType: 'multipart/form-data', body: good },
    { name: 'empty boundary', contentType: 'multipart/form-data; boundary=', body: good },
    { name: 'zero bytes', contentType: type, body: Buffer.alloc(0) },
    { name: 'only the closing boundary', contentType: type, body: Buffer.from(`--${b}--\r\n`) },
    { name: 'garbage', contentType: type, body: Buffer.from('\u0000\u0001garbage\r\n\r\n--') },
    { name: 'malformed part header', contentType: type, body: Buffer.from(`--${b}\r\nContent-Disposition\r\n\r\nx\r\n--${b}--\r\n`) },
    {
      name: 'oversize file',
      contentType: type,
      body: multipartBody(b, fields, [{ field: fileField, name: 'big.png', data: oversize, type: 'image/png' }]),
    },
    {
      name: 'wrong file type',
      contentType: type,
      body: multipartBody(b, fields, [{ field: fileField, name: 'a.png', data: Buffer.from('#!/bin/sh\necho hi\n'), type: 'image/png' }]),
    },
    {
      name: 'too many files',
      contentType: type,
      body: multipartBody(
        b,
        fields,
        Array.from({ length: 30 }, (_, i) => ({ field: fileField, name: `f${i}.png`, data: image, type: 'image/png' })),
      ),
    },
    {
      name: 'too many fields',
      contentType: type,
      body: multipartBody(b, { ...fields, ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, 'x'])) }, []),
    },
    { name: 'huge field', contentType: type, body: multipartBody(b, { ...fields, data: 'x'.repeat(3 * 1024 * 1024) }, []) },
    {
      name: 'unknown file field',
      contentType: type,
      body: multipartBody(b, fields, [{ field: 'notASlot', name: 'a.png', data: image, type: 'image/png' }]),
    },
    {
      name: 'NUL in a field',
      contentType: type,
      body: multipartBody(b, Object.fromEntries(Object.keys(fields).map((k) => [k, 'a\u0000b'])), []),
    },
    {
      name: 'NUL in a file name',
      contentType: type,
      body: multipartBody(b, fields, [{ field: fileField, name: 'a\u0000.png', data: image, type: 'image/png' }]),
    },
    { name: 'bad JSON in data', contentType: type, body: multipartBody(b, { ...fields, data: '{"a":' }, []) },
    { name: 'JSON data not an object', contentType: type, body: multipartBody(b, { ...fields, data: '[1,2]' }, []) },
    {
      name: 'deep JSON in data',
      contentType: type,
      body: multipartBody(b, { ...fields, data: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` }, []),
    },
    { name: '__proto__ field', contentType: type, body: multipartBody(b, { ...fields, __proto__x: '1', ['__proto__']: '{"a":1}' }, []) },
  ];
}

/** Bodies that are not JSON or multipart: each must answer 415 (or 400) and change nothing. */
export function otherContentTypes(json: unknown): RawRequest[] {
  const text = Buffer.from(JSON.stringify(json));
  return [
    { name: 'text/plain', contentType: 'text/plain', body: text },
    { name: 'text/plain; charset=utf-8', contentType: 'text/plain; charset=utf-8', body: text },
    { name: 'no content type', body: text },
    { name: 'form urlencoded', contentType: 'application/x-www-form-urlencoded', body: Buffer.from('a=1&b=2') },
    { name: 'xml', contentType: 'application/xml', body: Buffer.from('<a>1</a>') },
    { name: 'octet-stream', contentType: 'application/octet-stream', body: text },
    { name: 'json with a parameter', contentType: 'application/json; charset=latin1', body: text },
    { name: 'json vendor type', contentType: 'application/vnd.api+json', body: text },
    { name: 'JSON not an object', contentType: 'application/json', body: Buffer.from('[1,2,3]') },
    { name: 'JSON string', contentType: 'application/json', body: Buffer.from('"x"') },
    { name: 'JSON null', contentType: 'application/json', body: Buffer.from('null') },
    { name: 'broken JSON', contentType: 'application/json', body: Buffer.from('{"a":') },
    { name: 'empty JSON', contentType: 'application/json', body: Buffer.alloc(0) },
    { name: 'JSON with NUL escape', contentType: 'application/json', body: Buffer.from('{"x":"\\u0000"}') },
    { name: 'JSON with __proto__', contentType: 'application/json', body: Buffer.from('{"__proto__":{"admin":true}}') },
    {
      name: 'JSON with constructor.prototype',
      contentType: 'application/json',
      body: Buffer.from('{"constructor":{"prototype":{"admin":true}}}'),
    },
  ];
}
