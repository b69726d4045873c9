import { JSDOM } from 'jsdom';
import { SITEMAP_NS } from '../../src/surfaces/shared/sitemaps';

export interface ReadSitemap {
  kind: 'urlset' | 'sitemapindex';
  entries: { loc: string; lastmod?: string; fields: string[] }[];
}

/** Reads a sitemaps.org 0.9 `urlset` or `sitemapindex`; throws with the reason when it is neither. */
export function readSitemap(xml: string): ReadSitemap {
  let doc: Document;
  try {
    doc = new JSDOM(xml, { contentType: 'application/xml' }).window.document;
  } catch (err) {
    throw new Error(`not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
  const root = doc.documentElement;
  if (root.namespaceURI !== SITEMAP_NS || (root.localName !== 'urlset' && root.localName !== 'sitemapindex')) {
    throw new Error(`root element is {${root.namespaceURI ?? ''}}${root.localName}, not a sitemaps.org 0.9 urlset or sitemapindex`);
  }
  const item = root.localName === 'urlset' ? 'url' : 'sitemap';
  const entries = [...root.children]
    .filter((el) => el.namespaceURI === SITEMAP_NS && el.localName === item)
    .map((el) => {
      const child = (name: string) => [...el.children].find((c) => c.namespaceURI === SITEMAP_NS && c.localName === name)?.textContent?.trim();
      const lastmod = child('lastmod');
      return { loc: child('loc') ?? '', ...(lastmod !== undefined ? { lastmod } : {}), fields: [...el.children].map((c) => c.localName) };
    });
  return { kind: root.localName, entries };
}

/** W3C datetime as the sitemap protocol accepts it (a date, or a date and time with a zone). */
export const isW3cDatetime = (v: string): boolean =>
  /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/.test(v) && !Number.isNaN(new Date(v).getTime());
