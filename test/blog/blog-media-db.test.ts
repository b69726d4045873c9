/**
 * Post images live in the blog database (PostgreSQL, BLOG_TEST_DATABASE_URL): a partner image
 * that arrives through the webhook on one process is served by two other blog processes, each
 * with its own empty DATA_DIR; nothing is written under any DATA_DIR; and the migration copies a
 * file that an older version stored in `${DATA_DIR}/media` into the database, so its URL still works.
 * Skipped without BLOG_TEST_DATABASE_URL unless REQUIRE_SERVICES=1.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { blogMigrations, closeBlogPayload, migrateBlog, openBlogPayload } from '../../cms/lifecycle'
import { articleDelivery } from '../fixtures/blog-articles'
import { startImageServer, type ImageServer } from '../fixtures/image-server'
import { listenPlatformApi, type PlatformApiServer } from '../../cms/platform-server'
import { startApi, type TestApi } from '../helpers/api'
import { MAIN_DIST } from './blog-global-setup'
import { freePort, ROOT, startNext, type StartedServer } from './blog-server'

const ADMIN_URL = process.env.BLOG_TEST_DATABASE_URL
if (!ADMIN_URL && process.env.REQUIRE_SERVICES === '1') throw new Error('REQUIRE_SERVICES=1 but BLOG_TEST_DATABASE_URL is not set')

const SECRET = 'contentpartner-webhook-secret-media-db-0123'
const IMMUTABLE = 'public, max-age=31536000, immutable'
const dbName = `blog_media_${process.pid}_${Date.now().toString(36)}`
const work = mkdtempSync(path.join(tmpdir(), 'blog-media-db-'))
/** The webhook's process (this one: the CMS's platform routes, cms/platform-server.ts) and the two blog processes: one DATA_DIR each. */
const dataDirs = { webhook: path.join(work, 'webhook'), blogA: path.join(work, 'blog-a'), blogB: path.join(work, 'blog-b') }
let blogDbUrl: string
let payload: Payload
let api: TestApi
let cms: PlatformApiServer
let images: ImageServer
let legacyPng: Buffer
const blogs: StartedServer[] = []

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Every file under a directory, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe.skipIf(!ADMIN_URL)('blog images in PostgreSQL', () => {
  beforeAll(async () => {
    for (const dir of Object.values(dataDirs)) mkdirSync(dir, { recursive: true })
    await admin(ADMIN_URL!, (c) => c.query(`CREATE DATABASE ${dbName}`))
    const url = new URL(ADMIN_URL!)
    url.pathname = `/${dbName}`
    blogDbUrl = url.toString()
    Object.assign(process.env, {
      BLOG_DATABASE_URL: blogDbUrl,
      DATA_DIR: dataDirs.webhook,
      PAYLOAD_SECRET: inject('blogPayloadSecret'),
      NETWORK: 'mainnet',
      APP_URL: inject('blogAppUrl'),
      WEBHOOK_SECRET: SECRET,
      BLOG_URL: 'https://app.example.test/blog',
      BLOG_MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
    })
    for (const k of ['BLOG_REVALIDATION_SECRET', 'BLOG_PUBLISH_CI_TOKEN']) delete process.env[k]

    // The database as the previous version left it: migrated up to before the bytes table,
    // with an image whose file sits in the webhook process's DATA_DIR/media.
    payload = await openBlogPayload()
    const all = await blogMigrations(payload)
    const bytesTable = all.findIndex((m) => /_media_files$/.test(m.name))
    expect(bytesTable).toBeGreaterThan(0)
    await payload.db.migrate({ migrations: all.slice(0, bytesTable) })
    legacyPng = await sharp({ create: { width: 5, height: 4, channels: 3, background: '#2a6' } }).png().toBuffer()
    mkdirSync(path.join(dataDirs.webhook, 'media'))
    writeFileSync(path.join(dataDirs.webhook, 'media', 'legacy-guide-1.png'), legacyPng)
    await admin(blogDbUrl, (c) =>
      c.query(`INSERT INTO media (alt, filename, mime_type, filesize, width, height) VALUES ('An older image', 'legacy-guide-1.png', 'image/png', $1, 5, 4)`, [legacyPng.length]),
    )
    await migrateBlog(payload)

    images = await startImageServer()
    // The API forwards the delivery to the CMS routes served here.
    cms = await listenPlatformApi(payload)
    api = await startApi({ env: { WEBHOOK_SECRET: SECRET, NETWORK: 'mainnet', BLOG_CMS_URL: cms.url } })
    for (const dir of [dataDirs.blogA, dataDirs.blogB]) {
      const port = await freePort()
      const env = {
        ...process.env,
        NODE_ENV: 'production' as const,
        NEXT_TELEMETRY_DISABLED: '1',
        DATA_DIR: dir,
        BLOG_URL: `http://127.0.0.1:${port}/blog`,
        BLOG_DIST_DIR: MAIN_DIST,
      }
      blogs.push(await startNext(port, env, path.join(ROOT, 'test-artifacts', `blog-server-media-db-${path.basename(dir)}.log`)))
    }
  })

  afterAll(async () => {
    await Promise.all(blogs.map((b) => b.stop()))
    await api?.close()
    await cms?.close()
    await images?.close()
    if (payload) await closeBlogPayload(payload)
    await admin(ADMIN_URL!, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
    rmSync(work, { recursive: true, force: true })
    delete process.env.BLOG_MEDIA_ALLOW_PRIVATE_HOSTS
  })

  it('an image delivered through the webhook here is served by both other blog processes, from the database', async () => {
    const slug = 'media-in-the-database-guide'
    const base = articleDelivery('media-db-1', slug, 71)
    const body = { ...base, article: { ...(base.article as Record<string, unknown>), image_url: `${images.url}/hero.png?for=${slug}` } }
    const res = await fetch(`${api.url}/api/blog/webhooks/contentpartner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(201)
    expect(((await res.json()).warnings as string[]).filter((w) => w.startsWith('image '))).toEqual([])
    const media = await payload.find({ collection: 'media', where: { sourceUrl: { equals: body.article.image_url } }, depth: 0 })
    const filename = media.docs[0]!.filename!

    for (const blog of blogs) {
      const served = await fetch(`${blog.url}/blog/assets/blog/db/${encodeURIComponent(filename)}`)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/png')
      expect(served.headers.get('cache-control')).toBe(IMMUTABLE)
      expect(served.headers.get('etag')).toBe(`"${sha256(images.png)}"`)
      expect(Buffer.from(await served.arrayBuffer()).equals(images.png)).toBe(true)
      // The strong validator answers a revalidation without the bytes.
      const again = await fetch(`${blog.url}/blog/assets/blog/db/${encodeURIComponent(filename)}`, { headers: { 'if-none-match': served.headers.get('etag')! } })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe(served.headers.get('etag'))
    }
    // No process wrote a file for it: the only file under any DATA_DIR is the older version's.
    expect(filesUnder(dataDirs.webhook)).toEqual([path.join('media', 'legacy-guide-1.png')])
    expect(filesUnder(dataDirs.blogA).filter((f) => f.startsWith('media') || /\.(png|jpe?g|webp|gif)$/.test(f))).toEqual([])
    expect(filesUnder(dataDirs.blogB).filter((f) => f.startsWith('media') || /\.(png|jpe?g|webp|gif)$/.test(f))).toEqual([])
  })

  it('the migration moved the older file into the database: its URL still answers, on processes that never had the file', async () => {
    const stored = await admin(blogDbUrl, (c) => c.query<{ etag: string; data: Buffer }>(`SELECT etag, data FROM media_files WHERE filename = 'legacy-guide-1.png'`))
    expect(stored.rows[0]?.data.equals(legacyPng)).toBe(true)
    for (const blog of blogs) {
      const served = await fetch(`${blog.url}/blog/assets/blog/db/legacy-guide-1.png`)
      expect(served.status).toBe(200)
      expect([served.headers.get('content-type'), served.headers.get('etag'), served.headers.get('cache-control')]).toEqual(['image/png', `"${sha256(legacyPng)}"`, IMMUTABLE])
      expect(Buffer.from(await served.arrayBuffer()).equals(legacyPng)).toBe(true)
    }
  })

  it('an unknown filename and a deleted image answer 404', async () => {
    const created = await payload.create({ collection: 'media', data: { alt: 'Short-lived' }, file: { data: legacyPng, mimetype: 'image/png', name: 'short-lived.png', size: legacyPng.length } })
    const url = `${blogs[0]!.url}/blog/assets/blog/db/${encodeURIComponent(created.filename!)}`
    expect((await fetch(url)).status).toBe(200)
    await payload.delete({ collection: 'media', id: created.id })
    expect((await fetch(url)).status).toBe(404)
    expect((await fetch(`${blogs[1]!.url}/blog/assets/blog/db/no-such-image.png`)).status).toBe(404)
  })
})
