import { listPublishedSlugs } from '../../../../cms/posts-read'
import { buildBlogSitemap } from '../../../../src/surfaces/shared/blog'
import { isIndexable } from '../../../../src/surfaces/shared/site'
import { payload } from '../../../lib/payload'
import { site } from '../../../lib/site'

export const dynamic = 'force-static'
export const revalidate = 60

/** Mainnet: blog root + published posts, lastmod from content. Elsewhere: no URLs (src/surfaces/shared). */
export async function GET(): Promise<Response> {
  const s = site()
  const posts = isIndexable(s) ? await listPublishedSlugs(await payload()) : []
  return new Response(buildBlogSitemap(s, posts), { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
