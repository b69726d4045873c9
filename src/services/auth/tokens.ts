import jwt from 'jsonwebtoken';

/** Only this algorithm is accepted; a token claiming `none` or an asymmetric algorithm is refused. */
const ALGORITHM = 'HS256' as const;

export interface AccessClaims {
  wallet: string;
}

/** Why a presented access token was refused: `expired` (TOKEN_EXPIRED) or anything else (TOKEN_INVALID). */
export type AccessRefusal = 'expired' | 'invalid';

export type AccessVerification = { ok: true; claims: AccessClaims } | { ok: false; reason: AccessRefusal };

export interface TokenService {
  /** Access token lifetime in seconds (the `expiresIn` of a token body). */
  readonly accessTtlSeconds: number;
  signAccess(wallet: string, ttlSeconds?: number): string;
  /** Verifies signature (HS256 only), issuer, type and expiry. */
  checkAccess(token: string): AccessVerification;
  /** The verified claims, or null for a missing, malformed, expired or foreign token. */
  verifyAccess(token: string): AccessClaims | null;
}

export function createTokenService(opts: { secret: string; issuer: string; accessTtlSeconds?: number }): TokenService {
  const ttl = opts.accessTtlSeconds ?? 15 * 60;
  const checkAccess = (token: string): AccessVerification => {
    try {
      const claims = jwt.verify(token, opts.secret, { algorithms: [ALGORITHM], issuer: opts.issuer });
      if (typeof claims !== 'object' || claims.typ !== 'access' || typeof claims.sub !== 'string') return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { wallet: claims.sub } };
    } catch (err) {
      return { ok: false, reason: err instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
    }
  };
  return {
    accessTtlSeconds: ttl,
    signAccess(wallet, ttlSeconds = ttl) {
      return jwt.sign({ typ: 'access' }, opts.secret, {
        algorithm: ALGORITHM,
        subject: wallet,
        issuer: opts.issuer,
        expiresIn: ttlSeconds,
      });
    },
    checkAccess,
    verifyAccess(token) {
      const result = checkAccess(token);
      return result.ok ? result.claims : null;
    },
  };
}
