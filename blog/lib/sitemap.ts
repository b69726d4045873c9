const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

export interface SitemapEntry {
  loc: string
  lastmod?: string
}

/** sitemaps.org 0.9 urlset: loc and lastmod only (no changefreq, no priority). */
export function renderSitemap(entries: readonly SitemapEntry[]): string {
  const urls = entries
    .map((e) => `  <url>\n    <loc>${esc(e.loc)}</loc>\n${e.lastmod ? `    <lastmod>${esc(e.lastmod)}</lastmod>\n` : ''}  </url>\n`)
    .join('')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`
}

/** W3C datetime (seconds precision, UTC). */
export function w3cDate(iso: string): string | undefined {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * Mainnet sitemap: the blog root, then each published post with its `updatedAt`. The root's
 * lastmod is the newest post update; with no posts it has none (nothing on it has changed).
 */
export function sitemapEntries(
  posts: readonly { slug: string; updatedAt: string }[],
  canonical: (pathInBlog: string) => string,
): SitemapEntry[] {
  const newest = posts.map((p) => w3cDate(p.updatedAt)).filter((d): d is string => Boolean(d)).sort().at(-1)
  return [
    { loc: canonical('/'), ...(newest ? { lastmod: newest } : {}) },
    ...posts.map((p) => ({ loc: canonical(`/posts/${p.slug}/`), lastmod: w3cDate(p.updatedAt) })),
  ]
}
