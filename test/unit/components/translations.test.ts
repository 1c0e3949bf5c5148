// The translations of the list, form, map and image parts (in public/assets/i18n):
// the same keys in both languages, valid ICU messages, every
// key the code uses, and every label the provider, service and job entities need.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { translationKeys } from '../../../schemas/derive/labels';
import { apprenticeship, job, otherJob, service, serviceProvider, vocational } from '../../../schemas/index';
import { missingKeys } from '../../../src/lib/session/i18n';
import { messages } from './render';

const SOURCES = ['src/components/entity', 'src/components/map', 'src/components/images'];
const PREFIXES = ['entityGrid', 'entityForm', 'map', 'location', 'images'];

function sourceText(): string {
  return SOURCES.flatMap((dir) => readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'))).join('\n');
}

describe('translations of the list, form, map and image parts', () => {
  const { fr, en } = messages;

  it('have the same keys in fr and en, none empty', () => {
    expect(missingKeys(fr, en)).toEqual([]);
    expect(missingKeys(en, fr)).toEqual([]);
    expect(Object.entries({ ...fr, ...en }).filter(([, text]) => !text.trim())).toEqual([]);
  });

  it('are valid ICU messages', () => {
    for (const [lang, catalog] of Object.entries(messages)) {
      for (const [key, text] of Object.entries(catalog)) expect(() => new IntlMessageFormat(text, lang), key).not.toThrow();
    }
  });

  it('hold every key the code names', () => {
    const pattern = new RegExp(`['\`]((?:${PREFIXES.join('|')})\\.[A-Za-z.]+[A-Za-z])['\`]`, 'g');
    const literal = [...sourceText().matchAll(pattern)].map((m) => m[1] as string);
    const dynamic = [
      ...['unsupported', 'insecure', 'denied', 'unavailable', 'timeout'].map((r) => `location.error.${r}`),
      ...['notImage', 'unreadable', 'tooLarge'].map((r) => `images.error.${r}`),
      ...['lat', 'lng'].map((a) => `location.${a}`),
      ...[
        'required',
        'minLength',
        'maxLength',
        'pattern',
        'email',
        'phone',
        'date',
        'dateTime',
        'number',
        'integer',
        'minimum',
        'maximum',
        'choice',
        'invalid',
      ].map((p) => `entityForm.error.${p}`),
    ];
    const used = [...new Set([...literal, ...dynamic])];
    expect(literal.length).toBeGreaterThan(30);
    expect(used.filter((key) => !(key in en))).toEqual([]);
  });

  it('label every field, entity and enum value of the provider, service and job entities', () => {
    const needed = [serviceProvider, service, apprenticeship, vocational, job, otherJob].flatMap((e) => translationKeys(e));
    expect(needed.filter((key) => !(key in en))).toEqual([]);
  });
});
