import { contentPartnerResponse } from '../../../../../../cms/platform-api'
import { payload } from '../../../../../lib/payload'

export const dynamic = 'force-dynamic'

/** POST /blog/api/platform/contentpartner/ — the partner deliveries the API forwards (cms/platform-api.ts). */
export async function POST(req: Request): Promise<Response> {
  return contentPartnerResponse(req, await payload())
}
