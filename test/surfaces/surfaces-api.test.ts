/** The API's own surfaces at the root, from src/surfaces, per network: `/sitemap_index.xml`, `/sitemap.xml`, `/robots.txt`, `/llms.txt` and the legacy routes' 301s. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSurfaces } from '../../scripts/surfaces-audit/audit';
import { APP_ROUTES } from '../../src/surfaces/shared/app-routes';
import { llmsLinks } from '../../src/surfaces/shared/llms';
import { parseRobots } from '../../src/surfaces/shared/robots';
import { readSitemap } from '../../scripts/surfaces-audit/sitemap-read';
import { startApi, type TestApi } from '../helpers/api';
import { startSurfacesSite, type FixtureSite } from '../fixtures/surfaces-site';
import { xmllint } from './surfaces-helpers';

const APP = 'https://platform.example';

describe('API surfaces on mainnet', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { NETWORK: 'mainnet', APP_URL: `${APP}/` } });
  });
  afterAll(async () => api?.close());

  it('/sitemap_index.xml lists exactly the app, blog and docs sitemaps, no lastmod, valid against the sitemaps.org XSD', async () => {
    const res = await fetch(`${api.url}/sitemap_index.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('x-robots-tag')).toBeNull();
    const xml = await res.text();
    const index = readSitemap(xml);
    expect(index.kind).toBe('sitemapindex');
    expect(index.entries.map((e) => e.loc)).toEqual([`${APP}/sitemap.xml`, `${APP}/blog/sitemap.xml`, `${APP}/docs/sitemap.xml`]);
    expect(index.entries.every((e) => e.lastmod === undefined && e.fields.join() === 'loc')).toBe(true);
    expect(() => xmllint(xml, 'siteindex-0.9.xsd')).not.toThrow();
    // The validator is real: a changefreq, which an index may not carry, fails it.
    expect(() => xmllint(xml.replace('</loc>', '</loc><changefreq>daily</changefreq>'), 'siteindex-0.9.xsd')).toThrow(/changefreq/);
  });

  it('/llms.txt links every surface with explicit markdown links and no bare URL', async () => {
    const res = await fetch(`${api.url}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await res.text();
    expect(body).toMatch(/^# Platform\n\n> /);
    const { links, bareUrls } = llmsLinks(body);
    expect(bareUrls).toEqual([]);
    expect(links.map((l) => l.url)).toEqual(expect.arrayContaining([`${APP}/`, `${APP}/blog/`, `${APP}/docs/`, `${APP}/sitemap_index.xml`]));
    expect(body).toContain(`- [Blog](${APP}/blog/)`);
  });

  it('/sitemap.xml is the app sitemap from the app-route table: app-host URLs, each with its lastmod, no internal route, valid against the XSD', async () => {
    const res = await fetch(`${api.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await res.text();
    const map = readSitemap(xml);
    expect(map.kind).toBe('urlset');
    expect(map.entries.map((e) => [e.loc, e.lastmod])).toEqual([
      [`${APP}/`, '2026-11-01T00:00:00Z'],
      [`${APP}/weekly-race`, '2026-11-01T00:00:00Z'],
      [`${APP}/bonus`, '2026-11-01T00:00:00Z'],
    ]);
    expect(APP_ROUTES.map((r) => r.path)).toContain('/redirect');
    expect(map.entries.every((e) => e.fields.join() === 'loc,lastmod')).toBe(true);
    expect(() => xmllint(xml, 'sitemap-0.9.xsd')).not.toThrow();
  });

  it('/robots.txt allows crawling and advertises the shared sitemap index', async () => {
    const res = await fetch(`${api.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(parseRobots(await res.text())).toEqual({ blocksAll: false, sitemaps: [`${APP}/sitemap_index.xml`] });
  });

  it('the legacy app routes answer 301 to their new path on the app origin, query kept, with or without a trailing slash', async () => {
    const cases: [string, string][] = [
      ['/lootbox', `${APP}/`],
      ['/roadmap/', `${APP}/`],
      ['/rewards?ref=mail', `${APP}/bonus?ref=mail`],
      ['/weekly-contest', `${APP}/weekly-race`],
      ['/weekly-contest/?week=3', `${APP}/weekly-race?week=3`],
    ];
    for (const [from, to] of cases) {
      const res = await fetch(`${api.url}${from}`, { redirect: 'manual' });
      expect([from, res.status, res.headers.get('location')]).toEqual([from, 301, to]);
    }
    expect((await fetch(`${api.url}/lootbox/more`, { redirect: 'manual' })).status).toBe(404);
  });

  it('both live at the root only: not under /api, and GET only', async () => {
    expect((await fetch(`${api.url}/api/sitemap_index.xml`)).status).toBe(404);
    expect((await fetch(`${api.url}/api/llms.txt`)).status).toBe(404);
    expect((await fetch(`${api.url}/sitemap_index.xml`, { method: 'POST' })).status).toBe(404);
    const head = await fetch(`${api.url}/llms.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

describe('API surfaces off mainnet, behind an edge that routes the root files and legacy routes to it', () => {
  let api: TestApi;
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSurfacesSite({ network: 'testnet' });
    api = await startApi({ env: { NETWORK: 'testnet', APP_URL: site.appUrl, HOUSE_URL: site.houseUrl } });
    site.routeToApi(api.url);
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it('the index lists no sitemap and both answers say noindex', async () => {
    const res = await fetch(`${api.url}/sitemap_index.xml`);
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const index = readSitemap(await res.text());
    expect(index).toEqual({ kind: 'sitemapindex', entries: [] });
    const llms = await fetch(`${api.url}/llms.txt`);
    expect(llms.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const body = await llms.text();
    expect(llmsLinks(body)).toEqual({ links: [], bareUrls: [] });
    expect(body).toContain('# Platform (testnet)');
  });

  it('the app sitemap lists nothing, robots blocks all crawling with no sitemap; the legacy routes still redirect', async () => {
    const map = await fetch(`${api.url}/sitemap.xml`);
    expect(map.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(readSitemap(await map.text())).toEqual({ kind: 'urlset', entries: [] });
    const robots = await fetch(`${api.url}/robots.txt`);
    expect(parseRobots(await robots.text())).toEqual({ blocksAll: true, sitemaps: [] });
    const legacy = await fetch(`${api.url}/rewards`, { redirect: 'manual' });
    expect([legacy.status, legacy.headers.get('location')]).toEqual([301, `${site.appUrl}/bonus`]);
  });

  it('the audit of the deployment, with the API serving the root files and legacy routes through the edge, finds nothing', async () => {
    const viaEdge = await (await fetch(`${site.appUrl}/llms.txt`)).text();
    expect(viaEdge).toBe(await (await fetch(`${api.url}/llms.txt`)).text());
    const report = await auditSurfaces({ ...site, timeoutMs: 5000 });
    expect(report.violations).toEqual([]);
  });
});
