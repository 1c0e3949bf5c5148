// Security headers (ADR-0009): every answer — API, errors, the app's pages and files, the
// change stream — carries the Content-Security-Policy, nosniff, no framing and the referrer
// policy; the policy lets the map reach its tiles (the default ones, or MAP_STYLE_URL's origin).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

// A stand-in for the build, so the test needs no `vite build`.
const staticDir = mkdtempSync(path.join(tmpdir(), 'icrs-headers-'));
let t: TestServer;
let token: string;

beforeAll(async () => {
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>ICRS</title>');
  writeFileSync(path.join(staticDir, 'assets', 'index-AbCd1234.js'), 'export {};');
  t = await startTestServer({ config: { staticDir, mapStyleUrl: 'https://tiles.example.org:8443/styles/basic.json' } });
  token = await t.login(t.admin.userName, t.admin.password);
});

afterAll(async () => {
  await t?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

/** The policy's directives: name → sources. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy, 'Content-Security-Policy').toBeTruthy();
  return new Map(
    (policy as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

async function headersOf(url: string, init?: RequestInit): Promise<Headers> {
  const response = await fetch(`${t.url}${url}`, init);
  await response.body?.cancel();
  return response.headers;
}

describe('security headers', () => {
  const answers: [string, string, RequestInit?][] = [
    ['an API answer', '/api/health'],
    ['a refused request (401)', '/api/users/'],
    ['an unknown API route (404)', '/api/no-such-thing'],
    ['a malformed body (400)', '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }],
    ['the app', '/'],
    ['a client route of the app', '/serviceproviders/add'],
    ['a file of the build', '/assets/index-AbCd1234.js'],
  ];

  it.each(answers)('%s carries every header', async (_what, url, init) => {
    const headers = await headersOf(url, init);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('x-robots-tag')).toBe('noindex, nofollow'); // ADR-0009
    expect(headers.get('strict-transport-security')).toBeNull(); // plain HTTP: see access-control.test.ts
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    const csp = directives(headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('the change stream carries them too', async () => {
    const controller = new AbortController();
    const response = await fetch(await t.streamUrl(token), { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(directives(response.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"]);
    controller.abort();
  });

  it("runs only the app's own scripts and workers, and lets the map reach its style origin", async () => {
    const csp = directives((await headersOf('/')).get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]); // no inline script, no eval
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://tiles.example.org:8443']);
    expect(csp.get('img-src')).toContain('https://tiles.example.org:8443');
  });
});

describe('without MAP_STYLE_URL', () => {
  it('allows no outside origin: the base map ships with the app', async () => {
    const { contentSecurityPolicy } = await import('../../server/plugins/securityHeaders');
    const csp = directives(contentSecurityPolicy({}));
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('refuses a MAP_STYLE_URL that is not an http(s) address', async () => {
    const { contentSecurityPolicy } = await import('../../server/plugins/securityHeaders');
    expect(() => contentSecurityPolicy({ mapStyleUrl: 'tiles.example.org/style.json' })).toThrow(/MAP_STYLE_URL/);
  });
});
