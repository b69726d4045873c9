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

/** Posts on each page of the blog index (`/` then `/page/2/`, `/page/3/`, …). */
export const BLOG_INDEX_PAGE_SIZE = 50;

/** Path in the blog of an index page: page 1 is the blog root, never `/page/1/`. */
export const blogIndexPath = (page: number): string => (page <= 1 ? '/' : `/page/${page}/`);

/**
 * The page number a `/page/<n>/` segment names, or null for anything but a plain integer ≥ 2
 * (`1` redirects to the root; `02`, `2.0` or `x` are not pages).
 */
export function blogIndexPageNumber(segment: string): number | null {
  if (!/^[1-9][0-9]{0,5}$/.test(segment)) return null;
  const n = Number(segment);
  return n >= 2 ? n : null;
}

export interface BlogIndexLinks {
  canonical: string;
  prev: string | null;
  next: string | null;
}

/** Canonical (each page its own) and rel prev/next paths of index page `page` of `totalPages`. */
export function blogIndexLinks(page: number, totalPages: number): BlogIndexLinks {
  return {
    canonical: blogIndexPath(page),
    prev: page > 1 ? blogIndexPath(page - 1) : null,
    next: page < totalPages ? blogIndexPath(page + 1) : null,
  };
}
