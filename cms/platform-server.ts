import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Payload } from 'payload'
import { BLOG_DELIVERY_PATH, BLOG_PUBLISHED_POSTS_PATH } from '../src/surfaces/shared/blog-webhook'
import { contentPartnerResponse, publishedPostResponse, publishedPostsResponse } from './platform-api'

export interface PlatformApiServer {
  /** `http://127.0.0.1:<port>`: what the API's BLOG_CMS_URL points at. */
  url: string
  close(): Promise<void>
}

/**
 * The blog process's platform routes (cms/platform-api.ts) on a bare Node server, without Next:
 * the bench's blog reads and the tests whose deliveries need this process's CMS settings use it.
 * The blog process itself serves the same handlers from its Next app (blog/app/(blog)/api/platform/).
 */
export async function listenPlatformApi(payload: Payload, opts: { port?: number } = {}): Promise<PlatformApiServer> {
  const server = createServer((req, res) => {
    void answer(payload, req, res).catch((err: unknown) => {
      payload.logger.error({ err }, 'platform api: request failed')
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('Internal error')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function answer(payload: Payload, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
  const request = new Request(url, { method: req.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) })
  const slug = url.pathname.startsWith(BLOG_PUBLISHED_POSTS_PATH) ? url.pathname.slice(BLOG_PUBLISHED_POSTS_PATH.length).replace(/\/$/, '') : undefined
  const response =
    req.method === 'POST' && url.pathname === BLOG_DELIVERY_PATH
      ? await contentPartnerResponse(request, payload)
      : req.method === 'GET' && slug === ''
        ? await publishedPostsResponse(request, payload)
        : req.method === 'GET' && slug
          ? await publishedPostResponse(slug, payload)
          : new Response('Not found', { status: 404 })
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.end(Buffer.from(await response.arrayBuffer()))
}
