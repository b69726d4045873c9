import { secretsEqual } from './secret-compare'

type HeaderBag = Headers | Record<string, string | string[] | undefined>

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const v = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Partner webhook authentication: `Authorization: Bearer <WEBHOOK_SECRET>`, with the older
 * `x-webhook-secret` and `x-contentpartner-secret` headers accepted as a fallback.
 * Constant-time; false when no secret is configured.
 */
export function isAuthorizedWebhook(headers: HeaderBag, secret: string | undefined): boolean {
  if (!secret) return false
  const auth = header(headers, 'authorization')
  if (auth && /^bearer\s+/i.test(auth)) return secretsEqual(auth.replace(/^bearer\s+/i, '').trim(), secret)
  const legacy = header(headers, 'x-webhook-secret') ?? header(headers, 'x-contentpartner-secret')
  return secretsEqual(legacy?.trim(), secret)
}
