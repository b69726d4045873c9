import { buildFeed } from '../../../lib/feed'

export const dynamic = 'force-static'
export const revalidate = 60

export async function GET(): Promise<Response> {
  const feed = await buildFeed()
  return new Response(feed.rss(), { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } })
}
