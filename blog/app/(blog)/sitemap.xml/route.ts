import { listPublishedSlugs } from '../../../../cms/posts-read'
import { payload } from '../../../lib/payload'
import { canonical, site } from '../../../lib/site'
import { renderSitemap, w3cDate, type SitemapEntry } from '../../../lib/sitemap'

export const dynamic = 'force-static'
export const revalidate = 60

/** Mainnet: blog root + published posts, lastmod from content. Elsewhere: no URLs. */
export async function GET(): Promise<Response> {
  const entries: SitemapEntry[] = []
  if (site().isMainnet) {
    const posts = await listPublishedSlugs(await payload())
    const newest = posts.map((p) => p.updatedAt).sort().at(-1)
    entries.push({ loc: canonical('/'), lastmod: newest ? w3cDate(newest) : undefined })
    for (const p of posts) entries.push({ loc: canonical(`/posts/${p.slug}/`), lastmod: w3cDate(p.updatedAt) })
  }
  return new Response(renderSitemap(entries), { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
