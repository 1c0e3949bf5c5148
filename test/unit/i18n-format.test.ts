// Every message of both catalogs, formatted as the app formats it (ICU MessageFormat through
// @formatjs/intl) with a sample value for each argument, reads as finished text: no brace left
// (an apostrophe before '{' quotes it in ICU: "l'{roles}" shows literally), no missing value,
// and fr and en ask for the same arguments. Server messages: same checks for their {name} form.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createIntl, createIntlCache } from '@formatjs/intl';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { flatten, type Catalog, type Messages } from '../../src/lib/session/i18n';
import { validationErrors } from '../../server/lib/errors';
import { translate, type Lang, type MessageKey } from '../../server/lib/messages';

const LANGS = ['fr', 'en'] as const;

const load = (lang: string): Messages => flatten(JSON.parse(readFileSync(`public/assets/i18n/${lang}.json`, 'utf8')) as Catalog);
const catalogs = { fr: load('fr'), en: load('en') };

type ArgKind = 'text' | 'number' | 'date' | 'select' | 'tag';

interface Arg {
  kind: ArgKind;
  /** A select's option keys. */
  options?: string[];
}

/** The arguments a message uses, by name, found in its AST (inside plural and select branches
 * and tags too). */
function argumentsOf(elements: MessageFormatElement[], found = new Map<string, Arg>()): Map<string, Arg> {
  const note = (name: string, arg: Arg) => {
    // A name used as plain text in one place and as a number in another takes a number.
    if (!found.has(name) || found.get(name)?.kind === 'text') found.set(name, arg);
  };
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        note(element.value, { kind: 'text' });
        break;
      case TYPE.number:
      case TYPE.plural:
        note(element.value, { kind: 'number' });
        break;
      case TYPE.date:
      case TYPE.time:
        note(element.value, { kind: 'date' });
        break;
      case TYPE.select:
        note(element.value, { kind: 'select', options: Object.keys(element.options) });
        break;
      case TYPE.tag:
        note(element.value, { kind: 'tag' });
        argumentsOf(element.children, found);
        break;
      default:
        break;
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, found);
    }
  }
  return found;
}

/** Literal text anywhere in the message (every branch): a brace there is a quoting mistake. */
function literals(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((element) => {
    if (element.type === TYPE.literal) return [element.value];
    if (element.type === TYPE.tag) return literals(element.children);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      return Object.values(element.options).flatMap((option) => literals(option.value));
    return [];
  });
}

type Value = string | number | Date | ((chunks: string[]) => string);

/** Sample values; a select gets each of its options in turn (one value set per option). */
function sampleValues(args: Map<string, Arg>): Record<string, Value>[] {
  const base: Record<string, Value> = {};
  for (const [name, arg] of args) {
    if (arg.kind === 'text') base[name] = `«${name}»`;
    if (arg.kind === 'number') base[name] = 3;
    if (arg.kind === 'date') base[name] = new Date(Date.UTC(2026, 10, 24, 12));
    if (arg.kind === 'tag') base[name] = (chunks: string[]) => chunks.join('');
  }
  const sets: Record<string, Value>[] = [base];
  for (const [name, arg] of args) {
    if (arg.kind !== 'select') continue;
    const options = arg.options ?? ['other'];
    const expanded = sets.flatMap((set) => options.map((option) => ({ ...set, [name]: option })));
    sets.splice(0, sets.length, ...expanded);
  }
  return sets;
}

/** Formats one message as the app does, and says what went wrong, if anything. */
function problemsOf(lang: Lang, id: string, message: string): string[] {
  const errors: string[] = [];
  const intl = createIntl<string>(
    { locale: lang, messages: { [id]: message }, onError: (error) => errors.push(error.message) },
    createIntlCache(),
  );
  let ast: MessageFormatElement[];
  try {
    ast = parse(message);
  } catch (error) {
    return [`${lang} ${id}: does not parse (${String(error)})`];
  }
  const problems = literals(ast)
    .filter((text) => /[{}]/.test(text))
    .map((text) => `${lang} ${id}: a brace is shown as text in "${text}" (an apostrophe before '{' quotes it: use ’ or '')`);
  for (const values of sampleValues(argumentsOf(ast))) {
    const output = intl.formatMessage({ id }, values);
    if (/[{}]/.test(output)) problems.push(`${lang} ${id}: "${output}" still holds a brace`);
    if (output.includes('undefined')) problems.push(`${lang} ${id}: "${output}" has a missing value`);
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'string' && value.startsWith('«') && !output.includes(value))
        problems.push(`${lang} ${id}: "${output}" does not show {${name}}`);
    }
  }
  return [...problems, ...errors.map((error) => `${lang} ${id}: ${error}`)];
}

/** English shows the spec's own title of a kind's failure ('JAALL Error', product.md §8.4); French
 * names the kind in words (docs/adr/0023-offline-home.md "Sync error titles"). Each still shows every value it asks for. */
