import { isIndexable, trimSlash, type SurfaceSite } from './site';
import { renderUrlset, w3cDatetimeIfValid, type UrlEntry } from './sitemaps';

/** Longest blog title and meta description, in characters (the spec's "under 60" and "under 160"). */
export const BLOG_TITLE_MAX = 59;
export const BLOG_DESCRIPTION_MAX = 159;

/** Hosts of the chat, messaging and social providers whose links are never followed. */
export const PROVIDER_HOSTS: readonly string[] = ['discord.gg', 'discord.com', 't.me', 'telegram.me', 'x.com', 'twitter.com'];
export const PROVIDER_LINK_REL = 'nofollow noopener noreferrer';

/** A page's canonical URL under the blog root: always a trailing slash, except for files (`/rss.xml`). */
export function blogCanonical(blogUrl: string, pathInBlog: string): string {
  const p = pathInBlog.startsWith('/') ? pathInBlog : `/${pathInBlog}`;
  return `${trimSlash(blogUrl)}${p.endsWith('/') || /\.[a-z]+$/.test(p) ? p : `${p}/`}`;
}

export const blogPostPath = (slug: string): string => `/posts/${slug}/`;

export interface PublishedPostStamp {
  slug: string;
  /** When the post last changed; a value that does not parse gives the post no lastmod. */
  updatedAt: string;
}

/**
 * The blog sitemap on mainnet: the blog root, then each published post with its `updatedAt`. The
 * root's lastmod is the newest post update; with no posts it has none (nothing on it has changed).
 * Off mainnet it lists nothing.
 */
export function blogSitemapEntries(site: Pick<SurfaceSite, 'network' | 'blogUrl'>, posts: readonly PublishedPostStamp[]): UrlEntry[] {
  if (!isIndexable(site)) return [];
  const stamps = posts.map((p) => ({ loc: blogCanonical(site.blogUrl, blogPostPath(p.slug)), lastmod: w3cDatetimeIfValid(p.updatedAt) }));
  const newest = stamps.map((s) => s.lastmod).filter((d): d is string => Boolean(d)).sort().at(-1);
  return [
    { loc: blogCanonical(site.blogUrl, '/'), ...(newest ? { lastmod: newest } : {}) },
    ...stamps.map((s) => ({ loc: s.loc, ...(s.lastmod ? { lastmod: s.lastmod } : {}) })),
  ];
}

export const buildBlogSitemap = (site: Pick<SurfaceSite, 'network' | 'blogUrl'>, posts: readonly PublishedPostStamp[]): string =>
  renderUrlset(blogSitemapEntries(site, posts));
