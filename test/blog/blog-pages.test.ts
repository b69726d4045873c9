/** Mainnet blog over real HTTP: page rules, feeds, sitemap, robots, redirects, revalidation, assets. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { expectPageRules, feedparserEntries, fetchDom, hasCommand, hasPythonModule, jsonLdTypes, openPayload, xmllintSitemap } from './blog-helpers'
import { closeBlogPayload } from '../../cms/lifecycle'

const SLUG = 'mainnet-quest-guide'
let payload: Payload
let base: string
let blogUrl: string

beforeAll(async () => {
  base = inject('blogMainnetUrl')
  blogUrl = `${base}/blog`
  payload = await openPayload('mainnet')
  const { handleContentPartnerDelivery } = await import('../../cms/publishing')
  const result = await handleContentPartnerDelivery(payload, articleDelivery('pages-1', SLUG, 11))
  expect(result).toMatchObject({ ok: true, code: 'created' })
  expect(result.ok && result.refresh).toEqual([{ kind: 'revalidate', ok: true, status: 200 }])
})

afterAll(async () => {
  if (payload) await closeBlogPayload(payload)
})

describe('blog pages on mainnet', () => {
  it('index: rules, JSON-LD, article cards', async () => {
    const { res, html, doc } = await fetchDom(`${blogUrl}/`)
    expect(res.status).toBe(200)
    expectPageRules(doc, html, { canonical: `${blogUrl}/`, indexable: true })
    expect(jsonLdTypes(doc)).toEqual(expect.arrayContaining(['WebPage', 'BreadcrumbList']))
    const card = [...doc.querySelectorAll('article.card a')].find((a) => a.getAttribute('href') === `/blog/posts/${SLUG}/`)
    expect(card?.textContent).toBe('Quest guide number 11 for players')
  })

  it('post: rules, BlogPosting JSON-LD, rel on provider links in the content', async () => {
    const { res, html, doc } = await fetchDom(`${blogUrl}/posts/${SLUG}/`)
    expect(res.status).toBe(200)
    expectPageRules(doc, html, { canonical: `${blogUrl}/posts/${SLUG}/`, indexable: true })
    expect(jsonLdTypes(doc)).toContain('BlogPosting')
    expect(meta(doc, 'og:type')).toBe('article')
    const content = doc.querySelector('.content')
    expect(content?.querySelector('h2')?.textContent).toBe('Guide 11')
    const discord = content?.querySelector('a[href="https://discord.gg/platform"]')
    expect(discord?.getAttribute('rel')).toBe('nofollow noopener noreferrer')
    expect(content?.querySelector('a[href^="https://docs.example.com"]')?.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('a slug published without revalidation renders on its first request', async () => {
    const { handleContentPartnerDelivery } = await import('../../cms/publishing')
    const { readBlogSettings } = await import('../../cms/settings')
    const settings = { ...readBlogSettings(), revalidationSecret: undefined }
    const r = await handleContentPartnerDelivery(payload, articleDelivery('pages-2', 'fresh-slug-guide', 12), { settings })
    expect(r).toMatchObject({ ok: true, code: 'created', refresh: [] })
    const { res, doc } = await fetchDom(`${blogUrl}/posts/fresh-slug-guide/`)
    expect(res.status).toBe(200)
    expect(doc.querySelector('h1')?.textContent).toBe('Quest guide number 12 for players')
    expect((await fetch(`${blogUrl}/posts/no-such-post/`)).status).toBe(404)
  })

  it('RSS and Atom list the post with canonical URLs', async () => {
    const rss = await fetch(`${blogUrl}/rss.xml`)
    expect(rss.headers.get('content-type')).toMatch(/application\/rss\+xml/)
    const rssXml = await rss.text()
    expect(rssXml).toContain(`<link>${blogUrl}/posts/${SLUG}/</link>`)
    const atom = await fetch(`${blogUrl}/atom.xml`)
    expect(atom.headers.get('content-type')).toMatch(/application\/atom\+xml/)
    const atomXml = await atom.text()
    expect(atomXml).toContain(`href="${blogUrl}/posts/${SLUG}/"`)
    if (hasPythonModule('feedparser')) {
      const r = await feedparserEntries(rssXml)
      expect(r).toMatchObject({ version: 'rss20', bozo: 0 })
      expect(r.links).toContain(`${blogUrl}/posts/${SLUG}/`)
      const a = await feedparserEntries(atomXml)
      expect(a).toMatchObject({ version: 'atom10', bozo: 0 })
      expect(a.links).toContain(`${blogUrl}/posts/${SLUG}/`)
    }
  })

  it('sitemap: blog root and posts with lastmod, no changefreq/priority, valid against the XSD', async () => {
    const res = await fetch(`${blogUrl}/sitemap.xml`)
    expect(res.headers.get('content-type')).toMatch(/xml/)
    const xml = await res.text()
    expect(xml).toContain(`<loc>${blogUrl}/</loc>`)
    expect(xml).toContain(`<loc>${blogUrl}/posts/${SLUG}/</loc>`)
    expect(xml).not.toMatch(/changefreq|priority/)
    const urls = xml.match(/<url>[\s\S]*?<\/url>/g) ?? []
    expect(urls.length).toBeGreaterThanOrEqual(2)
    for (const u of urls) expect(u).toMatch(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/lastmod>/)
    if (hasCommand('xmllint')) {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'sitemap-')), 'sitemap.xml')
      writeFileSync(file, xml)
      expect(() => xmllintSitemap(file, path.resolve(import.meta.dirname, '../fixtures/standards/sitemap-0.9.xsd'))).not.toThrow()
    }
  })

  it('robots allows crawling and points at the shared sitemap index', async () => {
    const body = await (await fetch(`${blogUrl}/robots.txt`)).text()
    expect(body).toMatch(/^User-agent: \*\nAllow: \//)
    expect(body).toContain(`Sitemap: ${inject('blogAppUrl')}/sitemap_index.xml`)
    expect(body).not.toMatch(/Disallow: \/\s*$/m)
  })

  it('redirects the duplicated /blog/blog/ prefix', async () => {
    const res = await fetch(`${blogUrl}/blog/posts/${SLUG}/`, { redirect: 'manual' })
    expect([301, 308]).toContain(res.status)
    expect(res.headers.get('location')).toBe(`/blog/posts/${SLUG}/`)
    const feed = await fetch(`${blogUrl}/blog/rss.xml`, { redirect: 'manual' })
    expect(feed.headers.get('location')).toBe('/blog/rss.xml')
    const root = await fetch(`${blogUrl}/blog/`, { redirect: 'manual' })
    expect(root.headers.get('location')).toBe('/blog/')
  })

  it('revalidation endpoint: 401 without or with a wrong secret, 200 with the paths otherwise', async () => {
    const url = `${blogUrl}/api/revalidate/`
    expect((await fetch(url, { method: 'POST' })).status).toBe(401)
    expect((await fetch(url, { method: 'POST', headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    const secret = inject('blogRevalidationSecret')
    const viaHeader = await fetch(url, { method: 'POST', headers: { 'x-revalidate-secret': secret } })
    expect(viaHeader.status).toBe(200)
    expect(await viaHeader.json()).toMatchObject({ revalidated: true, paths: ['/', '/sitemap.xml', '/rss.xml', '/atom.xml'] })
    const viaQuery = await fetch(`${url}?secret=${encodeURIComponent(secret)}&slug=${SLUG}`, { method: 'POST' })
    expect((await viaQuery.json()) as unknown).toMatchObject({ paths: expect.arrayContaining([`/posts/${SLUG}/`]) })
    const viaBearer = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: SLUG }),
    })
    expect(viaBearer.status).toBe(200)
  })

  it('serves database-backed images under /blog/assets/blog/db/', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366ff' } }).png().toBuffer()
    const media = await payload.create({
      collection: 'media',
      data: { alt: 'Blue square' },
      file: { data: png, mimetype: 'image/png', name: 'blue-square.png', size: png.length },
    })
    const res = await fetch(`${blogUrl}/assets/blog/db/${media.filename}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true)
    expect((await fetch(`${blogUrl}/assets/blog/db/missing.png`)).status).toBe(404)
    expect((await fetch(`${blogUrl}/assets/blog/db/..%2Fblog.db`)).status).toBe(404)
  })
})

function meta(doc: Document, property: string): string | null {
  return doc.querySelector(`meta[property="${property}"]`)?.getAttribute('content') ?? null
}
