/** The API's own surfaces: `/sitemap_index.xml` and `/llms.txt` at the root, from src/surfaces, per network. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSurfaces } from '../../src/surfaces/audit';
import { llmsLinks } from '../../src/surfaces/shared/llms';
import { readSitemap } from '../../src/surfaces/sitemap-read';
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

  it('both live at the root only: not under /api, and GET only', async () => {
    expect((await fetch(`${api.url}/api/sitemap_index.xml`)).status).toBe(404);
    expect((await fetch(`${api.url}/api/llms.txt`)).status).toBe(404);
    expect((await fetch(`${api.url}/sitemap_index.xml`, { method: 'POST' })).status).toBe(404);
    const head = await fetch(`${api.url}/llms.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

describe('API surfaces off mainnet, behind an edge that routes the two paths to it', () => {
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

  it('the audit of the deployment, with the API serving the index and llms.txt through the edge, finds nothing', async () => {
    const viaEdge = await (await fetch(`${site.appUrl}/llms.txt`)).text();
    expect(viaEdge).toBe(await (await fetch(`${api.url}/llms.txt`)).text());
    const report = await auditSurfaces({ ...site, timeoutMs: 5000 });
    expect(report.violations).toEqual([]);
  });
});
