import { listPublishedSlugs } from '../../../../cms/posts-read'
import { payload } from '../../../lib/payload'
import { canonical, site } from '../../../lib/site'
import { renderSitemap, sitemapEntries } from '../../../lib/sitemap'

export const dynamic = 'force-static'
export const revalidate = 60

/** Mainnet: blog root + published posts, lastmod from content. Elsewhere: no URLs. */
export async function GET(): Promise<Response> {
  const entries = site().isMainnet ? sitemapEntries(await listPublishedSlugs(await payload()), canonical) : []
  return new Response(renderSitemap(entries), { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
