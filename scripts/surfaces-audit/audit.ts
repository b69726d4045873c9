import { JSDOM } from 'jsdom';
import { checkBlogPage } from './blog-rules';
import { createFetcher, type ConnectTo, type Fetched, type Fetcher } from './fetcher';
import { canonicalHref, checkHead } from './head-rules';
import { llmsLinks } from '../../src/surfaces/shared/llms';
import { APP_ROUTE_REDIRECTS, hostRedirects, REDIRECT_STATUS, type LegacyHosts } from '../../src/surfaces/shared/redirects';
import { parseRobots } from '../../src/surfaces/shared/robots';
import { RULES, type RuleId, type Violation } from './rules';
import { childSitemapUrls, houseSitemapUrl, isIndexable, sitemapIndexUrl, surfaceSite, type SurfaceSite } from '../../src/surfaces/shared/site';
import { isIndexableAppPath, INTERNAL_APP_ROUTES } from '../../src/surfaces/shared/sitemaps';
import { isW3cDatetime, readSitemap, type ReadSitemap } from './sitemap-read';

export interface AuditOptions extends SurfaceSite, LegacyHosts {
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Per request, including the body (default 10 s). */
  timeoutMs?: number;
  /** Public origin → origin to contact instead (curl's `--connect-to`); reports keep public URLs. */
  connectTo?: ConnectTo;
}

export interface AuditReport {
  network: string;
  violations: Violation[];
  /** Violations per rule, every rule listed (0 when it held). */
  summary: Record<RuleId, number>;
  /** URLs requested. */
  requests: number;
}

type Surface = 'app' | 'blog' | 'docs' | 'house';
interface Page {
  url: string;
  surface: Surface;
}

/** Crawls one deployment's surfaces and reports every broken rule (scripts/surfaces-audit/rules.ts). */
export async function auditSurfaces(options: AuditOptions): Promise<AuditReport> {
  const site = surfaceSite(options);
  const fetcher = countingFetcher(createFetcher({ concurrency: options.concurrency ?? 4, timeoutMs: options.timeoutMs ?? 10_000, userAgent: 'platform-surfaces-audit/1', connectTo: options.connectTo }));
  const violations: Violation[] = [];
  const report = (rule: RuleId, url: string, detail: string) => violations.push({ rule, url, detail });
  const ctx: Ctx = { site, indexable: isIndexable(site), fetcher, report };

  const [pages] = await Promise.all([
    auditSitemaps(ctx),
    auditRobots(ctx),
    auditLlms(ctx),
    auditRouteRedirects(ctx),
    auditHostRedirects(ctx, options),
  ]);
  const roots: Page[] = [
    { url: `${site.appUrl}/`, surface: 'app' },
    { url: `${site.blogUrl}/`, surface: 'blog' },
    { url: `${site.docsUrl}/`, surface: 'docs' },
    ...(site.houseUrl ? [{ url: `${site.houseUrl}/`, surface: 'house' as const }] : []),
  ];
  const unique = new Map<string, Page>();
  for (const p of [...roots, ...pages]) if (!unique.has(p.url)) unique.set(p.url, p);
  await Promise.all([...unique.values()].map((p) => auditPage(ctx, p)));

  const summary = Object.fromEntries(Object.keys(RULES).map((r) => [r, 0])) as Record<RuleId, number>;
  for (const v of violations) summary[v.rule]++;
  violations.sort((a, b) => a.url.localeCompare(b.url) || a.rule.localeCompare(b.rule));
  return { network: site.network, violations, summary, requests: fetcher.count };
}

interface Ctx {
  site: SurfaceSite;
  indexable: boolean;
  fetcher: Fetcher;
  report(rule: RuleId, url: string, detail: string): void;
}

function countingFetcher(inner: Fetcher): Fetcher & { count: number } {
  const f = { count: 0, get: (url: string) => (f.count++, inner.get(url)) };
  return f;
}

/** The answer when it is a 200, else undefined after reporting `fetch`. */
async function get200(ctx: Ctx, url: string): Promise<(Fetched & { ok: true }) | undefined> {
  const r = await ctx.fetcher.get(url);
  if (!r.ok) ctx.report('fetch', url, r.error);
  else if (r.status !== 200) ctx.report('fetch', url, `HTTP ${r.status}${r.headers.get('location') ? ` → ${r.headers.get('location')}` : ''}`);
  else return r;
  return undefined;
}

async function fetchSitemap(ctx: Ctx, url: string): Promise<ReadSitemap | undefined> {
  const r = await get200(ctx, url);
  if (!r) return undefined;
  try {
    return readSitemap(r.body);
  } catch (err) {
    ctx.report('sitemap-xml', url, (err as Error).message);
    return undefined;
  }
}

