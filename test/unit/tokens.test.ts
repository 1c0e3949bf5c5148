// Session tokens (server/lib/tokens.ts): a verified token is remembered, and what is
// remembered never outlives the token nor admits a token the check would refuse.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../server/lib/tokens';

const claims = { sub: 'user-1', role: 4, ver: 2, sid: 'session-1' };

afterEach(() => vi.useRealTimers());

describe('TokenService', () => {
  it('verifies its own tokens, again and again, with the same claims', async () => {
    const tokens = new TokenService('a-secret-of-enough-length', 3600);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toMatchObject({ claims });
    expect(await tokens.verify(token)).toMatchObject({ claims });
  });

  it('refuses a remembered token once its expiry has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T10:00:00Z'));
    const tokens = new TokenService('a-secret-of-enough-length', 60);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toMatchObject({ claims });
    vi.setSystemTime(new Date('2026-11-26T10:00:59Z'));
    expect(await tokens.verify(token)).toMatchObject({ claims });
    vi.setSystemTime(new Date('2026-11-26T10:01:01Z'));
    expect(await tokens.verify(token)).toEqual({ failure: 'auth.expired' });
    expect(await tokens.verify(token)).toEqual({ failure: 'auth.expired' });
  });

  it('refuses a token changed after signing, even once the original was verified', async () => {
    const tokens = new TokenService('a-secret-of-enough-length', 3600);
    const token = await tokens.sign(claims);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    forged.role = 1;
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect(await tokens.verify(tampered)).toEqual({ failure: 'auth.badSignature' });
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(flipped)).toEqual({ failure: 'auth.badSignature' });
  });

  it('refuses a token of another secret', async () => {
    const other = await new TokenService('another-secret-of-length', 3600).sign(claims);
    const tokens = new TokenService('a-secret-of-enough-length', 3600);
    expect(await tokens.verify(other)).toEqual({ failure: 'auth.badSignature' });
  });

  it('keeps verifying after more tokens than it remembers', async () => {
    const tokens = new TokenService('a-secret-of-enough-length', 3600);
    const first = await tokens.sign(claims);
    expect(await tokens.verify(first)).toMatchObject({ claims });
    for (let i = 0; i < 2_100; i++) await tokens.verify(await tokens.sign({ ...claims, sub: `user-${i}` }));
    expect(await tokens.verify(first)).toMatchObject({ claims });
  });
});
