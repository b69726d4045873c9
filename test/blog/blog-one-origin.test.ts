/**
 * One origin: the API proxies `/blog` to the blog's Next server, so `BLOG_URL` left unset
 * (= APP_URL + /blog) is true, the webhook's revalidation call (made by the CMS the API forwards
 * the delivery to) goes through the API to the blog, and a published article is on its page and
 * in RSS well within a second, all over real HTTP.
 *
 * The platform runs on defaults except what the suite needs: random ports, the suite's DATA_DIR
 * and Next build, and NETWORK=mainnet with its secrets, because non-mainnet feeds are empty by
 * design. APP_URL is this machine's loopback address (what one origin looks like on a developer
 * machine); the deployment requirement that refuses loopback on mainnet is checked by
 * config-startup tests, so this config is parsed without it.
 */
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { loadConfig } from '../../src/config'
import { createMetrics } from '../../src/observability/metrics'
import { createRuntime, type Runtime } from '../../src/runtime'
import type { Payload } from 'payload'
import { closeBlogPayload, openBlogPayload } from '../../cms/lifecycle'
import { listenPlatformApi, type PlatformApiServer } from '../../cms/platform-server'
import { createTestDb, type TestDb } from '../helpers/db'
import { captureLogger } from '../helpers/logs'
import { publishSampleArticle } from './blog-helpers'
import { freePort } from './blog-server'

const WEBHOOK_SECRET = 'one-origin-webhook-secret-0123456789'

let testDb: TestDb
const runtimes: Runtime[] = []

async function startPlatform(port: number, settings: Record<string, string>): Promise<Runtime> {
  const config = loadConfig({
    envDir: '/nonexistent',
    requireDeploymentSettings: false,
    env: { NODE_ENV: 'test', LOG_LEVEL: 'info', CACHE_STORE: 'memory', ...settings },
  })
  const runtime = await createRuntime(config, {
    roles: new Set(['api']),
    logger: captureLogger({ level: 'info', secretValues: config.secretValues }).logger,
    metrics: createMetrics({ defaultMetrics: false }),
    version: 'test',
    db: testDb.db,
    listen: { host: '127.0.0.1', port },
  })
  runtimes.push(runtime)
  return runtime
}

let api: string
let payload: Payload | undefined
let cms: PlatformApiServer | undefined

beforeAll(async () => {
  testDb = await createTestDb()
  const port = await freePort()
  api = `http://127.0.0.1:${port}`
  const settings = {
    NETWORK: 'mainnet',
    APP_URL: api,
    DATA_DIR: inject('blogDataDir'),
    PAYLOAD_SECRET: inject('blogPayloadSecret'),
    WEBHOOK_SECRET,
    BLOG_REVALIDATION_SECRET: inject('blogRevalidationSecret'),
    // The suite's mainnet Next server stands in for the blog process (blog-serve runs the same `next start`).
    BLOG_UPSTREAM_URL: inject('blogMainnetUrl'),
  }
  // The CMS the API forwards deliveries to runs in this process (its platform routes, cms/platform-server.ts) with
  // the platform's settings from the environment, as the blog process of `npm start` has them: its refresh goes to
  // APP_URL + /blog, i.e. through this API.
  for (const key of ['BLOG_URL', 'BLOG_REVALIDATE_URL', 'BLOG_DATABASE_URL', 'BLOG_PUBLISH_CI_TOKEN']) delete process.env[key]
  Object.assign(process.env, settings)
  payload = await openBlogPayload()
  cms = await listenPlatformApi(payload)
  await startPlatform(port, { ...settings, BLOG_CMS_URL: cms.url })
  // Warm the blog server directly (as blog-serve does before it says ready): a cold render on a busy
  // machine can outlast the API's 5 s request budget, which is not what these tests measure.
  expect((await fetch(`${inject('blogMainnetUrl')}/blog/`)).status).toBe(200)
})

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close()
  await cms?.close()
  if (payload) await closeBlogPayload(payload)
  await testDb?.cleanup()
})

describe('the API serves the blog on its own origin', () => {
  it('BLOG_URL and the revalidation URL default to APP_URL + /blog, which is this API', () => {
    const { blog } = runtimes[0]!.config
    expect(blog.blogUrl).toBe(`${api}/blog`)
    expect(blog.revalidateUrl).toBe(`${api}/blog/api/revalidate/`)
  })

  it('GET /blog/ answers 200 with the blog HTML and the blog’s own security headers, uncharged', async () => {
    const res = await fetch(`${api}/blog/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(await res.text()).toContain('<html')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self' 'unsafe-inline'")
    expect(csp).not.toContain("default-src 'none'")
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('ratelimit-limit')).toBeNull()
  })

  it('/blog redirects to /blog/ on this origin; /blog/api/* is charged to admission', async () => {
    const res = await fetch(`${api}/blog`, { redirect: 'manual' })
    expect(res.status).toBe(308)
    expect(new URL(res.headers.get('location')!, api).href).toBe(`${api}/blog/`)
    const refused = await fetch(`${api}/blog/api/revalidate/`, { method: 'POST' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('ratelimit-limit')).toBe('300')
  })

  it('webhook 201 → the post page and RSS show the article through the API in under 1 s', async () => {
    const { slug, title } = await publishSampleArticle(api, WEBHOOK_SECRET)
    const started = performance.now()
    const visible = async (): Promise<boolean> => {
      const [page, rss] = await Promise.all([fetch(`${api}/blog/posts/${slug}/`), fetch(`${api}/blog/rss.xml`)])
      const [html, feed] = await Promise.all([page.text(), rss.text()])
      return page.status === 200 && html.includes(title) && rss.status === 200 && feed.includes(`/posts/${slug}/`)
    }
    let shown = await visible()
    while (!shown && performance.now() - started < 1000) shown = await visible()
    const elapsed = performance.now() - started
    console.log(`[one-origin] webhook 201 → page and RSS visible through the API after ${elapsed.toFixed(0)} ms`)
    expect(shown).toBe(true)
    expect(elapsed).toBeLessThan(1000)
  })

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, in the API’s error shape, while the blog is down', async () => {
    const closed = await freePort()
    const port = await freePort()
    await startPlatform(port, { NETWORK: 'testnet', BLOG_UPSTREAM_URL: `http://127.0.0.1:${closed}` })
    const started = performance.now()
    const res = await fetch(`http://127.0.0.1:${port}/blog/posts/anything/`)
    expect(performance.now() - started).toBeLessThan(3000)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('blog is not available'), requestId: expect.any(String), details: { retryAfterSeconds: 5 } },
    })
  })
})
