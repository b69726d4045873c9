/** The rules as code (src/surfaces): every builder per network, the redirect tables, the head checker, the settings. */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { checkHead } from '../../scripts/surfaces-audit/head-rules';
import { buildLlmsTxt, llmsLinks } from '../../src/surfaces/shared/llms';
import { APP_ROUTE_REDIRECTS, resolveRedirect } from '../../src/surfaces/shared/redirects';
import { buildAppRobots, buildHouseRobots, NON_MAINNET_ROBOTS, parseRobots } from '../../src/surfaces/shared/robots';
import { blogCanonical, buildBlogSitemap } from '../../src/surfaces/shared/blog';
import { buildAppSitemap, buildHouseSitemap, buildSitemapIndex, w3cDatetime } from '../../src/surfaces/shared/sitemaps';
import { readSitemap } from '../../scripts/surfaces-audit/sitemap-read';
import { xmllint } from './surfaces-helpers';

const mainnet = {
  network: 'mainnet',
  appUrl: 'https://platform.example',
  blogUrl: 'https://platform.example/blog',
  docsUrl: 'https://platform.example/docs',
  houseUrl: 'https://house.example',
};
const ROUTES = ['/', '/weekly-race', '/bonus', '/redirect', '/redirect/deep', '/rewards', '/lootbox/', '/blog/posts/x/', '/docs/intro', '/bonus'].map((path, i) => ({
  path,
  lastmod: new Date(Date.UTC(2026, 0, 1 + i)),
}));

describe('surface rules on mainnet', () => {
  it('app sitemap: app-host canonical routes only, each with lastmod, no changefreq/priority, valid against the XSD', () => {
    const xml = buildAppSitemap(mainnet, ROUTES);
    const map = readSitemap(xml);
    expect(map.entries).toEqual([
      { loc: 'https://platform.example/', lastmod: '2026-01-01T00:00:00Z', fields: ['loc', 'lastmod'] },
      { loc: 'https://platform.example/weekly-race', lastmod: '2026-01-02T00:00:00Z', fields: ['loc', 'lastmod'] },
      { loc: 'https://platform.example/bonus', lastmod: '2026-01-03T00:00:00Z', fields: ['loc', 'lastmod'] },
    ]);
    xmllint(xml, 'sitemap-0.9.xsd');
    expect(() => buildAppSitemap(mainnet, [{ path: '/x', lastmod: 'not a date' }])).toThrow(/not a date/);
  });

  it('sitemap index and house sitemap validate; robots advertise the right sitemap', () => {
    xmllint(buildSitemapIndex(mainnet), 'siteindex-0.9.xsd');
    const house = buildHouseSitemap(mainnet, '2026-02-01');
    xmllint(house, 'sitemap-0.9.xsd');
    expect(readSitemap(house).entries.map((e) => e.loc)).toEqual(['https://house.example/']);
    expect(parseRobots(buildAppRobots(mainnet))).toEqual({ blocksAll: false, sitemaps: ['https://platform.example/sitemap_index.xml'] });
    expect(parseRobots(buildHouseRobots(mainnet))).toEqual({ blocksAll: false, sitemaps: ['https://house.example/sitemap.xml'] });
  });

  it('blog sitemap: the root dated by the newest post, then each post; the same bytes the blog wrote by hand before', () => {
    const xml = buildBlogSitemap(mainnet, [
      { slug: 'odds-explained', updatedAt: '2026-03-02T09:15:00.250Z' },
      { slug: 'a&b', updatedAt: 'not a date' },
    ]);
    xmllint(xml, 'sitemap-0.9.xsd');
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '  <url>\n    <loc>https://platform.example/blog/</loc>\n    <lastmod>2026-03-02T09:15:00Z</lastmod>\n  </url>\n' +
        '  <url>\n    <loc>https://platform.example/blog/posts/odds-explained/</loc>\n    <lastmod>2026-03-02T09:15:00Z</lastmod>\n  </url>\n' +
        '  <url>\n    <loc>https://platform.example/blog/posts/a&amp;b/</loc>\n  </url>\n</urlset>\n',
    );
    expect(blogCanonical('https://platform.example/blog/', 'posts/x')).toBe('https://platform.example/blog/posts/x/');
    expect(blogCanonical('https://platform.example/blog', '/rss.xml')).toBe('https://platform.example/blog/rss.xml');
  });

  it('redirect tables: legacy routes 301 on the app host, www / legacy network / legacy docs hosts keep the path', () => {
    const hosts = { legacyNetworkUrl: 'https://mainnet.platform.example', docsLegacyUrl: 'https://docs.platform.example' };
    const cases: [string, string | undefined][] = [
      ['https://platform.example/lootbox', 'https://platform.example/'],
      ['https://platform.example/roadmap/', 'https://platform.example/'],
      ['https://platform.example/rewards?ref=a', 'https://platform.example/bonus?ref=a'],
      ['https://platform.example/weekly-contest', 'https://platform.example/weekly-race'],
      ['https://www.platform.example/weekly-race?x=1', 'https://platform.example/weekly-race?x=1'],
      ['https://mainnet.platform.example/bonus', 'https://platform.example/bonus'],
      ['https://docs.platform.example/guides/start', 'https://platform.example/docs/guides/start'],
      ['https://platform.example/bonus', undefined],
      ['https://platform.example/rewards/extra', undefined],
      ['https://elsewhere.example/lootbox', undefined],
    ];
    for (const [from, to] of cases) {
      expect(resolveRedirect(from, mainnet, hosts), from).toEqual(to === undefined ? undefined : { status: 301, location: to });
    }
    expect(Object.keys(APP_ROUTE_REDIRECTS).sort()).toEqual(['/lootbox', '/rewards', '/roadmap', '/weekly-contest']);
  });

  it('llms.txt: explicit markdown links only', () => {
    const { links, bareUrls } = llmsLinks(buildLlmsTxt(mainnet));
    expect(bareUrls).toEqual([]);
    expect(links.length).toBeGreaterThanOrEqual(4);
    expect(llmsLinks('see https://platform.example/ and [x](https://platform.example/y)')).toEqual({
      links: [{ text: 'x', url: 'https://platform.example/y' }],
      bareUrls: ['https://platform.example/'],
    });
  });

  it('head checker: exactly one of each tag; mainnet indexable, non-mainnet noindex, nofollow', () => {
    const doc = (head: string) => new JSDOM(`<!doctype html><html><head>${head}</head><body><svg><title>i</title></svg></body></html>`).window.document;
    const good = '<title>T</title><meta name="description" content="D"><link rel="canonical" href="https://platform.example/"><meta name="robots" content="index, follow">';
    expect(checkHead(doc(good), { indexable: true, expectedCanonical: 'https://platform.example/' })).toEqual([]);
    expect(checkHead(doc(good.replace('index, follow', NON_MAINNET_ROBOTS)), { indexable: false })).toEqual([]);
    expect(checkHead(doc(good), { indexable: false }).map((f) => f.rule)).toEqual(['robots-meta']);
    expect(checkHead(doc(good.replace('index, follow', 'noindex')), { indexable: true }).map((f) => f.rule)).toEqual(['robots-meta']);
    const doubled = `${good}<title>U</title><meta name="description" content="E">`;
    expect(checkHead(doc(doubled), { indexable: true }).map((f) => f.rule)).toEqual(['head-title', 'head-description']);
    expect(checkHead(doc('<title>T</title>'), { indexable: true }).map((f) => f.rule)).toEqual(['head-description', 'head-canonical', 'head-robots']);
  });

  it('w3cDatetime: seconds precision in UTC', () => {
    expect(w3cDatetime('2026-03-04T05:06:07.891+02:00')).toBe('2026-03-04T03:06:07Z');
  });
});

