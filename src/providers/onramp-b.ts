import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { AppError } from '../errors';
import type { Logger } from '../observability/logger';

/**
 * On-ramp B's session tokens, in Coinbase Developer Platform's wire format: `POST <token URL>`
 * with `{ addresses: [{ address, blockchains }], assets, clientIp }`, authorised by a JWT that
 * the secret API key signs for this one request (`uris: ["POST host/path"]`, 2 minutes), answers
 * `{ token, channel_id }`: a single-use token that lives 5 minutes. Neither the key nor the JWT
 * nor the token ever reaches an error or a log line.
 */
export interface OnrampBProvider {
  createSessionToken(request: OnrampBTokenRequest, opts?: { signal?: AbortSignal }): Promise<string>;
}

export interface OnrampBTokenRequest {
  addresses: Array<{ address: string; blockchains: string[] }>;
  assets: string[];
  clientIp: string;
}

export interface OnrampBProviderOptions {
  tokenUrl: string;
  apiKeyId: string;
  /** An EC P-256 private key in PEM (ES256), or base64 of a 64-byte Ed25519 key: seed then public key (EdDSA). */
  apiKeySecret: string;
  logger: Logger;
  /** Per request; default 4 s (inside the 5 s request limit). */
  timeoutMs?: number;
  /** JWT lifetime; default 120 s. */
  jwtTtlSeconds?: number;
}

interface SigningKey {
  alg: 'ES256' | 'EdDSA';
  key: KeyObject;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** Reads the key once at start; the message never quotes it. */
function parseOnrampBKey(secret: string): SigningKey {
  const refuse = () =>
    new Error('ONRAMP_B.API_KEY_SECRET is neither an EC P-256 private key in PEM nor the base64 of a 64-byte Ed25519 key');
  if (secret.includes('-----BEGIN')) {
    let key: KeyObject;
    try {
      key = createPrivateKey(secret.replace(/\\n/g, '\n'));
    } catch {
      throw refuse();
    }
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw refuse();
    return { alg: 'ES256', key };
  }
  const raw = Buffer.from(secret, 'base64');
  if (raw.length !== 64) throw refuse();
  try {
    const jwk = { kty: 'OKP', crv: 'Ed25519', d: b64url(raw.subarray(0, 32)), x: b64url(raw.subarray(32)) };
    return { alg: 'EdDSA', key: createPrivateKey({ key: jwk, format: 'jwk' }) };
  } catch {
    throw refuse();
  }
}

const unavailable = (message: string, details?: Record<string, unknown>, cause?: unknown) =>
  new AppError('UPSTREAM_UNAVAILABLE', `On-ramp B ${message}; try again`, details, { cause });

export function createOnrampBProvider(opts: OnrampBProviderOptions): OnrampBProvider {
  const signing = parseOnrampBKey(opts.apiKeySecret);
  const endpoint = new URL(opts.tokenUrl);
  const timeoutMs = opts.timeoutMs ?? 4000;
  const ttl = opts.jwtTtlSeconds ?? 120;

  async function requestJwt(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ uris: [`POST ${endpoint.host}${endpoint.pathname}`] })
      .setProtectedHeader({ alg: signing.alg, kid: opts.apiKeyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
      .setIssuer('cdp')
      .setSubject(opts.apiKeyId)
      .setAudience(['cdp_service'])
      .setNotBefore(now)
      .setExpirationTime(now + ttl)
      .sign(signing.key);
  }

  return {
    async createSessionToken(request, { signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${await requestJwt()}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(request),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        const why = timeout.aborted ? `did not answer within ${timeoutMs} ms` : 'could not be reached';
        opts.logger.warn({ provider: 'onramp-b', outcome: timeout.aborted ? 'timeout' : 'unreachable' }, `on-ramp B token endpoint ${why}`);
        throw unavailable(why, undefined, err);
      }
      const body = (await res.json().catch(() => null)) as { token?: unknown; errorType?: unknown } | null;
      if (!res.ok) {
        // Only the status and the provider's error type: its message may echo what we sent.
        const errorType = typeof body?.errorType === 'string' ? body.errorType.slice(0, 64) : undefined;
        opts.logger.warn({ provider: 'onramp-b', status: res.status, errorType }, 'on-ramp B refused the session token request');
        throw unavailable(`answered HTTP ${res.status}`, { status: res.status, ...(errorType ? { errorType } : {}) });
      }
      if (typeof body?.token !== 'string' || body.token.length === 0) {
        opts.logger.warn({ provider: 'onramp-b', status: res.status }, 'on-ramp B answered without a token');
        throw unavailable('answered without a session token');
      }
      return body.token;
    },
  };
}
