import { buildAppRobots } from '../../../../src/surfaces/shared/robots'
import { site } from '../../../lib/site'

export const dynamic = 'force-static'
export const revalidate = 60

/** The app host's robots (src/surfaces/shared): the shared sitemap index on mainnet, block all elsewhere. */
export function GET(): Response {
  return new Response(buildAppRobots(site()), { headers: { 'content-type': 'text/plain; charset=utf-8' } })
}
