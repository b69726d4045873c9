import { houseSitemapUrl, isIndexable, sitemapIndexUrl, type SurfaceSite } from './site';

/** Mainnet: allow all and advertise `sitemapUrl`. Elsewhere: block all, no sitemap directive. */
export function buildRobots(site: Pick<SurfaceSite, 'network'>, sitemapUrl: string): string {
  return isIndexable(site) ? `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n` : 'User-agent: *\nDisallow: /\n';
}

/** What a page's robots meta tag (and an `X-Robots-Tag`) says off mainnet. */
export const NON_MAINNET_ROBOTS = 'noindex, nofollow';

/** The app host's robots (also the blog's and docs'): the shared sitemap index. */
export const buildAppRobots = (site: Pick<SurfaceSite, 'network' | 'appUrl'>): string => buildRobots(site, sitemapIndexUrl(site));

/** The house site's robots: its own same-host sitemap. */
export const buildHouseRobots = (site: Pick<SurfaceSite, 'network'> & { houseUrl: string }): string => buildRobots(site, houseSitemapUrl(site.houseUrl));

export interface ParsedRobots {
  /** `Disallow: /` in the `User-agent: *` group. */
  blocksAll: boolean;
  sitemaps: string[];
}

/** Enough of robots.txt (RFC 9309) to judge these rules: the `*` group's root disallow and the sitemap lines. */
export function parseRobots(text: string): ParsedRobots {
  const sitemaps: string[] = [];
  let inStarGroup = false;
  let lastWasAgent = false;
  let blocksAll = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const [key, value] = [m[1].toLowerCase(), m[2].trim()];
    if (key === 'sitemap') {
      sitemaps.push(value);
      continue;
    }
    if (key === 'user-agent') {
      inStarGroup = (lastWasAgent && inStarGroup) || value === '*';
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (inStarGroup && key === 'disallow' && value === '/') blocksAll = true;
  }
  return { blocksAll, sitemaps };
}
