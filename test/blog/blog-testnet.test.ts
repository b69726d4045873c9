/** Non-mainnet blog: robots blocks all, sitemap empty, feeds without posts, pages noindex. */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { articleDelivery } from '../fixtures/blog-articles'
import { expectPageRules, feedparserEntries, fetchDom, hasPythonModule, openPayload } from './blog-helpers'
import { closeBlogPayload } from '../../cms/lifecycle'

const SLUG = 'testnet-hidden-guide'
let payload: Payload
let blogUrl: string

beforeAll(async () => {
  blogUrl = `${inject('blogTestnetUrl')}/blog`
  payload = await openPayload('testnet')
  const { handleContentPartnerDelivery } = await import('../../cms/publishing')
  // A published post exists in the database, so "no posts" below is a real filter.
  const r = await handleContentPartnerDelivery(payload, articleDelivery('testnet-1', SLUG, 21))
  expect(r).toMatchObject({ ok: true, code: 'created', refresh: [{ kind: 'revalidate', ok: true }] })
})

afterAll(async () => {
  if (payload) await closeBlogPayload(payload)
})

describe('blog on a non-mainnet network', () => {
  it('robots.txt blocks all crawling and names no sitemap', async () => {
    const body = await (await fetch(`${blogUrl}/robots.txt`)).text()
    expect(body).toBe('User-agent: *\nDisallow: /\n')
  })

  it('sitemap has no URL entries', async () => {
    const xml = await (await fetch(`${blogUrl}/sitemap.xml`)).text()
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    expect(xml).not.toContain('<url>')
  })

  it('feeds advertise no posts', async () => {
    const rss = await (await fetch(`${blogUrl}/rss.xml`)).text()
    const atom = await (await fetch(`${blogUrl}/atom.xml`)).text()
    expect(rss).not.toContain('<item>')
    expect(atom).not.toContain('<entry>')
    expect(rss + atom).not.toContain(SLUG)
    // No posts to date the channel by: it carries its render time (this suite's build or revalidation), not 1970.
    const built = new Date(/<lastBuildDate>([^<]+)<\/lastBuildDate>/.exec(rss)?.[1] ?? '').getTime()
    const updated = new Date(/<updated>([^<]+)<\/updated>/.exec(atom)?.[1] ?? '').getTime()
    for (const t of [built, updated]) {
      expect(t).toBeGreaterThan(Date.now() - 6 * 3600_000)
      expect(t).toBeLessThanOrEqual(Date.now() + 60_000)
    }
    if (hasPythonModule('feedparser')) {
      expect(await feedparserEntries(rss)).toMatchObject({ version: 'rss20', links: [] })
      expect(await feedparserEntries(atom)).toMatchObject({ version: 'atom10', links: [] })
    }
  })

  it('pages carry noindex, nofollow', async () => {
    const index = await fetchDom(`${blogUrl}/`)
    expectPageRules(index.doc, index.html, { canonical: `${blogUrl}/`, indexable: false })
    const post = await fetchDom(`${blogUrl}/posts/${SLUG}/`)
    expect(post.res.status).toBe(200)
    expectPageRules(post.doc, post.html, { canonical: `${blogUrl}/posts/${SLUG}/`, indexable: false })
  })
})
