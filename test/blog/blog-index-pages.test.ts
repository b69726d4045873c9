/**
 * The blog index past its first page, over real HTTP on a mainnet server of its own (the suite's
 * build, a fresh PostgreSQL database from BLOG_TEST_DATABASE_URL): 120 published posts give
 * pages 1–3 with rel prev/next and a canonical each, `/page/1/` goes to the root, pages past the
 * last are 404, the sitemap lists all 120 and the feeds the newest 50.
 * Skipped without BLOG_TEST_DATABASE_URL unless REQUIRE_SERVICES=1.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { closeBlogPayload, openBlogPayload } from '../../cms/lifecycle'
import { expectPageRules, fetchDom } from './blog-helpers'
import { MAIN_DIST } from './blog-global-setup'
import { copyBuild, freePort, ROOT, startNext, type StartedServer } from './blog-server'

const ADMIN_URL = process.env.BLOG_TEST_DATABASE_URL
if (!ADMIN_URL && process.env.REQUIRE_SERVICES === '1') throw new Error('REQUIRE_SERVICES=1 but BLOG_TEST_DATABASE_URL is not set')

const POSTS = 120
/** This server's own copy of the suite's build: its pages were prerendered from the suite's other database. */
const DIST = '.next/test-index-pages'
const REVALIDATION_SECRET = 'blog-index-pages-revalidation-secret'
/** Posts 48–53 share one publication instant, across the page 1 / page 2 boundary (50). */
const TIED = new Set([48, 49, 50, 51, 52, 53])
const dbName = `blog_pages_${process.pid}_${Date.now().toString(36)}`
let payload: Payload
let server: StartedServer
let dataDir: string
let blogUrl: string

const slugOf = (i: number): string => `paged-guide-${i}`
/** Post i is published i hours before a fixed instant (newest is 0), the tied group at one hour. */
const publishedAt = (i: number): string => new Date(Date.UTC(2026, 5, 1) - (TIED.has(i) ? 48 : i) * 3_600_000).toISOString()

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

