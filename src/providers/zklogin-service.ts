import { AppError } from '../errors';

/** What the zkLogin service holds for one identity. The salt is a secret: never log or return it. */
export interface ZkLoginSalt {
  /** Decimal string (a BN254 field element). */
  salt: string;
  /** The identity's Sui address, 0x + 64 lowercase hex. */
  address: string;
}

export interface ZkLoginSaltService {
  /** The salt and address for the (already verified) ID token; UPSTREAM_UNAVAILABLE when the service cannot answer. */
  lookup(idToken: string, opts?: { signal?: AbortSignal }): Promise<ZkLoginSalt>;
}

export interface ZkLoginSaltServiceOptions {
  /** Base URL (Enoki: https://api.enoki.mystenlabs.com). */
  url: string;
  /** The private API key (AUTH.ZKLOGIN_SERVICE_KEY). */
  key: string;
  /** Per request. Default 5 s. */
  timeoutMs?: number;
}

const SALT = /^\d{1,78}$/;
const ADDRESS = /^0x[0-9a-f]{64}$/;

const unavailable = (message: string, details?: Record<string, unknown>, cause?: unknown) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The zkLogin service ${message}; try again`, details, { cause });

/**
 * The one adapter for the zkLogin salt service, in Mysten Enoki's wire format:
 * `GET /v1/zklogin` with `Authorization: Bearer <key>` and `zklogin-jwt: <ID token>` answers
 * `{ data: { salt, address, publicKey } }`. Errors never carry the key, the token or the salt.
 */
export function createZkLoginSaltService(opts: ZkLoginSaltServiceOptions): ZkLoginSaltService {
  const endpoint = `${opts.url.replace(/\/$/, '')}/v1/zklogin`;
  const timeoutMs = opts.timeoutMs ?? 5000;
  return {
    async lookup(idToken, { signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          headers: { authorization: `Bearer ${opts.key}`, 'zklogin-jwt': idToken, accept: 'application/json' },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw unavailable(timeout.aborted ? `did not answer within ${timeoutMs} ms` : 'could not be reached', undefined, err);
      }
      // 4xx included: the token was verified before, so a refusal means our key or app set-up is wrong.
      if (!res.ok) {
        await res.body?.cancel();
        throw unavailable(`answered HTTP ${res.status}`, { status: res.status });
      }
      let data: { salt?: unknown; address?: unknown } | undefined;
      try {
        data = ((await res.json()) as { data?: typeof data }).data;
      } catch (err) {
        throw unavailable('sent a body that is not JSON', undefined, err);
      }
      const address = typeof data?.address === 'string' ? data.address.toLowerCase() : undefined;
      if (typeof data?.salt !== 'string' || !SALT.test(data.salt) || !address || !ADDRESS.test(address)) {
        throw unavailable('sent an answer without a valid salt and address');
      }
      return { salt: data.salt, address };
    },
  };
}
