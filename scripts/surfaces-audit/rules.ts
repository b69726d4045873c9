/** Every rule the surfaces follow, by id: the audit reports a violation as `<url>  <id>  <detail>`. */
export const RULES = {
  fetch: 'the surface answers 200 within the timeout',
  'sitemap-xml': 'a sitemap is a well-formed sitemaps.org 0.9 document',
  'index-inventory': 'the sitemap index lists exactly the app, blog and docs sitemaps',
  'index-lastmod': 'the sitemap index has no index-level lastmod',
  'sitemap-fields': 'sitemap URLs carry no changefreq or priority',
  'app-sitemap-host': 'the app sitemap lists only app-host canonical URLs',
  'app-sitemap-lastmod': 'each app sitemap URL has a lastmod',
  'app-sitemap-internal': 'internal app routes (such as /redirect) are not in the app sitemap',
  'sitemap-scope': 'the blog and docs sitemaps list only URLs under their own root',
  'house-sitemap': 'the house sitemap lists only {house_url}/',
  'robots-allow': 'mainnet robots allows crawling',
  'robots-sitemap': 'mainnet robots advertises its sitemap (the shared index; the house site its own)',
  'nonmainnet-robots': 'non-mainnet robots blocks all crawling and names no sitemap',
  'nonmainnet-sitemap-urls': 'non-mainnet sitemaps list no URLs',
  'llms-links': '/llms.txt uses explicit markdown links',
  'head-title': 'a page has exactly one title',
  'head-description': 'a page has exactly one meta description',
  'head-canonical': 'a page has exactly one canonical link',
  'head-robots': 'a page has exactly one robots meta tag',
  'robots-meta': 'mainnet pages are indexable; non-mainnet pages say noindex, nofollow',
  'canonical-self': "a listed page's canonical is its listed URL",
  'canonical-trailing-slash': 'blog and docs canonical URLs end with a slash',
  'blog-title-length': 'a blog title is under 60 characters',
  'blog-description-length': 'a blog meta description is under 160 characters',
  'blog-h1': 'a blog page has exactly one H1',
  'blog-base-path': 'blog links never duplicate the base path (/blog/blog/)',
  'blog-asset-prefix': 'blog static assets are under /blog',
  'blog-feed-links': 'blog pages link the RSS and Atom feeds (rel="alternate", feed MIME types)',
  'blog-social-card': 'blog pages carry Open Graph and social-card image metadata',
  'blog-jsonld': 'the blog index has WebPage and BreadcrumbList JSON-LD, a post BlogPosting',
  'social-rel': 'links to the chat, messaging and social providers have rel="nofollow noopener noreferrer"',
  'redirect-route': 'legacy app routes redirect with 301 to their new path',
  'redirect-host': 'www, legacy network and legacy docs hosts redirect with 301, path kept',
} as const;

export type RuleId = keyof typeof RULES;

/** One broken rule on one URL. */
export interface Violation {
  rule: RuleId;
  url: string;
  detail: string;
}

/** A rule broken inside one document (the caller knows the URL). */
export interface Finding {
  rule: RuleId;
  detail: string;
}

export const at = (url: string, findings: readonly Finding[]): Violation[] => findings.map((f) => ({ ...f, url }));