const cardSlugs = (doc: Document): string[] =>
  [...doc.querySelectorAll('article.card h2 a')].map((a) => /\/blog\/posts\/([^/]+)\//.exec(a.getAttribute('href') ?? '')?.[1] ?? '')
const linkHref = (doc: Document, rel: string): string | null => doc.querySelector(`link[rel="${rel}"]`)?.getAttribute('href') ?? null
const navHref = (doc: Document, rel: string): string | null => doc.querySelector(`nav.pagination a[rel="${rel}"]`)?.getAttribute('href') ?? null

describe.skipIf(!ADMIN_URL)('blog index pages', () => {
  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${dbName}`))
    const url = new URL(ADMIN_URL as string)
    url.pathname = `/${dbName}`
    dataDir = mkdtempSync(path.join(tmpdir(), 'blog-index-pages-'))
    const port = await freePort()
    blogUrl = `http://127.0.0.1:${port}/blog`
    const env = {
      BLOG_DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PAYLOAD_SECRET: inject('blogPayloadSecret'),
      NETWORK: 'mainnet',
      APP_URL: inject('blogAppUrl'),
      BLOG_URL: blogUrl,
    }
    Object.assign(process.env, env)
    // Seeding asks no server to revalidate: the server starts afterwards and is refreshed once.
    delete process.env.BLOG_REVALIDATION_SECRET
    delete process.env.BLOG_PUBLISH_CI_TOKEN
    payload = await openBlogPayload({ migrate: true })
    const { handleContentPartnerDelivery } = await import('../../cms/publishing')
    for (let i = 0; i < POSTS; i++) {
      const delivery = articleDelivery(`paged-${i}`, slugOf(i), 200 + i)
      ;(delivery.article as Record<string, unknown>).published_at = publishedAt(i)
      const r = await handleContentPartnerDelivery(payload, delivery)
      expect(r, JSON.stringify(r)).toMatchObject({ ok: true, code: 'created' })
    }
    copyBuild(MAIN_DIST, DIST)
    server = await startNext(
      port,
      { ...process.env, ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', BLOG_DIST_DIR: DIST, BLOG_REVALIDATION_SECRET: REVALIDATION_SECRET },
      path.join(ROOT, 'test-artifacts', 'blog-server-index-pages.log'),
    )
    const refreshed = await fetch(`${blogUrl}/api/revalidate/`, { method: 'POST', headers: { authorization: `Bearer ${REVALIDATION_SECRET}` } })
    expect(refreshed.status).toBe(200)
  })

  afterAll(async () => {
    await server?.stop()
    if (payload) await closeBlogPayload(payload)
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    rmSync(path.join(ROOT, 'blog', DIST), { recursive: true, force: true })
  })

  it('pages 1–3 hold all 120 posts newest first, each page self-canonical with rel prev/next', async () => {
    const pages = [`${blogUrl}/`, `${blogUrl}/page/2/`, `${blogUrl}/page/3/`]
    const seen: string[][] = []
    for (const [i, url] of pages.entries()) {
      const { res, html, doc } = await fetchDom(url)
      expect(res.status, url).toBe(200)
      expectPageRules(doc, html, { canonical: url, indexable: true })
      expect(linkHref(doc, 'prev')).toBe(i === 0 ? null : pages[i - 1])
      expect(linkHref(doc, 'next')).toBe(i === 2 ? null : pages[i + 1])
      expect(navHref(doc, 'prev')).toBe(i === 0 ? null : new URL(pages[i - 1]!).pathname)
      expect(navHref(doc, 'next')).toBe(i === 2 ? null : new URL(pages[i + 1]!).pathname)
      seen.push(cardSlugs(doc))
    }
    expect(seen.map((s) => s.length)).toEqual([50, 50, 20])
    const all = seen.flat()
    expect(new Set(all).size).toBe(POSTS)
    // Newest first; the tied group keeps one order (newest id first) across the page boundary.
    const untied = all.filter((s) => !TIED.has(Number(s.split('-').at(-1))))
    expect(untied).toEqual(Array.from({ length: POSTS }, (_, i) => i).filter((i) => !TIED.has(i)).map(slugOf))
    expect(all.filter((s) => TIED.has(Number(s.split('-').at(-1))))).toEqual([...TIED].reverse().map(slugOf))
    const titles = new Set<string>()
    for (const url of pages) titles.add((await fetchDom(url)).doc.querySelector('title')?.textContent ?? '')
    expect(titles.size).toBe(3)
  })

  it('/page/1/ goes to the root; pages past the last and non-numbers are 404', async () => {
    const one = await fetch(`${blogUrl}/page/1/`, { redirect: 'manual' })
    expect([301, 308]).toContain(one.status)
    expect(one.headers.get('location')).toBe('/blog/')
    for (const p of ['4', '40', '0', '02', 'two', '-1']) {
      expect((await fetch(`${blogUrl}/page/${p}/`, { redirect: 'manual' })).status, p).toBe(404)
    }
  })

  it('the sitemap lists every post; the feeds keep the newest 50', async () => {
    const xml = await (await fetch(`${blogUrl}/sitemap.xml`)).text()
    for (let i = 0; i < POSTS; i++) expect(xml).toContain(`<loc>${blogUrl}/posts/${slugOf(i)}/</loc>`)
    const rss = await (await fetch(`${blogUrl}/rss.xml`)).text()
    const items = [...rss.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1])
    expect(items).toHaveLength(50)
    expect(items[0]).toBe(`${blogUrl}/posts/${slugOf(0)}/`)
    expect(items).not.toContain(`${blogUrl}/posts/${slugOf(POSTS - 1)}/`)
    const atom = await (await fetch(`${blogUrl}/atom.xml`)).text()
    expect(atom.match(/<entry>/g)).toHaveLength(50)
  })
})
