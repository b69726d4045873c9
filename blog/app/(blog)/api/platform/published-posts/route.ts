import { publishedPostsResponse } from '../../../../../../cms/platform-api'
import { payload } from '../../../../../lib/payload'

export const dynamic = 'force-dynamic'

/** GET /blog/api/platform/published-posts/?page=&limit= — the API's blog reads (cms/platform-api.ts). */
export async function GET(req: Request): Promise<Response> {
  return publishedPostsResponse(req, await payload())
}
