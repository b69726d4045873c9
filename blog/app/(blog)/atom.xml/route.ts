import { buildFeed } from '../../../lib/feed'

export const dynamic = 'force-static'
export const revalidate = 60

export async function GET(): Promise<Response> {
  const feed = await buildFeed()
  return new Response(feed.atom(), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } })
}
