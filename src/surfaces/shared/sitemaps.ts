import { create } from 'xmlbuilder2';
import { childSitemapUrls, isIndexable, trimSlash, type SurfaceSite } from './site';
import { isAppRedirectSource } from './redirects';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** App routes that are never indexed (they exist for the app's own navigation). */
export const INTERNAL_APP_ROUTES: readonly string[] = ['/redirect'];

export interface UrlEntry {
  loc: string;
  /** W3C datetime; required in the app sitemap, optional elsewhere. */
  lastmod?: string;
}

export interface AppRoute {
  /** Path on the app host, e.g. `/` or `/weekly-race`. */
  path: string;
  /** When the route's content last changed. */
  lastmod: Date | string;
}

/** W3C datetime at seconds precision in UTC; throws on a date that does not parse (a route without a real lastmod is a bug). */
export function w3cDatetime(value: Date | string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error(`not a date: ${String(value)}`);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Like w3cDatetime, but undefined for a value that does not parse (where lastmod is optional). */
export function w3cDatetimeIfValid(value: Date | string): string | undefined {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : w3cDatetime(d);
}

// An empty document keeps its closing tag (`<urlset …></urlset>`), as the blog always wrote it.
const serialize = (root: ReturnType<typeof create>): string => root.end({ prettyPrint: true, allowEmptyTags: true }) + '\n';

/** sitemaps.org 0.9 `urlset` with `loc` and `lastmod` only (never `changefreq` or `priority`). */
export function renderUrlset(entries: readonly UrlEntry[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'urlset');
  for (const e of entries) {
    const url = root.ele('url');
    url.ele('loc').txt(e.loc);
    if (e.lastmod) url.ele('lastmod').txt(e.lastmod);
  }
  return serialize(root);
}

/** sitemaps.org 0.9 `sitemapindex` listing `loc` only (no index-level `lastmod`). */
export function renderSitemapIndex(sitemaps: readonly string[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'sitemapindex');
  for (const loc of sitemaps) root.ele('sitemap').ele('loc').txt(loc);
  return serialize(root);
}

/** `{app_url}/sitemap_index.xml`: the app, blog and docs sitemaps on mainnet; none elsewhere. */
export function buildSitemapIndex(site: SurfaceSite): string {
  return renderSitemapIndex(isIndexable(site) ? childSitemapUrls(site) : []);
}

const isUnder = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/** Whether an app path belongs in the app sitemap: not internal, not a legacy redirect, not another surface's. */
export function isIndexableAppPath(path: string, site: SurfaceSite): boolean {
  const bare = path.split(/[?#]/)[0];
  if (INTERNAL_APP_ROUTES.some((r) => isUnder(bare, r))) return false;
  if (isAppRedirectSource(bare)) return false;
  const app = new URL(`${site.appUrl}/`);
  for (const other of [site.blogUrl, site.docsUrl]) {
    const u = new URL(`${other}/`);
    if (u.host === app.host && isUnder(bare, trimSlash(u.pathname) || '/')) return false;
  }
  return bare.startsWith('/') && !bare.startsWith('//');
}

/** App sitemap entries: app-host canonical URLs with a required lastmod (none off mainnet). */
export function appSitemapEntries(site: SurfaceSite, routes: readonly AppRoute[]): UrlEntry[] {
  if (!isIndexable(site)) return [];
  const seen = new Set<string>();
  const entries: UrlEntry[] = [];
  for (const r of routes) {
    if (!isIndexableAppPath(r.path, site)) continue;
    const loc = `${site.appUrl}${r.path}`;
    if (seen.has(loc)) continue;
    seen.add(loc);
    entries.push({ loc, lastmod: w3cDatetime(r.lastmod) });
  }
  return entries;
}

export const buildAppSitemap = (site: SurfaceSite, routes: readonly AppRoute[]): string => renderUrlset(appSitemapEntries(site, routes));

/** House site sitemap: only `{house_url}/` on mainnet, nothing elsewhere. */
export function buildHouseSitemap(site: Pick<SurfaceSite, 'network'> & { houseUrl: string }, lastmod?: Date | string): string {
  if (!isIndexable(site)) return renderUrlset([]);
  return renderUrlset([{ loc: `${trimSlash(site.houseUrl)}/`, ...(lastmod ? { lastmod: w3cDatetime(lastmod) } : {}) }]);
}
