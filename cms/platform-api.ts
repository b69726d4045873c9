import type { Payload } from 'payload'
import { handleContentPartnerDelivery } from './publishing'
import { getPublishedPostBySlug, listPublishedPosts } from './posts-read'
import { readBlogSettings } from './settings'
import { isAuthorizedWebhook } from './webhook-auth'

/**
 * What the blog process answers the API with (src/services/blog reads and forwards through
 * these; the paths are in src/surfaces/shared/blog-webhook.ts): the published posts, and the
 * partner deliveries the API has admitted. Plain Request → Response, so the Next route handlers
 * (blog/app/(blog)/api/platform/) and a bare Node server (the bench) serve the same thing.
 */

const NO_STORE = { 'cache-control': 'no-store' }

const intParam = (url: URL, name: string): number | undefined => {
  const v = url.searchParams.get(name)
  // Any integer, as GraphQL passes it: listPublishedPosts clamps (a negative limit is 1, 0 is the default).
  return v !== null && /^-?\d{1,10}$/.test(v) ? Number(v) : undefined
}

/** `GET …/published-posts/?page=&limit=`: one page of published posts, newest first (limit clamped to 1–100). */
export async function publishedPostsResponse(request: Request, payload: Payload): Promise<Response> {
  const url = new URL(request.url)
  const page = await listPublishedPosts({ page: intParam(url, 'page'), limit: intParam(url, 'limit') }, payload)
  return Response.json(page, { headers: NO_STORE })
}

/** `GET …/published-posts/<slug>/`: `{ post }`, null when no published post has that slug. */
export async function publishedPostResponse(slug: string, payload: Payload): Promise<Response> {
  return Response.json({ post: await getPublishedPostBySlug(slug, payload) }, { headers: NO_STORE })
}

/**
 * `POST …/contentpartner/`: one delivery, as the partner sent it to the API. The API has checked
 * the secret, the body's size and characters and the rate limit; the secret is checked again
 * here (this path is reachable through the `/blog` proxy too). The answer is the outcome
 * (`{ ok, status, code, … }`) with the outcome's status; the API turns it into the webhook's reply.
 */
export async function contentPartnerResponse(request: Request, payload: Payload): Promise<Response> {
  if (!isAuthorizedWebhook(request.headers, readBlogSettings().webhookSecret)) {
    return Response.json({ ok: false, status: 401, code: 'UNAUTHENTICATED', message: 'Missing or invalid webhook secret' }, { status: 401, headers: NO_STORE })
  }
  const text = await request.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  const outcome = await handleContentPartnerDelivery(payload, body)
  return Response.json(outcome, { status: outcome.status, headers: NO_STORE })
}
