import { readBlogSettings, type BlogSettings } from '../../cms/settings'
import { blogCanonical } from '../../src/surfaces/shared/blog'

export const SITE_NAME = 'Platform Blog'
export const INDEX_TITLE = 'Platform Blog: guides and product news'
export const INDEX_DESCRIPTION =
  'Guides to Platform games, quests, rewards and odds, plus product news and how the on-chain casino works.'
export const OG_IMAGE = { path: '/og-default.png', width: 1200, height: 630, alt: 'Platform Blog' }

export function site(): BlogSettings {
  return readBlogSettings()
}

/** Absolute canonical URL (trailing slash) for a path inside the blog, e.g. '/' or '/posts/x/'. */
export function canonical(pathInBlog: string): string {
  return blogCanonical(site().blogUrl, pathInBlog)
}

export function feedUrls(): { rss: string; atom: string } {
  const base = site().blogUrl
  return { rss: `${base}/rss.xml`, atom: `${base}/atom.xml` }
}

/** Absolute URL for a site path that already carries the /blog prefix (or an absolute URL). */
export function absoluteBlogAsset(pathOrUrl: string): string {
  if (/^https?:\/\//.test(pathOrUrl)) return pathOrUrl
  return `${site().blogUrl}${pathOrUrl.replace(/^\/blog(?=\/)/, '')}`
}
