/**
 * The CMS on PostgreSQL (BLOG_TEST_DATABASE_URL): committed migrations apply to an empty
 * database, partner deliveries stay idempotent, and the editorial and slug hooks hold.
 * Skipped without BLOG_TEST_DATABASE_URL unless REQUIRE_SERVICES=1.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { closeBlogPayload, openBlogPayload } from '../../cms/lifecycle'

const ADMIN_URL = process.env.BLOG_TEST_DATABASE_URL
if (!ADMIN_URL && process.env.REQUIRE_SERVICES === '1') throw new Error('REQUIRE_SERVICES=1 but BLOG_TEST_DATABASE_URL is not set')

const dbName = `blog_test_${process.pid}_${Date.now().toString(36)}`
let payload: Payload
let publishing: typeof import('../../cms/publishing')
let dataDir: string

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

describe.skipIf(!ADMIN_URL)('blog CMS on PostgreSQL', () => {
  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${dbName}`))
    const url = new URL(ADMIN_URL as string)
    url.pathname = `/${dbName}`
    dataDir = mkdtempSync(path.join(tmpdir(), 'blog-pg-'))
    Object.assign(process.env, {
      BLOG_DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PAYLOAD_SECRET: 'blog-pg-test-secret',
      NETWORK: 'mainnet',
      BLOG_URL: 'https://app.example.test/blog',
    })
    delete process.env.BLOG_REVALIDATION_SECRET
    delete process.env.BLOG_PUBLISH_CI_TOKEN
    payload = await openBlogPayload({ migrate: true })
    publishing = await import('../../cms/publishing')
  })

  afterAll(async () => {
    if (payload) await closeBlogPayload(payload)
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('applies the committed migrations to an empty database', async () => {
    const db = new pg.Client({ connectionString: process.env.BLOG_DATABASE_URL })
    await db.connect()
    try {
      const r = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
      expect(r.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['blog_posts', 'blog_webhook_deliveries', 'media', 'users', 'payload_migrations']))
      const m = await db.query<{ name: string }>('SELECT name FROM payload_migrations')
      expect(m.rows.map((row) => row.name)).toContain('20261122_164725_initial')
      // a post's tags are read by parent_id (Payload's own index on the table leads with "order")
      const idx = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'blog_posts_texts_parent_idx'`)
      expect(idx.rows[0]?.indexdef).toMatch(/ON public\.blog_posts_texts USING btree \(parent_id\)/)
    } finally {
      await db.end()
    }
  })

  it('50 parallel identical deliveries give one post and one delivery row', async () => {
    const body = articleDelivery('pg-parallel', 'pg-parallel-guide', 41)
    const results = await Promise.all(Array.from({ length: 50 }, () => publishing.handleContentPartnerDelivery(payload, structuredClone(body))))
    expect(results.filter((r) => r.code === 'created')).toHaveLength(1)
    expect(results.filter((r) => r.code === 'duplicate')).toHaveLength(49)
    expect((await payload.count({ collection: 'blog_posts', where: { slug: { equals: 'pg-parallel-guide' } } })).totalDocs).toBe(1)
    expect((await payload.count({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: 'pg-parallel' } } })).totalDocs).toBe(1)
  })

  it('bad input writes nothing', async () => {
    const before = (await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs
    const r = await publishing.handleContentPartnerDelivery(payload, { event: 'article.published', delivery_id: 'pg-bad', article: { title: 'x' } })
    expect(r).toMatchObject({ ok: false, status: 400, code: 'INVALID_ARTICLE' })
    expect((await payload.count({ collection: 'blog_webhook_deliveries' })).totalDocs).toBe(before)
  })

  it('a published slug is stable; publishing an incomplete post is refused', async () => {
    const post = await payload.find({ collection: 'blog_posts', where: { slug: { equals: 'pg-parallel-guide' } } })
    await expect(payload.update({ collection: 'blog_posts', id: post.docs[0]!.id, data: { slug: 'renamed-guide' } })).rejects.toThrow(/slug/i)
    await expect(
      payload.create({ collection: 'blog_posts', data: { title: 'An incomplete editor post', slug: 'incomplete-post', _status: 'published' } }),
    ).rejects.toThrow(/invalid/i)
    const draft = await payload.create({ collection: 'blog_posts', data: { title: 'An incomplete editor post', slug: 'incomplete-post' }, draft: true })
    expect(draft).toMatchObject({ _status: 'draft', status: 'draft' })
    expect(draft.editorialWarnings).toMatch(/\[error\] excerpt: /)
  })

  it('the read API sees only published posts', async () => {
    const { listPublishedPosts, getPublishedPostBySlug } = await import('../../cms/posts-read')
    const page = await listPublishedPosts({ page: 1, limit: 10 }, payload)
    expect(page.docs.map((d) => d.slug)).toEqual(['pg-parallel-guide'])
    expect(await getPublishedPostBySlug('incomplete-post', payload)).toBeNull()
  })

  it('pages of the list read in order, newest first with the id breaking ties, each with its own tags', async () => {
    const { listPublishedPosts } = await import('../../cms/posts-read')
    // two posts a day for 12 days: every page boundary falls on a tie or between days
    for (let i = 0; i < 24; i++) {
      const body = articleDelivery(`pg-page-${i}`, `pg-page-${i}`, 100 + i)
      const article = body.article as Record<string, unknown>
      article.published_at = `2026-02-${String(1 + Math.floor(i / 2)).padStart(2, '0')}T10:00:00Z`
      article.tags = ['quests', `tag-${i}`]
      expect(await publishing.handleContentPartnerDelivery(payload, body)).toMatchObject({ code: 'created' })
    }
    const all = await payload.find({ collection: 'blog_posts', where: { _status: { equals: 'published' } }, pagination: false, depth: 0 })
    const expected = all.docs
      .map((d) => ({ id: Number(d.id), slug: d.slug as string, publishedAt: Date.parse(d.publishedAt as string) }))
      .sort((a, b) => b.publishedAt - a.publishedAt || b.id - a.id)
      .map((d) => d.slug)
    expect(expected).toHaveLength(25)

    const pages = [1, 2, 3].map((page) => listPublishedPosts({ page, limit: 10 }, payload))
    const [first, second, third] = await Promise.all(pages)
    expect([first!.docs.length, second!.docs.length, third!.docs.length]).toEqual([10, 10, 5])
    expect([first!.hasNextPage, second!.hasNextPage, third!.hasNextPage]).toEqual([true, true, false])
    expect(first).toMatchObject({ totalDocs: 25, totalPages: 3, page: 1, limit: 10 })
    expect([...first!.docs, ...second!.docs, ...third!.docs].map((d) => d.slug)).toEqual(expected)
    for (const doc of [...first!.docs, ...second!.docs]) expect(doc.tags).toEqual(['quests', `tag-${doc.slug.replace('pg-page-', '')}`])
    expect((await listPublishedPosts({ page: 4, limit: 10 }, payload)).docs).toEqual([])
  })
})
