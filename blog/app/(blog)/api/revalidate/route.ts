import { revalidatePath } from 'next/cache'
import { secretsEqual } from '../../../../../cms/secret-compare'
import { site } from '../../../../lib/site'

export const dynamic = 'force-dynamic'

function secretFrom(req: Request, url: URL): string | null {
  const auth = req.headers.get('authorization')
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim()
  return req.headers.get('x-revalidate-secret') ?? url.searchParams.get('secret')
}

async function slugFrom(req: Request, url: URL): Promise<string | null> {
  let slug = url.searchParams.get('slug')
  if (!slug && req.headers.get('content-type')?.includes('application/json')) {
    const body = (await req.json().catch(() => null)) as { slug?: unknown } | null
    slug = typeof body?.slug === 'string' ? body.slug : null
  }
  return slug && /^[a-z0-9-]{1,80}$/.test(slug) ? slug : null
}

/**
 * POST /blog/api/revalidate/ — secret via Bearer, x-revalidate-secret or ?secret=.
 * With trailingSlash, revalidatePath('/rss.xml') misses; the layout-wide refresh covers
 * the index, feeds, sitemap and every post.
 */
export async function POST(req: Request): Promise<Response> {
  const url = new URL(req.url)
  const expected = site().revalidationSecret
  if (!expected || !secretsEqual(secretFrom(req, url), expected)) {
    return Response.json({ revalidated: false, error: 'unauthorized' }, { status: 401 })
  }
  const slug = await slugFrom(req, url)
  const paths = ['/', '/sitemap.xml', '/rss.xml', '/atom.xml', ...(slug ? [`/posts/${slug}/`] : [])]
  revalidatePath('/', 'layout')
  for (const p of paths) revalidatePath(p)
  return Response.json({ revalidated: true, paths, now: Date.now() })
}
