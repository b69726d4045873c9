import { canonicalHref, metaContent, pageTitle } from './head-rules';
import type { Finding } from './rules';
import { BLOG_DESCRIPTION_MAX, BLOG_TITLE_MAX, PROVIDER_HOSTS, PROVIDER_LINK_REL } from '../../src/surfaces/shared/blog';

const FEED_TYPES = ['application/rss+xml', 'application/atom+xml'] as const;

export type BlogPageKind = 'index' | 'post';

/** JSON-LD `@type`s on a page (top-level and inside `@graph`); a script that does not parse counts as none. */
export function jsonLdTypes(doc: Document): string[] {
  const types: string[] = [];
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(s.textContent ?? '');
    } catch {
      continue;
    }
    const nodes = Array.isArray(data) ? data : [data, ...(((data as { '@graph'?: unknown[] })?.['@graph']) ?? [])];
    for (const node of nodes) {
      const t = (node as { '@type'?: string | string[] } | null)?.['@type'];
      if (t) types.push(...(Array.isArray(t) ? t : [t]));
    }
  }
  return types;
}

const REQUIRED_JSONLD: Record<BlogPageKind, string[]> = { index: ['WebPage', 'BreadcrumbList'], post: ['BlogPosting', 'BreadcrumbList'] };

const hostOf = (href: string, base: string): string | null => {
  try {
    return new URL(href, base).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
};

/** The blog's rendered-page rules (spec part (b)), for the blog index or a post. */
export function checkBlogPage(doc: Document, html: string, opts: { pageUrl: string; kind: BlogPageKind }): Finding[] {
  const findings: Finding[] = [];
  const blogPath = new URL(opts.pageUrl).pathname.startsWith('/blog/') ? '/blog' : '';

  const title = pageTitle(doc);
  if (!title || title.length > BLOG_TITLE_MAX) findings.push({ rule: 'blog-title-length', detail: `title has ${title.length} characters (1 to ${BLOG_TITLE_MAX})` });
  const description = metaContent(doc, 'meta[name="description" i]') ?? '';
  if (!description || description.length > BLOG_DESCRIPTION_MAX) {
    findings.push({ rule: 'blog-description-length', detail: `description has ${description.length} characters (1 to ${BLOG_DESCRIPTION_MAX})` });
  }
  const h1s = doc.querySelectorAll('h1').length;
  if (h1s !== 1) findings.push({ rule: 'blog-h1', detail: `${h1s} H1 elements (expected exactly 1)` });

  const canonical = canonicalHref(doc);
  if (canonical && !canonical.endsWith('/')) findings.push({ rule: 'canonical-trailing-slash', detail: `canonical ${canonical} has no trailing slash` });

  if (blogPath && html.includes('/blog/blog/')) findings.push({ rule: 'blog-base-path', detail: 'a URL on the page contains /blog/blog/' });
  if (blogPath) {
    for (const el of doc.querySelectorAll('script[src], link[rel~="stylesheet"], link[rel~="preload"], link[rel~="icon"]')) {
      const src = el.getAttribute('src') ?? el.getAttribute('href') ?? '';
      if (src.startsWith('/') && !src.startsWith('//') && !src.startsWith(`${blogPath}/`)) {
        findings.push({ rule: 'blog-asset-prefix', detail: `asset ${src} is not under ${blogPath}/` });
      }
    }
  }

  for (const type of FEED_TYPES) {
    if (!doc.querySelector(`link[rel~="alternate"][type="${type}"][href]`)) findings.push({ rule: 'blog-feed-links', detail: `no <link rel="alternate" type="${type}">` });
  }

  const ogImage = metaContent(doc, 'meta[property="og:image"]');
  const card = metaContent(doc, 'meta[name="twitter:card"]');
  const cardImage = metaContent(doc, 'meta[name="twitter:image"]');
  if (!ogImage || !card || !cardImage) {
    const missing = [!ogImage && 'og:image', !card && 'twitter:card', !cardImage && 'twitter:image'].filter(Boolean);
    findings.push({ rule: 'blog-social-card', detail: `missing ${missing.join(', ')}` });
  }

  const types = jsonLdTypes(doc);
  const missingTypes = REQUIRED_JSONLD[opts.kind].filter((t) => !types.includes(t));
  if (missingTypes.length) findings.push({ rule: 'blog-jsonld', detail: `JSON-LD lacks ${missingTypes.join(', ')} (has ${types.join(', ') || 'none'})` });

  findings.push(...checkProviderLinks(doc, opts.pageUrl));
  return findings;
}

/** Links to the providers (in content, footers and calls to action) carry `rel="nofollow noopener noreferrer"`. */
export function checkProviderLinks(doc: Document, pageUrl: string): Finding[] {
  const findings: Finding[] = [];
  for (const a of doc.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    const host = hostOf(href, pageUrl);
    if (!host || !PROVIDER_HOSTS.includes(host)) continue;
    const rel = new Set((a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean));
    if (!PROVIDER_LINK_REL.split(' ').every((t) => rel.has(t))) findings.push({ rule: 'social-rel', detail: `link to ${href} has rel="${a.getAttribute('rel') ?? ''}"` });
  }
  return findings;
}
