import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { OnrampAProvider } from '../../providers/onramp-a';
import type { OnrampBProvider } from '../../providers/onramp-b';
import type { SharedStore } from '../../store';
import { enforceRate } from '../../store/rate-limit';

export interface SignedUrl {
  /** The widget URL with `signature` appended as its last parameter. */
  url: string;
  /** base64(HMAC-SHA256(secret, url.search)), not URL-encoded. */
  signature: string;
}

export interface SessionToken {
  /** On-ramp B's single-use token (valid 5 minutes). */
  sessionToken: string;
  /** Stable per wallet, see `partnerUserRef`. */
  partnerUserRef: string;
  expiresInSeconds: number;
}

export interface OnrampsService {
  /** `{ url }`: a widget URL on on-ramp A's origin carrying our publishable key. */
  signUrl(input: unknown): SignedUrl;
  /** `{ hexAddress, blockchains, assets }`; `clientIp` is the trusted request address (never taken from the body). */
  sessionToken(input: unknown, caller: { clientIp: string; signal?: AbortSignal }): Promise<SessionToken>;
}

export interface OnrampsServiceDeps {
  /** Undefined: on-ramp A is not configured (SERVICE_UNAVAILABLE). */
  a?: { provider: OnrampAProvider; widgetUrl: string; apiKey: string };
  b?: { provider: OnrampBProvider };
  store: SharedStore;
  /** Session tokens one client IP may ask for per window (each one is a provider call); default 20 per minute. */
  sessionTokenLimit?: { max: number; windowMs: number };
}

const PARTNER_USER_REF_SALT = 'platform-cdp';
export const PARTNER_USER_REF_LENGTH = 40;
const SESSION_TOKEN_TTL_SECONDS = 300;

/**
 * SHA-256 over the UTF-8 bytes of the lower-cased address followed directly by the salt
 * (`0xabc…platform-cdp`, no separator), base64url without `=` padding (43 characters), cut to
 * the first 40. Were an encoding ever shorter it would be right-padded with `A` (base64's zero
 * digit), so the result is always 40 characters of the base64url alphabet.
 */
export function partnerUserRef(address: string): string {
  const digest = createHash('sha256').update(`${address.toLowerCase()}${PARTNER_USER_REF_SALT}`, 'utf8').digest('base64url');
  return digest.padEnd(PARTNER_USER_REF_LENGTH, 'A').slice(0, PARTNER_USER_REF_LENGTH);
}

/** A required field's message names it whether it is missing or of the wrong kind. */
const required = (field: string, kind: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} must be ${kind}`),
});

export const sessionTokenInput = z.strictObject({
  hexAddress: z
    .string(required('hexAddress', 'a string'))
    .regex(/^0x(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/, { error: 'hexAddress must be 0x followed by 40 or 64 hex digits' })
    .describe('0x + 40 or 64 hex digits'),
  blockchains: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { error: 'each blockchain must be a network name such as "sui" or "base"' }), required('blockchains', 'an array of network names'))
    .min(1, { error: 'blockchains must name at least one network' })
    .max(10, { error: 'blockchains may name at most 10 networks' })
    .describe('Networks for the address, e.g. ["sui"]'),
  assets: z
    .array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/, { error: 'each asset must be a symbol such as "SUI" or an asset ID' }), required('assets', 'an array of asset symbols'))
    .min(1, { error: 'assets must name at least one asset' })
    .max(20, { error: 'assets may name at most 20 assets' })
    .describe('Asset symbols or IDs, e.g. ["SUI", "USDC"]'),
});

export const signUrlInput = z.strictObject({
  url: z.string(required('url', 'a string')).max(4096, { error: 'url must be at most 4096 characters' }),
});

export function createOnrampsService(deps: OnrampsServiceDeps): OnrampsService {
  const limit = deps.sessionTokenLimit ?? { max: 20, windowMs: 60_000 };

  /** Charged by the service, so REST and GraphQL share one budget per client IP across replicas. */
  async function throttle(clientIp: string): Promise<void> {
    await enforceRate(deps.store, `onramp-b:ip:${clientIp}`, limit, {
      scope: 'onramp-b',
      message: (charge) => `Too many on-ramp session tokens: limit is ${charge.limit} per ${limit.windowMs / 1000} s per client`,
    });
  }

  return {
    signUrl(input) {
      const a = deps.a;
      if (!a) throw new AppError('SERVICE_UNAVAILABLE', 'On-ramp A is not configured (ONRAMP_A.API_KEY, ONRAMP_A.SECRET_KEY)');
      const { url } = parseInput(signUrlInput, input ?? {});
      const refuse = (message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path: '/url', message }] });
      if (!URL.canParse(url)) throw refuse('url must be an absolute URL');
      const widget = new URL(url);
      if (widget.origin !== new URL(a.widgetUrl).origin) throw refuse(`url must be on the on-ramp's origin ${new URL(a.widgetUrl).origin}`);
      if (widget.hash) throw refuse('url must not carry a #fragment');
      if (widget.searchParams.has('signature')) throw refuse('url is already signed');
      if (widget.searchParams.getAll('apiKey').join() !== a.apiKey) throw refuse("url's apiKey parameter must be this platform's publishable key");
      return a.provider.sign(widget);
    },
    async sessionToken(input, caller) {
      // Input first: a caller learns what is wrong with the request even where B is not set up.
      const q = parseInput(sessionTokenInput, input ?? {});
      const b = deps.b;
      if (!b) throw new AppError('SERVICE_UNAVAILABLE', 'On-ramp B is not configured (ONRAMP_B.API_KEY_ID, ONRAMP_B.API_KEY_SECRET)');
      await throttle(caller.clientIp);
      const address = q.hexAddress.toLowerCase();
      const sessionToken = await b.provider.createSessionToken(
        { addresses: [{ address, blockchains: q.blockchains }], assets: q.assets, clientIp: caller.clientIp },
        { signal: caller.signal },
      );
      return { sessionToken, partnerUserRef: partnerUserRef(address), expiresInSeconds: SESSION_TOKEN_TTL_SECONDS };
    },
  };
}
