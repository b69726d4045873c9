import jwt from 'jsonwebtoken';

/** Only this algorithm is accepted; a token claiming `none` or an asymmetric algorithm is refused. */
const ALGORITHM = 'HS256' as const;

export interface AccessClaims {
  wallet: string;
}

export interface TokenService {
  signAccess(wallet: string, ttlSeconds?: number): string;
  /** Returns the verified claims, or null for a missing, malformed, expired or foreign token. */
  verifyAccess(token: string): AccessClaims | null;
}

export function createTokenService(opts: { secret: string; issuer: string; accessTtlSeconds?: number }): TokenService {
  const ttl = opts.accessTtlSeconds ?? 15 * 60;
  return {
    signAccess(wallet, ttlSeconds = ttl) {
      return jwt.sign({ typ: 'access' }, opts.secret, {
        algorithm: ALGORITHM,
        subject: wallet,
        issuer: opts.issuer,
        expiresIn: ttlSeconds,
      });
    },
    verifyAccess(token) {
      try {
        const claims = jwt.verify(token, opts.secret, { algorithms: [ALGORITHM], issuer: opts.issuer });
        if (typeof claims !== 'object' || claims.typ !== 'access' || typeof claims.sub !== 'string') return null;
        return { wallet: claims.sub };
      } catch {
        return null;
      }
    },
  };
}
