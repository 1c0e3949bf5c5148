// docs/security.md "Access control, second round": the address the app goes to after sign-in is one of its own. Each crafted
// variant below left the app on main (the tab, newline, CR LF and backslash ones).
import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnUrl } from '../../src/features/auth/returnUrl';

const ORIGIN = 'https://icrs.example.org';

/** Where the browser ends up for a returnUrl: the path the app keeps, read against its origin. */
const landing = (raw: string) => new URL(safeReturnUrl(raw, ORIGIN), ORIGIN);

const CRAFTED_RETURN_URLS = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\t\\evil.example',
  '//evil.example',
  '/\\evil.example',
  'https://evil.example/',
  '/\t\t/evil.example',
  '\u0000/evil.example',
  ' /\\/evil.example',
  'javascript:alert(1)',
  '/\u0085/evil.example',
];

describe('safeReturnUrl', () => {
  it('sends every crafted variant to /, on the app', () => {
    for (const raw of CRAFTED_RETURN_URLS) {
      expect(safeReturnUrl(raw, ORIGIN), JSON.stringify(raw)).toBe('/');
      expect(landing(raw).origin, JSON.stringify(raw)).toBe(ORIGIN);
    }
  });

  it("keeps the app's own paths with their query and fragment", () => {
    expect(safeReturnUrl('/availablejobs', ORIGIN)).toBe('/availablejobs');
    expect(safeReturnUrl('/profiles?page=2&q=amani#top', ORIGIN)).toBe('/profiles?page=2&q=amani#top');
    expect(safeReturnUrl('/a/../reports', ORIGIN)).toBe('/reports');
  });

  it('never returns to the login page, and answers / for nothing', () => {
    expect(safeReturnUrl('/login', ORIGIN)).toBe('/');
    expect(safeReturnUrl('/login?returnUrl=%2Freports', ORIGIN)).toBe('/');
    expect(safeReturnUrl(null, ORIGIN)).toBe('/');
    expect(safeReturnUrl('', ORIGIN)).toBe('/');
  });

  it('makes login paths that come back', () => {
    expect(loginPathFor('/reports?x=1')).toBe('/login?returnUrl=%2Freports%3Fx%3D1');
    expect(loginPathFor('/')).toBe('/login');
  });
});
