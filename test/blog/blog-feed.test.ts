/** An empty blog's feeds and sitemap tell the truth: no epoch dates, no root lastmod. */
import { describe, expect, it } from 'vitest'
import { feedContent } from '../../blog/lib/feed-content'
import { renderAtom, renderRss, xmlEscape } from '../../blog/lib/feed-xml'
import { blogSitemapEntries, buildBlogSitemap } from '../../src/surfaces/shared/blog'

const site = { network: 'mainnet', blogUrl: 'https://app.example.test/blog' }

describe('empty blog', () => {
  it('feeds are dated at render time, never 1970', () => {
    const now = new Date('2026-11-23T10:00:00Z')
    const { channel, items } = feedContent([], now)
    expect(items).toEqual([])
    expect(renderRss(channel, items)).toContain('<lastBuildDate>Mon, 23 Nov 2026 10:00:00 GMT</lastBuildDate>')
    expect(renderAtom(channel, items)).toContain('<updated>2026-11-23T10:00:00.000Z</updated>')
  })

  it('the sitemap root has no lastmod until a post exists', () => {
    expect(blogSitemapEntries(site, [])).toEqual([{ loc: 'https://app.example.test/blog/' }])
    expect(buildBlogSitemap(site, [])).not.toContain('lastmod')
    const one = blogSitemapEntries(site, [{ slug: 'a-post', updatedAt: '2026-11-20T08:30:00.123Z' }])
    expect(one).toEqual([
      { loc: 'https://app.example.test/blog/', lastmod: '2026-11-20T08:30:00Z' },
      { loc: 'https://app.example.test/blog/posts/a-post/', lastmod: '2026-11-20T08:30:00Z' },
    ])
  })
})

describe('xmlEscape', () => {
  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xmlEscape(`<a href="x">'&'</a>]]>\u0000\u0008\u001f\uFFFE\uD800ok\u{1F600}`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;]]&gt;ok\u{1F600}',
    )
  })
})
