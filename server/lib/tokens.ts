// Session tokens: HS256 JWTs. Verification failures are named with the words the client
// reacts to (spec §8: 'jwt expired', 'invalid signature').
import { SignJWT, jwtVerify, errors } from 'jose';
import type { MessageKey } from './messages';

export interface TokenClaims {
  sub: string;
  role: number;
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly ttlSeconds: number) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or the message key saying why it is refused. */
  async verify(token: string): Promise<{ claims: TokenClaims } | { failure: MessageKey }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string') return { failure: 'auth.badToken' };
      return { claims: { sub: payload.sub, role: Number(payload.role) } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { failure: 'auth.expired' };
      if (error instanceof errors.JWSSignatureVerificationFailed) return { failure: 'auth.badSignature' };
      return { failure: 'auth.badToken' };
    }
  }
}