function expectKind(ctx: Ctx, url: string, map: ReadSitemap, kind: ReadSitemap['kind']): boolean {
  if (map.kind === kind) return true;
  ctx.report('sitemap-xml', url, `is a ${map.kind}, expected a ${kind}`);
  return false;
}

/** The shared index, the three child sitemaps and the house sitemap; returns the pages they list. */
async function auditSitemaps(ctx: Ctx): Promise<Page[]> {
  const { site } = ctx;
  const indexUrl = sitemapIndexUrl(site);
  const [appMap, blogMap, docsMap] = childSitemapUrls(site);
  const [index, ...children] = await Promise.all([indexUrl, appMap, blogMap, docsMap].map((u) => fetchSitemap(ctx, u)));
  if (index && expectKind(ctx, indexUrl, index, 'sitemapindex')) {
    const listed = index.entries.map((e) => e.loc);
    if (!ctx.indexable) {
      if (listed.length) ctx.report('nonmainnet-sitemap-urls', indexUrl, `lists ${listed.length} sitemaps: ${listed.join(' ')}`);
    } else {
      const expected = [appMap, blogMap, docsMap];
      const missing = expected.filter((u) => !listed.includes(u));
      const extra = listed.filter((u, i) => !expected.includes(u) || listed.indexOf(u) !== i);
      if (missing.length || extra.length) {
        ctx.report('index-inventory', indexUrl, [missing.length && `missing ${missing.join(' ')}`, extra.length && `unexpected ${extra.join(' ')}`].filter(Boolean).join('; '));
      }
    }
    const dated = index.entries.filter((e) => e.lastmod !== undefined);
    if (dated.length) ctx.report('index-lastmod', indexUrl, `lastmod on ${dated.map((e) => e.loc).join(' ')}`);
  }

  const pages: Page[] = [];
  const surfaces: [Surface, string, ReadSitemap | undefined][] = [
    ['app', appMap, children[0]],
    ['blog', blogMap, children[1]],
    ['docs', docsMap, children[2]],
  ];
  if (site.houseUrl) surfaces.push(['house', houseSitemapUrl(site.houseUrl), await fetchSitemap(ctx, houseSitemapUrl(site.houseUrl))]);
  for (const [surface, url, map] of surfaces) {
    if (!map || !expectKind(ctx, url, map, 'urlset')) continue;
    checkUrlset(ctx, surface, url, map);
    if (ctx.indexable) pages.push(...map.entries.filter((e) => e.loc).map((e) => ({ url: e.loc, surface })));
  }
  return pages;
}

function checkUrlset(ctx: Ctx, surface: Surface, url: string, map: ReadSitemap): void {
  const { site } = ctx;
  const locs = map.entries.map((e) => e.loc);
  if (!ctx.indexable && locs.length) ctx.report('nonmainnet-sitemap-urls', url, `lists ${locs.length} URLs, first ${locs[0]}`);
  for (const e of map.entries) {
    const extra = e.fields.filter((f) => f === 'changefreq' || f === 'priority');
    if (extra.length) ctx.report('sitemap-fields', e.loc || url, `has ${extra.join(', ')} (in ${url})`);
  }
  if (!ctx.indexable) return;
  if (surface === 'house') {
    const expected = `${site.houseUrl}/`;
    if (locs.length !== 1 || locs[0] !== expected) ctx.report('house-sitemap', url, `lists ${locs.join(' ') || 'nothing'} (expected only ${expected})`);
    return;
  }
  if (surface !== 'app') {
    const root = `${surface === 'blog' ? site.blogUrl : site.docsUrl}/`;
    for (const loc of locs) if (!loc.startsWith(root)) ctx.report('sitemap-scope', loc, `listed in ${url}, outside ${root}`);
    return;
  }
  const app = new URL(site.appUrl);
  for (const e of map.entries) {
    let u: URL | undefined;
    try {
      u = new URL(e.loc);
    } catch {
      // reported below as not an app URL
    }
    if (u && u.origin === app.origin && INTERNAL_APP_ROUTES.some((r) => u.pathname === r || u.pathname.startsWith(`${r}/`))) {
      ctx.report('app-sitemap-internal', e.loc, `internal route listed in ${url}`);
    } else if (!u || u.origin !== app.origin || !isIndexableAppPath(`${u.pathname}${u.search}`, site)) {
      ctx.report('app-sitemap-host', e.loc, `listed in ${url}, not an app-host canonical URL`);
    }
    if (e.lastmod === undefined || !isW3cDatetime(e.lastmod)) ctx.report('app-sitemap-lastmod', e.loc, e.lastmod === undefined ? 'no lastmod' : `lastmod "${e.lastmod}" is not a W3C datetime`);
  }
}