describe('non-mainnet: every surface built by the rules blocks robots and lists no sitemap URLs', () => {
  for (const network of ['testnet', 'devnet', 'localnet']) {
    it(network, () => {
      const site = { ...mainnet, network };
      expect(readSitemap(buildSitemapIndex(site))).toEqual({ kind: 'sitemapindex', entries: [] });
      expect(readSitemap(buildAppSitemap(site, ROUTES))).toEqual({ kind: 'urlset', entries: [] });
      expect(readSitemap(buildHouseSitemap(site, '2026-02-01'))).toEqual({ kind: 'urlset', entries: [] });
      expect(buildBlogSitemap(site, [{ slug: 'a-post', updatedAt: '2026-03-02T09:15:00Z' }])).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
      );
      expect(parseRobots(buildAppRobots(site))).toEqual({ blocksAll: true, sitemaps: [] });
      expect(parseRobots(buildHouseRobots(site))).toEqual({ blocksAll: true, sitemaps: [] });
      expect(llmsLinks(buildLlmsTxt(site))).toEqual({ links: [], bareUrls: [] });
    });
  }
});

describe('settings', () => {
  it('DOCS_URL defaults to APP_URL/docs, HOUSE_URL is optional; both trimmed', () => {
    const base = { envDir: '/nonexistent' };
    expect(loadConfig({ ...base, env: { APP_URL: 'https://platform.example/' } }).surfaces).toEqual({
      network: 'testnet',
      appUrl: 'https://platform.example',
      blogUrl: 'https://platform.example/blog',
      docsUrl: 'https://platform.example/docs',
      houseUrl: undefined,
    });
    const c = loadConfig({ ...base, env: { APP_URL: 'https://platform.example', DOCS_URL: 'https://docs.platform.example/', HOUSE_URL: 'https://house.example/' } });
    expect(c.surfaces).toMatchObject({ docsUrl: 'https://docs.platform.example', houseUrl: 'https://house.example' });
    expect(() => loadConfig({ ...base, env: { HOUSE_URL: 'not a url' } })).toThrow(/HOUSE_URL/);
  });
});
