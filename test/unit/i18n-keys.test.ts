// Both catalogs must hold the same keys, so no screen shows a raw id in one language.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flatten, missingKeys, type Catalog } from '../../src/lib/session/i18n';
import { ROLES } from '../../schemas/roles';

const load = (lang: string) => flatten(JSON.parse(readFileSync(`public/assets/i18n/${lang}.json`, 'utf8')) as Catalog);

describe('translation catalogs', () => {
  const fr = load('fr');
  const en = load('en');

  it('have the same keys in fr and en', () => {
    expect(missingKeys(fr, en)).toEqual([]);
    expect(missingKeys(en, fr)).toEqual([]);
  });

  it('have no empty text', () => {
    expect(Object.entries(fr).filter(([, v]) => !v.trim())).toEqual([]);
    expect(Object.entries(en).filter(([, v]) => !v.trim())).toEqual([]);
  });

  it('name every role', () => {
    for (const role of ROLES) expect(en[`role.${role}`], `role.${role}`).toBeTruthy();
  });

  it('keep the texts the spec quotes', () => {
    expect(en).toMatchObject({
      'auth.userNameRequired': 'Username is required',
      'auth.passwordRequired': 'Password is required',
      'auth.forgot': 'I forgot my password',
      'auth.loggedIn': 'Logged in successfully',
      'auth.loggedInTitle': 'Logged In',
      'auth.loginErrorTitle': 'Login Error',
      'errors.interceptorTitle': 'Interceptor Error',
      'errors.notFound': 'page not found',
      'pwa.refresh': 'Please refresh your page to update!',
      'pwa.confirm': 'update available for the app please confirm',
    });
  });
});
