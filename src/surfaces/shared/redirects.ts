import { trimSlash, type SurfaceSite } from './site';

/** Every redirect of the public surfaces is permanent. */
export const REDIRECT_STATUS = 301;

/** Legacy app routes (exact paths) and where they now live, on the same host. */
export const APP_ROUTE_REDIRECTS: Readonly<Record<string, string>> = {
  '/lootbox': '/',
  '/roadmap': '/',
  '/rewards': '/bonus',
  '/weekly-contest': '/weekly-race',
};

const withoutTrailingSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export function isAppRedirectSource(path: string): boolean {
  return Object.hasOwn(APP_ROUTE_REDIRECTS, withoutTrailingSlash(path));
}

/** Hosts that only redirect, and the root their paths move to (path and query kept). */
export interface HostRedirect {
  /** Origin of the old host, e.g. `https://www.platform.example`. */
  from: string;
  /** Root the path is appended to, e.g. `https://platform.example` or `{docs_url}`. */
  to: string;
  kind: 'www' | 'legacy-network-host' | 'docs-legacy-host';
}

export interface LegacyHosts {
  /** The `www` host; default: `www.` + the app's host. */
  wwwUrl?: string;
  /** The legacy network-prefixed host, e.g. `https://mainnet.platform.example`. */
  legacyNetworkUrl?: string;
  /** The docs' former host, e.g. `https://docs.platform.example`. */
  docsLegacyUrl?: string;
}

export function hostRedirects(site: SurfaceSite, hosts: LegacyHosts = {}): HostRedirect[] {
  const app = new URL(site.appUrl);
  const apex = app.origin;
  const www = hosts.wwwUrl ?? (app.hostname.startsWith('www.') || isIpAddress(app.hostname) ? undefined : `${app.protocol}//www.${app.host}`);
  const table: HostRedirect[] = [];
  if (www) table.push({ from: new URL(www).origin, to: apex, kind: 'www' });
  if (hosts.legacyNetworkUrl) table.push({ from: new URL(hosts.legacyNetworkUrl).origin, to: apex, kind: 'legacy-network-host' });
  if (hosts.docsLegacyUrl) table.push({ from: new URL(hosts.docsLegacyUrl).origin, to: trimSlash(site.docsUrl), kind: 'docs-legacy-host' });
  return table;
}

const isIpAddress = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');

export interface RedirectTarget {
  status: typeof REDIRECT_STATUS;
  location: string;
}

/**
 * Where a request for `url` must be sent, or undefined when it is served where it is. Host
 * redirects come first (they keep the path, so a legacy route is then redirected on the apex).
 */
export function resolveRedirect(url: string | URL, site: SurfaceSite, hosts: LegacyHosts = {}): RedirectTarget | undefined {
  const u = new URL(url);
  const rest = `${u.pathname}${u.search}`;
  const host = hostRedirects(site, hosts).find((h) => h.from === u.origin);
  if (host) return { status: REDIRECT_STATUS, location: `${host.to}${rest}` };
  const app = new URL(site.appUrl);
  if (u.origin !== app.origin) return undefined;
  const path = withoutTrailingSlash(u.pathname);
  const target = Object.hasOwn(APP_ROUTE_REDIRECTS, path) ? APP_ROUTE_REDIRECTS[path] : undefined;
  return target === undefined ? undefined : { status: REDIRECT_STATUS, location: `${app.origin}${target}${u.search}` };
}
