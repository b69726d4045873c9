import { createHash, timingSafeEqual } from 'node:crypto';

type HeaderBag = Record<string, string | string[] | undefined>;

const header = (headers: HeaderBag, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Constant-time comparison of two secrets of any length (both are hashed first). */
function secretsEqual(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Partner webhook authentication at the API: `Authorization: Bearer <WEBHOOK_SECRET>`, with the
 * older `x-webhook-secret` and `x-contentpartner-secret` headers accepted as a fallback.
 * Constant-time; false when no secret is configured. The blog process checks the same secret
 * again on the delivery the API forwards (cms/webhook-auth.ts, the same rules).
 */
export function isAuthorizedWebhook(headers: HeaderBag, secret: string | undefined): boolean {
  if (!secret) return false;
  const auth = header(headers, 'authorization');
  if (auth && /^bearer\s+/i.test(auth)) return secretsEqual(auth.replace(/^bearer\s+/i, '').trim(), secret);
  const legacy = header(headers, 'x-webhook-secret') ?? header(headers, 'x-contentpartner-secret');
  return secretsEqual(legacy?.trim(), secret);
}
