import { publishedPostResponse } from '../../../../../../../cms/platform-api'
import { payload } from '../../../../../../lib/payload'

export const dynamic = 'force-dynamic'

type Ctx = { params: Promise<{ slug: string }> }

/** GET /blog/api/platform/published-posts/<slug>/ — one published post for the API (cms/platform-api.ts). */
export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  return publishedPostResponse((await params).slug, await payload())
}