const SAYS_THE_SPEC_TITLE_IN_ENGLISH = new Set(['offline.kindFailedTitle']);

const argumentNames = (message: string): string[] => [...argumentsOf(parse(message)).keys()].sort();

describe('every client message, formatted with sample values', () => {
  it('shows no brace and misses no value, in both languages', () => {
    const problems = LANGS.flatMap((lang) => Object.entries(catalogs[lang]).flatMap(([id, message]) => problemsOf(lang, id, message)));
    expect(problems).toEqual([]);
  });

  it('asks for the same arguments in fr and en', () => {
    const different = Object.keys(catalogs.en)
      .filter((id) => id in catalogs.fr && !SAYS_THE_SPEC_TITLE_IN_ENGLISH.has(id))
      .filter((id) => argumentNames(catalogs.en[id] as string).join() !== argumentNames(catalogs.fr[id] as string).join())
      .map(
        (id) =>
          `${id}: en {${argumentNames(catalogs.en[id] as string).join(', ')}} fr {${argumentNames(catalogs.fr[id] as string).join(', ')}}`,
      );
    expect(different).toEqual([]);
  });

  it('says "another", not "an other"', () => {
    expect(Object.entries(catalogs.en).filter(([, text]) => /\ban other\b/i.test(text))).toEqual([]);
  });

  it('finds the mistake it is meant to find', () => {
    expect(problemsOf('fr', 'sample', "Demandez à l'{roles} de votre organisation")).not.toEqual([]);
    expect(problemsOf('fr', 'sample', 'Demandez à l’{roles} de votre organisation')).toEqual([]);
    expect(problemsOf('en', 'sample', '{count, plural, one {# record} other {# records}} of {total}')).toEqual([]);
  });
});

describe('every server message', () => {
  const source = readFileSync('server/lib/messages.ts', 'utf8');
  // The keys, read from the English catalog's entries ('key': 'text').
  const keys = [...new Set([...source.matchAll(/^\s*'([\w.]+)':/gm)].map((match) => match[1] as MessageKey))];
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string).sort();

  it('names the same placeholders in fr and en, and fills each one', () => {
    expect(keys.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const key of keys) {
      const names = LANGS.map((lang) => placeholders(translate(lang, key, {})));
      if (names[0]?.join() !== names[1]?.join()) problems.push(`${key}: fr {${names[0]?.join()}} en {${names[1]?.join()}}`);
      const values = Object.fromEntries((names[0] ?? []).map((name) => [name, `«${name}»`]));
      for (const lang of LANGS) {
        const output = translate(lang, key, values);
        if (/[{}]/.test(output)) problems.push(`${lang} ${key}: "${output}" still holds a brace`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('are given every placeholder where the server names them', () => {
    const english = (key: MessageKey) => translate('en', key, {});
    const withPlaceholders = keys.filter((key) => placeholders(english(key)).length > 0);
    const files = readdirSync('server', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('messages.ts'))
      .map((file) => readFileSync(`server/${file}`, 'utf8'));
    const problems: string[] = [];
    let uses = 0;
    for (const key of withPlaceholders) {
      // A call that names the key (HttpError, fieldError, translate) with its values object on
      // the same line: { a, b: x } names a and b; a variable or a spread is not readable here and
      // is skipped. (Validation messages get their field in errors.ts: the next test.)
      const pattern = new RegExp(
        `(?:HttpError|fieldError|translate)\\([^\\n]*?'${key.replace(/\./g, '\\.')}'\\s*(?:,\\s*(?:\\{([^}]*)\\}|(\\w+)))?`,
        'g',
      );
      for (const source of files) {
        for (const match of source.matchAll(pattern)) {
          if (match[2] || match[1]?.includes('...')) continue;
          uses += 1;
          const given = (match[1] ?? '')
            .split(',')
            .map((part) => part.split(':')[0]?.trim())
            .filter(Boolean);
          const missing = placeholders(english(key)).filter((name) => !given.includes(name));
          if (missing.length) problems.push(`${key}: called without {${missing.join(', ')}}`);
        }
      }
    }
    expect(uses).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('name the field and the limit of every validation failure', () => {
    const keywords: [string, Record<string, unknown>][] = [
      ['required', { missingProperty: 'name' }],
      ['minLength', { limit: 3 }],
      ['maxLength', { limit: 30 }],
      ['minimum', { limit: 1 }],
      ['maximum', { limit: 9 }],
      ['type', { type: 'string' }],
      ['enum', { allowedValues: ['a', 'b'] }],
      ['format', { format: 'email' }],
      ['additionalProperties', { additionalProperty: 'extra' }],
      ['const', {}],
    ];
    for (const lang of LANGS) {
      for (const [keyword, params] of keywords) {
        const [error] = validationErrors(lang, [{ keyword, instancePath: '/body/name', params }]);
        expect(error?.message, `${lang} ${keyword}`).not.toMatch(/[{}]/);
        expect(error?.message, `${lang} ${keyword}`).toContain('name');
      }
    }
  });
});