async function auditRobots(ctx: Ctx): Promise<void> {
  const { site } = ctx;
  const index = sitemapIndexUrl(site);
  const files = new Map<string, string>([
    [`${new URL(site.appUrl).origin}/robots.txt`, index],
    [`${site.blogUrl}/robots.txt`, index],
    [`${new URL(site.docsUrl).origin}/robots.txt`, index],
  ]);
  if (site.houseUrl) files.set(`${new URL(site.houseUrl).origin}/robots.txt`, houseSitemapUrl(site.houseUrl));
  await Promise.all(
    [...files].map(async ([url, sitemap]) => {
      const r = await get200(ctx, url);
      if (!r) return;
      const robots = parseRobots(r.body);
      if (!ctx.indexable) {
        if (!robots.blocksAll || robots.sitemaps.length) {
          ctx.report('nonmainnet-robots', url, [!robots.blocksAll && 'does not disallow /', robots.sitemaps.length && `names ${robots.sitemaps.join(' ')}`].filter(Boolean).join('; '));
        }
        return;
      }
      if (robots.blocksAll) ctx.report('robots-allow', url, 'disallows / for every user agent');
      const foreign = robots.sitemaps.filter((s) => s !== sitemap);
      if (!robots.sitemaps.includes(sitemap) || foreign.length) {
        ctx.report('robots-sitemap', url, `advertises ${robots.sitemaps.join(' ') || 'no sitemap'} (expected ${sitemap})`);
      }
    }),
  );
}

async function auditLlms(ctx: Ctx): Promise<void> {
  const url = `${ctx.site.appUrl}/llms.txt`;
  const r = await get200(ctx, url);
  if (!r) return;
  const { links, bareUrls } = llmsLinks(r.body);
  if (bareUrls.length) ctx.report('llms-links', url, `bare URLs: ${bareUrls.join(' ')}`);
  if (ctx.indexable && !links.length) ctx.report('llms-links', url, 'no markdown links');
  if (!ctx.indexable && links.length) ctx.report('nonmainnet-sitemap-urls', url, `links ${links.length} URLs off mainnet`);
}

/** Where a redirect answer points, absolute (a relative Location resolves against the request). */
function redirectOf(r: Fetched & { ok: true }): { status: number; location: string | null } {
  const loc = r.headers.get('location');
  return { status: r.status, location: loc === null ? null : new URL(loc, r.url).href };
}

async function expectRedirect(ctx: Ctx, rule: RuleId, from: string, to: string): Promise<void> {
  const r = await ctx.fetcher.get(from);
  if (!r.ok) return ctx.report('fetch', from, r.error);
  const { status, location } = redirectOf(r);
  if (status !== REDIRECT_STATUS || location !== new URL(to).href) {
    ctx.report(rule, from, `HTTP ${status}${location ? ` → ${location}` : ''} (expected ${REDIRECT_STATUS} → ${to})`);
  }
}

async function auditRouteRedirects(ctx: Ctx): Promise<void> {
  const origin = new URL(ctx.site.appUrl).origin;
  await Promise.all(Object.entries(APP_ROUTE_REDIRECTS).map(([from, to]) => expectRedirect(ctx, 'redirect-route', `${origin}${from}`, `${origin}${to}`)));
}

/** A deep path with a query shows the path is kept. */
export const HOST_REDIRECT_PROBE_PATH = '/weekly-race/?from=surfaces-audit';

async function auditHostRedirects(ctx: Ctx, hosts: LegacyHosts): Promise<void> {
  const given = { www: hosts.wwwUrl, 'legacy-network-host': hosts.legacyNetworkUrl, 'docs-legacy-host': hosts.docsLegacyUrl };
  const table = hostRedirects(ctx.site, hosts).filter((h) => given[h.kind]);
  await Promise.all(table.map((h) => expectRedirect(ctx, 'redirect-host', `${h.from}${HOST_REDIRECT_PROBE_PATH}`, `${h.to}${HOST_REDIRECT_PROBE_PATH}`)));
}

async function auditPage(ctx: Ctx, page: Page): Promise<void> {
  const r = await get200(ctx, page.url);
  if (!r) return;
  const doc = new JSDOM(r.body).window.document;
  for (const f of checkHead(doc, { indexable: ctx.indexable, expectedCanonical: page.url })) ctx.report(f.rule, page.url, f.detail);
  if (page.surface === 'blog') {
    const kind = page.url === `${ctx.site.blogUrl}/` ? 'index' : 'post';
    for (const f of checkBlogPage(doc, r.body, { pageUrl: page.url, kind })) ctx.report(f.rule, page.url, f.detail);
  }
  if (page.surface === 'docs' && canonicalHref(doc) === ctx.site.docsUrl) ctx.report('canonical-trailing-slash', page.url, `canonical ${ctx.site.docsUrl} has no trailing slash`);
}
