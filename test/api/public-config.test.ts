// The programme's site is a setting of the installation (PROGRAMME_URL), given to the app by the
// public GET /api/config; with no setting there is no link, never a placeholder.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import publicConfigPlugin, { NO_CONTACT } from '../../server/plugins/publicConfig';
import { startTestServer, type TestServer } from '../helpers/server';

describe('PROGRAMME_URL', () => {
  it('is read from the environment, and is nothing when unset or empty', () => {
    expect(configFromEnv({ PROGRAMME_URL: 'https://programme.example.net/icrs' }).programmeUrl).toBe('https://programme.example.net/icrs');
    expect(configFromEnv({}).programmeUrl).toBeUndefined();
    expect(configFromEnv({ PROGRAMME_URL: '  ' }).programmeUrl).toBeUndefined();
  });

  it('refuses at start what is not a web address', () => {
    expect(() => configFromEnv({ PROGRAMME_URL: 'programme.example.net' })).toThrow(/PROGRAMME_URL must be an http or https address/);
    expect(() => configFromEnv({ PROGRAMME_URL: 'javascript:alert(1)' })).toThrow(/PROGRAMME_URL must be an http or https address/);
  });
});

describe('CONTACT_* settings', () => {
  it('are read from the environment, each null when unset', () => {
    expect(configFromEnv({}).contact).toEqual(NO_CONTACT);
    const contact = configFromEnv({
      CONTACT_NAME: ' ICRS support ',
      CONTACT_EMAIL: 'help@example.net',
      CONTACT_PHONE: '+243 81 000 0000',
    }).contact;
    expect(contact).toEqual({ name: 'ICRS support', email: 'help@example.net', phone: '+243 81 000 0000', address: null, hours: null });
  });

  it('refuse at start an e-mail address or phone number that is not one', () => {
    expect(() => configFromEnv({ CONTACT_EMAIL: 'support' })).toThrow(/CONTACT_EMAIL must be an e-mail address/);
    expect(() => configFromEnv({ CONTACT_PHONE: 'call us' })).toThrow(/CONTACT_PHONE must be a phone number/);
  });
});

describe('LOCK_AFTER_MINUTES', () => {
  it('is 15 minutes when unset or empty, any whole number of minutes from 0 (never) to 1440', () => {
    expect(configFromEnv({}).lockAfterMinutes).toBe(15);
    expect(configFromEnv({ LOCK_AFTER_MINUTES: ' ' }).lockAfterMinutes).toBe(15);
    expect(configFromEnv({ LOCK_AFTER_MINUTES: '0' }).lockAfterMinutes).toBe(0);
    expect(configFromEnv({ LOCK_AFTER_MINUTES: ' 30 ' }).lockAfterMinutes).toBe(30);
    expect(configFromEnv({ LOCK_AFTER_MINUTES: '1440' }).lockAfterMinutes).toBe(1440);
  });

  it('refuses at start what is not a whole number of minutes from 0 to 1440', () => {
    for (const value of ['-1', '1441', '2.5', '15m', 'never', '1e3', '0x10']) {
      expect(() => configFromEnv({ LOCK_AFTER_MINUTES: value }), value).toThrow(
        /LOCK_AFTER_MINUTES must be a whole number of minutes from 0 \(never lock\) to 1440, got/,
      );
    }
  });
});

describe('GET /api/config', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { programmeUrl: 'https://programme.example.net/icrs', lockAfterMinutes: 5 } });
  });
  afterAll(() => t?.close());

  it('gives the programme site and the lock delay to anyone, signed in or not, never cached', async () => {
    const response = await fetch(`${t.url}/api/config`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ programmeUrl: 'https://programme.example.net/icrs', contact: NO_CONTACT, lockAfterMinutes: 5 });
  });

  it('answers null when the installation names no site, and locks after 15 minutes by default', async () => {
    const app = Fastify();
    await app.register(publicConfigPlugin, {
      programmeUrl: configFromEnv({}).programmeUrl,
      lockAfterMinutes: configFromEnv({}).lockAfterMinutes,
    });
    const response = await app.inject({ method: 'GET', url: '/api/config' });
    expect(response.json()).toEqual({ programmeUrl: null, contact: NO_CONTACT, lockAfterMinutes: 15 });
    await app.close();
  });
});
