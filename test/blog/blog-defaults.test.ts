/**
 * `npm start` on defaults, as a new user runs it: one process (src/main.ts, every role) with no
 * secrets, no database server and no Redis; only the ports, DATA_DIR and the Next build directory
 * differ (a copy of the suite's build, so the first-start build is skipped). The API answers the
 * blog at /blog/ on its own port, the development webhook secret is generated into DATA_DIR and
 * announced with the curl line, and the README's curl body publishes an article whose page shows
 * through the API in under a second (testnet: the feeds stay empty by design, see blog-one-origin).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnMain, type SpawnedApi } from '../helpers/process'
import { waitFor } from '../helpers/store'
import { MAIN_DIST } from './blog-global-setup'
import { publishSampleArticle } from './blog-helpers'
import { copyBuild, freePort, ROOT } from './blog-server'

const DIST = '.next/test-defaults'
/** Settings a developer's shell or the suite may carry, cleared so the process sees defaults (empty = unset). */
const UNSET = ['DATABASE_URL', 'SHARED_STORE_URL', 'REDIS_URL', 'CACHE_STORE', 'BLOG_DATABASE_URL', 'BLOG_URL', 'BLOG_REVALIDATE_URL', 'BLOG_UPSTREAM_URL', 'NETWORK', 'PAYLOAD_SECRET', 'WEBHOOK_SECRET', 'BLOG_REVALIDATION_SECRET', 'JWT_SECRET', 'CHAIN_SUI_URL', 'CHAIN.SUI_URL', 'BLOG_PUBLISH_CI_TOKEN']

let work: string
let platform: SpawnedApi
let api: string

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'blog-defaults-'))
  copyBuild(MAIN_DIST, DIST)
  const port = await freePort()
  api = `http://localhost:${port}`
  platform = await spawnMain(
    [],
    {
      ...Object.fromEntries(UNSET.map((k) => [k, ''])),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      'GENERAL.PORT': String(port),
      APP_URL: api,
      BLOG_PORT: String(await freePort()),
      DATA_DIR: path.join(work, 'data'),
      BLOG_DIST_DIR: DIST,
    },
    120_000,
  )
}, 180_000)

afterAll(async () => {
  await platform?.stop()
  rmSync(path.join(ROOT, 'blog', DIST), { recursive: true, force: true })
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('npm start on defaults', () => {
  it('serves the blog at /blog/ on the API origin once the blog process is up', async () => {
    let status = 0
    await waitFor(
      async () => {
        status = await fetch(`${api}/blog/`).then((r) => r.status, () => 0)
        return status === 200
      },
      90_000,
      'GET /blog/ through the API',
    )
    const res = await fetch(`${api}/blog/`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<html')
  })

  it('generates the development webhook secret once (mode 600) and prints the curl, never the secret', async () => {
    const file = path.join(work, 'data', '.webhook-secret')
    // The curl follows the ready banner, printed once the blog's warm-up answers (after /blog/ may already).
    await waitFor(() => platform.output().includes('/api/blog/webhooks/contentpartner'), 60_000, 'the publish curl')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const secret = readFileSync(file, 'utf8').trim()
    expect(secret).toMatch(/^[0-9a-f]{48}$/)
    const out = platform.output()
    expect(out).toContain(`curl -X POST ${api}/api/blog/webhooks/contentpartner`)
    expect(out).toContain(`Authorization: Bearer $(cat ${file})`)
    expect(out).toContain('-d @docs/sample-article.json')
    expect(out).not.toContain(secret)
  })

  it('the README curl publishes the sample article; its page shows through the API in under 1 s', async () => {
    // blog-serve warms the site (Payload opened, post route loaded) and then says it is ready.
    await waitFor(() => platform.output().includes('blog: ready'), 60_000, 'blog: ready')
    const secret = readFileSync(path.join(work, 'data', '.webhook-secret'), 'utf8').trim()
    const { slug, title } = await publishSampleArticle(api, secret)
    const started = performance.now()
    const visible = async (): Promise<boolean> => {
      const page = await fetch(`${api}/blog/posts/${slug}/`)
      return page.status === 200 && (await page.text()).includes(title)
    }
    let shown = await visible()
    while (!shown && performance.now() - started < 1000) shown = await visible()
    const elapsed = performance.now() - started
    console.log(`[defaults] webhook 201 → post page visible through the API after ${elapsed.toFixed(0)} ms`)
    expect(shown).toBe(true)
    expect(elapsed).toBeLessThan(1000)
    const rss = await fetch(`${api}/blog/rss.xml`)
    expect(rss.status).toBe(200)
  })
})
