/**
 * Security headers of the blog and the CMS admin (Next `headers()`; sources are relative to
 * basePath). Pages are statically rendered and revalidated, so a per-response nonce is not
 * possible and Next's inline hydration scripts differ per page (no fixed hashes): scripts
 * need 'unsafe-inline', which the other directives (no eval, 'self' only, no framing, no
 * plugins, no foreign forms or base URLs) keep narrow. See docs/decisions.md.
 */

const policy = (directives) =>
  Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')

const common = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'unsafe-inline'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
}

/** Public pages and feeds: fonts and scripts from the site only; images may be partner URLs. */
export const PUBLIC_CSP = policy({ ...common, 'img-src': ["'self'", 'data:', 'https:'], 'font-src': ["'self'"] })

/** The Payload admin also previews uploads from blob: URLs and embeds data: fonts and icons. */
export const ADMIN_CSP = policy({
  ...common,
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
})

const HSTS = 'max-age=31536000; includeSubDomains'

const base = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  // Not no-referrer: same-origin POSTs (Payload's admin, server actions) must keep their Origin.
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
]

/** Later entries win for the same header, so the admin's policy replaces the public one. */
export function securityHeaders() {
  return [
    { source: '/:path*', headers: [...base, { key: 'Content-Security-Policy', value: PUBLIC_CSP }] },
    { source: '/admin/:path*', headers: [{ key: 'Content-Security-Policy', value: ADMIN_CSP }] },
    // Only when a proxy says the request came over https (Next itself serves plain http).
    {
      source: '/:path*',
      has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }],
      headers: [{ key: 'Strict-Transport-Security', value: HSTS }],
    },
  ]
}
