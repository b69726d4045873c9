import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '../errors';

/** Why an ID token was refused (ID_TOKEN_INVALID `details.reason`). */
export type IdTokenRefusal =
  | 'malformed'
  | 'unsupported_algorithm'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'not_yet_valid'
  | 'missing_nonce';

export interface IdTokenClaims {
  iss: string;
  sub: string;
  /** The configured client ID the token was issued to. */
  aud: string;
  /** Only when the provider says it is verified. */
  email: string | null;
  nonce: string;
}

export type IdTokenVerification = { ok: true; claims: IdTokenClaims } | { ok: false; reason: IdTokenRefusal };

export interface IdentityProvider {
  /**
   * Verifies an OpenID Connect ID token against the issuer's published keys. A refused token is a
   * result, never an exception; an unreachable issuer throws UPSTREAM_UNAVAILABLE.
   */
  verifyIdToken(idToken: string): Promise<IdTokenVerification>;
}

export interface IdentityProviderOptions {
  issuer: string;
  /** Unset: the `jwks_uri` of the issuer's discovery document. */
  jwksUrl?: string;
  /** The audiences accepted (the web and mobile client IDs). */
  clientIds: readonly string[];
  /** Per request to the issuer (discovery, JWKS). Default 5 s. */
  timeoutMs?: number;
  /** Allowed clock skew on exp/nbf/iat. Default 30 s. */
  clockToleranceSeconds?: number;
  now?: () => Date;
}

/** ID tokens are signed by the provider's private key; HMAC and `none` are never accepted. */
const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

function refusalOf(err: unknown): IdTokenRefusal | null {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return 'wrong_issuer';
    if (err.claim === 'aud') return 'wrong_audience';
    if (err.claim === 'nonce') return 'missing_nonce';
    if (err.claim === 'nbf' || err.claim === 'iat') return 'not_yet_valid';
    return 'malformed';
  }
  if (err instanceof errors.JWKSNoMatchingKey) return 'unknown_key';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) return 'unsupported_algorithm';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid || err instanceof errors.JWKSMultipleMatchingKeys) return 'malformed';
  return null;
}

const unavailable = (what: string, cause: unknown) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The identity provider's ${what} could not be fetched; try again`, undefined, { cause });

/** The issuer's `jwks_uri` (OpenID Connect Discovery 1.0), fetched once it is first needed. */
function discoveredJwksUrl(issuer: string, timeoutMs: number): () => Promise<URL> {
  let found: Promise<URL> | undefined;
  return () => {
    found ??= (async () => {
      const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new Error(`discovery answered HTTP ${res.status}`);
      const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (doc.issuer !== issuer || typeof doc.jwks_uri !== 'string') throw new Error('discovery document does not name this issuer and a jwks_uri');
      return new URL(doc.jwks_uri);
    })().catch((err: unknown) => {
      found = undefined;
      throw unavailable('discovery document', err);
    });
    return found;
  };
}

/** The one adapter for OpenID Connect ID tokens (zkLogin's identity provider), on `jose`. */
export function createIdentityProvider(opts: IdentityProviderOptions): IdentityProvider {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const jwksUrl = opts.jwksUrl ? async () => new URL(opts.jwksUrl!) : discoveredJwksUrl(opts.issuer, timeoutMs);
  let keySet: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keys = () => {
    keySet ??= jwksUrl()
      .then((url) => createRemoteJWKSet(url, { timeoutDuration: timeoutMs }))
      .catch((err: unknown) => {
        keySet = undefined;
        throw err;
      });
    return keySet;
  };

  return {
    async verifyIdToken(idToken) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, await keys(), {
          algorithms: ASYMMETRIC_ALGORITHMS,
          issuer: opts.issuer,
          audience: [...opts.clientIds],
          requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
          clockTolerance: opts.clockToleranceSeconds ?? 30,
          currentDate: opts.now?.(),
        }));
      } catch (err) {
        if (err instanceof AppError) throw err;
        const reason = refusalOf(err);
        if (reason) return { ok: false, reason };
        throw unavailable('signing keys', err);
      }
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      const aud = audiences.find((a): a is string => typeof a === 'string' && opts.clientIds.includes(a));
      const { sub, nonce, email, email_verified: verified } = payload as JWTPayload & { nonce?: unknown; email?: unknown; email_verified?: unknown };
      if (typeof sub !== 'string' || !sub || !aud) return { ok: false, reason: 'malformed' };
      if (typeof nonce !== 'string' || !nonce) return { ok: false, reason: 'missing_nonce' };
      const emailVerified = verified === true || verified === 'true';
      return { ok: true, claims: { iss: opts.issuer, sub, aud, nonce, email: emailVerified && typeof email === 'string' ? email : null } };
    },
  };
}
