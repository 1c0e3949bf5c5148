// The form's validation agrees with the server's: for every writable field of the provider, service and job
// entities and a range of typed values, the client refuses a value exactly when ajv (configured
// as Fastify configures it) would refuse the value the client sends.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { EntityShape, Field } from '../../../schemas/define';
import { writableFields } from '../../../schemas/define';
import { createBodySchema } from '../../../schemas/derive/json-schema';
import { sampleBody } from '../../../schemas/derive/sample';
import { apprenticeship, job, otherJob, service, serviceProvider, vocational } from '../../../schemas/index';
import { checkField } from '../../../src/components/entity/validation';
import { dateOutOfRange } from '../../../schemas/dates';
import { serverToday } from '../../../server/lib/records/dates';

const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: true, strict: false });
addFormats(ajv);

function candidates(field: Field): unknown[] {
  switch (field.kind) {
    case 'string': {
      const max = field.maxLength;
      const common = [
        '',
        '   ',
        'x',
        'xx',
        ' trimmed ',
        'x'.repeat(max),
        'x'.repeat(max + 1),
        'é'.repeat(max),
        'a\u0000b',
        'a\u001bb',
        'a\u0085b',
        'a\ud800b',
        'two\nlines',
        'tab\tx',
        'emoji 😀',
      ];
      if (field.format === 'email') return [...common, 'name@example.org', 'a@b', 'x@@y', 'first.last@sub.example.cd'];
      if (field.format === 'phone') return [...common, '+243 81 234 5678', '(081) 234-5678', '12', 'call me'];
      if (field.format === 'date')
        return [
          '',
          '2024-02-29',
          '2026-02-29',
          '2026-13-01',
          '21/11/2026',
          '2026-11-21',
          '0000-01-01',
          '1899-12-31',
          '1900-01-01',
          '2100-12-31',
          '2101-01-01',
        ];
      return common;
    }
    case 'integer':
      return ['', '0', '1', '-1', '1.5', '120', '121', '10000', '10001', 'abc', 7];
    case 'number':
      return ['', '0', '1.25', 'abc'];
    case 'lat':
      return ['', '-91', '-90', '-1.6792', '-1,6792', '90.5', 'abc'];
    case 'lng':
      return ['', '-180', '29.2228', '181', 'abc'];
    case 'lookup':
      return [null, 0, 1, 2147483647, 2147483648, 'x'];
    case 'enum':
      return [null, ...field.values, 'nope', 99];
    case 'boolean':
      // A switch is never empty; (ajv would coerce a null to false anyway).
      return [true, false];
    case 'id':
      return ['', '0190a0a0-0000-7000-8000-000000000001', '0190A0A0-0000-7000-8000-000000000001', 'abc'];
    default:
      return [];
  }
}

function serverRefuses(entity: EntityShape, base: Record<string, unknown>, name: string, value: unknown): boolean {
  const validate = ajv.compile(createBodySchema(entity));
  const body = { ...base, [name]: value };
  // The declared date ranges are checked by the server's writes, after the schema (schemas/dates.ts).
  if (validate(body)) return dateOutOfRange(entity, { [name]: value }, serverToday())?.field === name;
  return (validate.errors ?? []).some((e) => e.instancePath === `/${name}` || e.params?.missingProperty === name);
}

const ENTITIES = [serviceProvider, service, apprenticeship, vocational, job, otherJob] as const;
const REFS = {
  serviceProvider: '0190a0a0-0000-7000-8000-00000000000a',
  service: '0190a0a0-0000-7000-8000-00000000000b',
  job: '0190a0a0-0000-7000-8000-00000000000c',
};

describe('client validation matches the server', () => {
  for (const entity of ENTITIES) {
    it(`for every writable field of ${entity.name}`, () => {
      const base = sampleBody(entity, REFS) as Record<string, unknown>;
      const disagreements: string[] = [];
      for (const [name, field] of writableFields(entity)) {
        for (const raw of candidates(field)) {
          const checked = checkField(field, raw);
          const server = serverRefuses(entity, base, name, checked.value);
          if (Boolean(checked.problem) !== server)
            disagreements.push(
              `${name}=${JSON.stringify(raw)}: client ${checked.problem?.id ?? 'ok'}, server ${server ? 'refuses' : 'accepts'}`,
            );
        }
      }
      expect(disagreements).toEqual([]);
    });
  }

  it('sends trimmed text, numbers for numbers, null for what was emptied', () => {
    expect(checkField(serviceProvider.fields.sp_Name, '  Centre  ').value).toBe('Centre');
    expect(checkField(job.fields.positions, '12').value).toBe(12);
    expect(checkField(job.fields.lat, '-1,6792').value).toBe(-1.6792);
    expect(checkField(job.fields.email, '').value).toBeNull();
    expect(checkField(job.fields.contract, null)).toEqual({ value: null });
  });

  it('counts characters as the server does (an emoji is one)', () => {
    const field = { kind: 'string', maxLength: 2 } as const;
    expect(checkField(field, '👍👍').problem).toBeUndefined();
    expect(checkField(field, '👍👍👍').problem?.id).toBe('entityForm.error.maxLength');
  });
});
