import { site } from '../../../lib/site'

export const dynamic = 'force-static'
export const revalidate = 60

/** Mainnet: allow all and point at the shared sitemap index. Elsewhere: block all, no sitemap. */
export function GET(): Response {
  const s = site()
  const body = s.isMainnet
    ? `User-agent: *\nAllow: /\n\nSitemap: ${s.appUrl}/sitemap_index.xml\n`
    : 'User-agent: *\nDisallow: /\n'
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
}
