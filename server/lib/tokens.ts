// Session tokens: HS256 JWTs. Verification failures are named with the words the client
// reacts to (spec §8: 'jwt expired', 'invalid signature').
// Every token carries its user's token version (`ver`, users."tokenVersion"): a password change,
// an administrator's reset or a deactivation raises the version, which ends every older token
// (auth.ts compares it on each request, the change stream on each users event). A token must
// also carry `exp`: one without an expiry would be a session that never ends.
import { SignJWT, jwtVerify, errors } from 'jose';
import type { MessageKey } from './messages';

export interface TokenClaims {
  sub: string;
  role: number;
  /** The user's token version when the token was signed. */
  ver: number;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly ttlSeconds: number) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ role: claims.role, ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or the message key saying why it is refused. */
  async verify(token: string): Promise<{ claims: TokenClaims } | { failure: MessageKey }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      const { sub, ver } = payload;
      if (typeof sub !== 'string' || typeof ver !== 'number' || !Number.isInteger(ver)) return { failure: 'auth.badToken' };
      return { claims: { sub, role: Number(payload.role), ver } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { failure: 'auth.expired' };
      if (error instanceof errors.JWSSignatureVerificationFailed) return { failure: 'auth.badSignature' };
      return { failure: 'auth.badToken' };
    }
  }
}
