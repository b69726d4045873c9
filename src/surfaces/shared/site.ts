/** The public web surfaces one deployment has, and the network that decides whether they are indexable. */
export interface SurfaceSite {
  network: string;
  /** Roots without a trailing slash, e.g. `https://platform.example`, `https://platform.example/blog`. */
  appUrl: string;
  blogUrl: string;
  docsUrl: string;
  /** The secondary (house) site; absent when the deployment has none. */
  houseUrl?: string;
}

export const isIndexable = (site: Pick<SurfaceSite, 'network'>): boolean => site.network === 'mainnet';

export const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** A surface root with every URL trimmed (callers may pass `https://x/blog/`). */
export function surfaceSite(input: SurfaceSite): SurfaceSite {
  return {
    network: input.network,
    appUrl: trimSlash(input.appUrl),
    blogUrl: trimSlash(input.blogUrl),
    docsUrl: trimSlash(input.docsUrl),
    ...(input.houseUrl ? { houseUrl: trimSlash(input.houseUrl) } : {}),
  };
}

/** Where each surface's sitemap and robots file live. */
export const sitemapIndexUrl = (site: Pick<SurfaceSite, 'appUrl'>): string => `${site.appUrl}/sitemap_index.xml`;
export const childSitemapUrls = (site: SurfaceSite): string[] => [`${site.appUrl}/sitemap.xml`, `${site.blogUrl}/sitemap.xml`, `${site.docsUrl}/sitemap.xml`];
export const houseSitemapUrl = (houseUrl: string): string => `${trimSlash(houseUrl)}/sitemap.xml`;
