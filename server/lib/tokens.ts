// Session tokens: HS256 JWTs. Verification failures are named with the words the client
// reacts to (product.md §8: 'jwt expired', 'invalid signature').
// Every token carries its user's token version (`ver`, users."tokenVersion"): a password change,
// an administrator's reset or a deactivation raises the version, which ends every older token
// (auth.ts compares it on each request, the change stream on each users event). A token must
// also carry `exp`: one without an expiry would be a session that never ends. And `sid`, the
// session's id, which sign-out ends on its own (ADR-0002, plugins/users/store.ts).
import { SignJWT, jwtVerify, errors } from 'jose';
import type { KeyedCode } from './errors';

export interface TokenClaims {
  sub: string;
  role: number;
  /** The user's token version when the token was signed. */
  ver: number;
  /** The session's id: made at sign-in, kept by a password change, ended by sign-out. */
  sid: string;
  /** The token's expiry, in seconds (set by `verify`). */
  exp?: number;
}

/** Tokens whose signature was checked, kept so a session's next requests skip the check. */
const VERIFIED_CACHE_SIZE = 2_000;

interface Verified {
  claims: TokenClaims;
  /** The token's `exp`, in seconds. */
  exp: number;
}

export class TokenService {
  /** The secret as a WebCrypto key, imported once: jose imports a raw secret again on every
   * call, which cost more than the rest of a list request (ADR-0035, docs/performance.md). */
  private readonly key: Promise<CryptoKey>;
  /**
   * Tokens already verified, by their exact text (signature included), so a hit says nothing
   * the check did not: the same text under the same secret verifies the same way until its
   * `exp`, which is checked on each hit. Whether the session still lasts (the user active, the
   * token version current) is not cached: auth.ts reads the user on every request.
   */
  private readonly verified = new Map<string, Verified>();

  /**
   * @param notBefore tokens issued before this time (seconds) are over: the database was
   * restored from a backup since (server/ops/restoreMark.ts).
   */
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly notBefore = 0,
  ) {
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  async sign(claims: TokenClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ role: claims.role, ver: claims.ver, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(await this.key);
  }

  /** The claims of a valid token, or the message key saying why it is refused. */
  async verify(token: string): Promise<{ claims: TokenClaims } | { failure: KeyedCode }> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Date.now() / 1000) return { claims: { ...known.claims, exp: known.exp } };
      this.verified.delete(token);
      return { failure: 'auth.expired' };
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      const { sub, ver, exp, sid, iat } = payload;
      if (
        typeof sub !== 'string' ||
        typeof ver !== 'number' ||
        !Number.isInteger(ver) ||
        typeof exp !== 'number' ||
        typeof sid !== 'string' ||
        !sid
      ) {
        return { failure: 'auth.badToken' };
      }
      if (this.notBefore && (typeof iat !== 'number' || iat < this.notBefore)) return { failure: 'auth.restored' };
      const claims = { sub, role: Number(payload.role), ver, sid };
      this.remember(token, { claims, exp });
      return { claims: { ...claims, exp } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { failure: 'auth.expired' };
      if (error instanceof errors.JWSSignatureVerificationFailed) return { failure: 'auth.badSignature' };
      return { failure: 'auth.badToken' };
    }
  }

  /** Keeps a verified token; the oldest entry goes when the cache is full (Map keeps insertion order). */
  private remember(token: string, verified: Verified): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, verified);
  }
}
