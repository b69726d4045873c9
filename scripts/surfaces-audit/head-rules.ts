import type { Finding } from './rules';
import { NON_MAINNET_ROBOTS } from '../../src/surfaces/shared/robots';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** `<title>` elements of the HTML document (an SVG's `<title>` is not one). */
const htmlTitles = (doc: Document): Element[] => [...doc.querySelectorAll('title')].filter((t) => t.namespaceURI === HTML_NS);

const robotsTokens = (content: string): string[] => content.toLowerCase().split(',').map((t) => t.trim()).filter(Boolean);

/** What a page's head must hold on every surface: one title, description, canonical and robots tag, and robots by network. */
export function checkHead(doc: Document, opts: { indexable: boolean; expectedCanonical?: string }): Finding[] {
  const findings: Finding[] = [];
  const exactlyOne = (rule: Finding['rule'], what: string, n: number) => {
    if (n !== 1) findings.push({ rule, detail: `${n} ${what} (expected exactly 1)` });
  };
  exactlyOne('head-title', '<title> elements', htmlTitles(doc).length);
  const descriptions = doc.querySelectorAll('meta[name="description" i]');
  exactlyOne('head-description', 'meta descriptions', descriptions.length);
  const canonicals = doc.querySelectorAll('link[rel~="canonical" i]');
  exactlyOne('head-canonical', 'canonical links', canonicals.length);
  const robots = doc.querySelectorAll('meta[name="robots" i]');
  exactlyOne('head-robots', 'robots meta tags', robots.length);

  const tokens = [...robots].flatMap((m) => robotsTokens(m.getAttribute('content') ?? ''));
  if (opts.indexable) {
    const blocking = tokens.filter((t) => t === 'noindex' || t === 'nofollow' || t === 'none');
    if (blocking.length) findings.push({ rule: 'robots-meta', detail: `mainnet page says "${blocking.join(', ')}"` });
  } else if (!(tokens.includes('noindex') && tokens.includes('nofollow'))) {
    findings.push({ rule: 'robots-meta', detail: `non-mainnet page robots is "${tokens.join(', ')}" (expected "${NON_MAINNET_ROBOTS}")` });
  }

  const canonical = canonicals[0]?.getAttribute('href');
  if (opts.expectedCanonical && canonicals.length === 1 && canonical !== opts.expectedCanonical) {
    findings.push({ rule: 'canonical-self', detail: `canonical is ${canonical ?? '(empty)'}, listed as ${opts.expectedCanonical}` });
  }
  return findings;
}

export const pageTitle = (doc: Document): string => htmlTitles(doc)[0]?.textContent?.trim() ?? '';
export const metaContent = (doc: Document, selector: string): string | null => doc.querySelector(selector)?.getAttribute('content') ?? null;
export const canonicalHref = (doc: Document): string | null => doc.querySelector('link[rel~="canonical" i]')?.getAttribute('href') ?? null;
