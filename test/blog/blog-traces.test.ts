/**
 * Traces across processes: the API (built, as production runs it) and a blog server on the suite's
 * build and CMS database, both with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver of this test.
 * A GraphQL `blogPosts` read and a partner webhook delivery, each sent with a W3C `traceparent`,
 * arrive as one trace each: the caller's span → the API's request span → its handler (Redis calls
 * under it) → the call to the blog process → the blog's request span → its route handler.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startOtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver'
import { spawnMain, type SpawnedApi } from '../helpers/process'
import { migratedTarget, type MigratedTarget } from '../helpers/db'
import { needsService } from '../helpers/env'
import { waitFor } from '../helpers/store'
import { MAIN_DIST } from './blog-global-setup'
import { mainnetServerEnv } from './blog-helpers'
import { copyBuild, freePort, ROOT, startNext, type StartedServer } from './blog-server'

const TRACES_DIST = '.next/test-traces'
const SECRET = inject('blogWebhookSecret')
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>
let blog: StartedServer
let api: SpawnedApi
let target: MigratedTarget

// The trace runs through the shared store: Redis spans need Redis (skipped without it, required in CI).
const run = needsService('SHARED_STORE_URL')

beforeAll(async () => {
  if (!run) return
  receiver = await startOtlpReceiver()
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }
  copyBuild(MAIN_DIST, TRACES_DIST)
  const port = await freePort()
  const blogEnv: NodeJS.ProcessEnv = {
    ...mainnetServerEnv(),
    ...otel,
    BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'),
    WEBHOOK_SECRET: SECRET,
    BLOG_URL: `http://127.0.0.1:${port}/blog`,
    BLOG_DIST_DIR: TRACES_DIST,
  }
  delete blogEnv.BLOG_DATABASE_URL
  blog = await startNext(port, blogEnv, path.join(ROOT, 'test-artifacts/blog-server-traces.log'))
  target = await migratedTarget('traces-')
  api = await spawnMain(['--role', 'api'], {
    ...otel,
    ...target.env,
    NETWORK: 'mainnet',
    APP_URL: inject('blogAppUrl'),
    JWT_SECRET: 'test-traces-jwt-secret-0123456789abcdef',
    PAYLOAD_SECRET: inject('blogPayloadSecret'),
    WEBHOOK_SECRET: SECRET,
    BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'),
    BLOG_CMS_URL: blog.url,
    LOG_FORMAT: 'json',
  })
}, 120_000)

afterAll(async () => {
  await api?.stop()
  await blog?.stop()
  await target?.cleanup()
  await receiver?.close()
})

/** A caller's span context: a new trace id and the id of the caller's (unseen) span. */
const callerTrace = () => ({ traceId: randomBytes(16).toString('hex'), parentId: randomBytes(8).toString('hex') })
const traceparent = (c: ReturnType<typeof callerTrace>) => `00-${c.traceId}-${c.parentId}-01`

/** The names from the span up to the trace's root, each `service: name`. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  const chain: string[] = []
  for (let at: ReceivedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) chain.push(`${at.service}: ${at.name}`)
  return chain.reverse()
}

/** Waits until the trace holds a span of the blog under the API's call to it, then returns all of it. */
async function traceOf(traceId: string, blogRoute: RegExp): Promise<ReceivedSpan[]> {
  const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId)
  await waitFor(() => inTrace().some((s) => s.service === 'platform-blog' && blogRoute.test(s.name)) && inTrace().some((s) => s.service === 'platform-api' && s.name.startsWith('POST ')), 30_000, `the spans of trace ${traceId}`)
  return inTrace()
}

function expectTrace(spans: ReceivedSpan[], caller: ReturnType<typeof callerTrace>, route: string) {
  // One trace, one root: the API's request span, child of the caller's span.
  const roots = spans.filter((s) => !spans.some((p) => p.spanId === s.parentSpanId))
  expect(roots.map((s) => [s.service, s.name, s.parentSpanId])).toEqual([['platform-api', `POST ${route}`, caller.parentId]])
  const blogServer = spans.find((s) => s.service === 'platform-blog' && !spans.some((p) => p.spanId === s.parentSpanId && p.service === 'platform-blog'))!
  // API request → handler → the fetch to the blog → the blog's request span (Next's, continuing the trace).
  expect(ancestry(spans, blogServer).slice(0, 3)).toEqual([`platform-api: POST ${route}`, `platform-api: handler ${route}`, expect.stringMatching(/^platform-api: (GET|POST)$/)])
  expect(spans.filter((s) => s.parentSpanId === blogServer.spanId).length).toBeGreaterThan(0)
  // The shared store was asked (admission at least), inside the request.
  const redis = spans.filter((s) => s.attributes['db.system.name'] === 'redis')
  expect(redis.length).toBeGreaterThan(0)
  for (const s of redis) expect(ancestry(spans, s)[0]).toBe(`platform-api: POST ${route}`)
  // No secret in any attribute.
  for (const s of spans) expect(JSON.stringify(s.attributes)).not.toMatch(new RegExp(`${SECRET}|Bearer|authorization`, 'i'))
  return { blogServer }
}

describe.runIf(run)('traces across the API and the blog process', () => {
  it('a GraphQL blogPosts read is one trace: API request → handler → Redis → fetch → the blog → the CMS read', async () => {
    const caller = callerTrace()
    const res = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: traceparent(caller) },
      body: JSON.stringify({ query: 'query Traced { blogPosts(limit: 3) { totalPosts } }' }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).errors).toBeUndefined()
    const spans = await traceOf(caller.traceId, /^GET /)
    const { blogServer } = expectTrace(spans, caller, '/graphql')
    expect(blogServer.name).toBe('GET /api/platform/published-posts')
    // GraphQL's own spans hang under the handler.
    const parse = spans.find((s) => s.name === 'graphql.parse')!
    expect(ancestry(spans, parse).slice(0, 2)).toEqual(['platform-api: POST /graphql', 'platform-api: handler /graphql'])
  })

  it('a partner webhook delivery is one trace: API request → handler → fetch → the blog → the CMS write, Redis inside', async () => {
    const caller = callerTrace()
    const sample = JSON.parse(readFileSync(path.join(ROOT, 'docs/sample-article.json'), 'utf8')) as { delivery_id: string; article: { slug: string } }
    const body = { ...sample, delivery_id: `traces-${caller.traceId.slice(0, 8)}`, article: { ...sample.article, slug: `traced-${caller.traceId.slice(0, 8)}` } }
    const res = await fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}`, traceparent: traceparent(caller) },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(201)
    const spans = await traceOf(caller.traceId, /^POST /)
    const { blogServer } = expectTrace(spans, caller, '/api/blog/webhooks/contentpartner')
    expect(blogServer.name).toMatch(/^POST \/api\/platform\//)
  })
})
