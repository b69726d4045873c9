import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { APP_ROUTES } from '../surfaces/shared/app-routes';
import { buildLlmsTxt } from '../surfaces/shared/llms';
import { APP_ROUTE_REDIRECTS, resolveRedirect } from '../surfaces/shared/redirects';
import { buildAppRobots, NON_MAINNET_ROBOTS } from '../surfaces/shared/robots';
import { isIndexable, surfaceSite } from '../surfaces/shared/site';

/** Browsers and crawlers may cache both for as long as the blog's pages regenerate. */
const CACHE_CONTROL = 'public, max-age=60';
const XML = 'application/xml; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/**
 * The app host's root files, at the root (not under /api): `/sitemap_index.xml`, `/sitemap.xml`
 * (the app sitemap, from the app-route table), `/robots.txt` and `/llms.txt`, and the legacy app
 * routes' 301s; the edge routes these paths of the app host here (docs/decisions.md, "Web
 * surfaces"). Built once from the configured URLs (the sitemaps on their first request: their XML
 * library is not loaded before); off mainnet the sitemaps list nothing, robots blocks all and the
 * documents say noindex.
 */
export function registerSurfaces(app: FastifyInstance, config: Config['surfaces']): void {
  const site = surfaceSite(config);
  const headers = {
    'cache-control': CACHE_CONTROL,
    ...(isIndexable(site) ? {} : { 'x-robots-tag': NON_MAINNET_ROBOTS }),
  };
  const file = (path: string, type: string, body: () => string | Promise<string>) => {
    let built: Promise<string> | undefined;
    app.get(path, { schema: { hide: true } }, async (_request, reply) => {
      built ??= Promise.resolve(body()).catch((err: unknown) => {
        built = undefined;
        throw err;
      });
      return reply.headers({ ...headers, 'content-type': type }).send(await built);
    });
  };
  const sitemaps = () => import('../surfaces/shared/sitemaps');
  file('/sitemap_index.xml', XML, async () => (await sitemaps()).buildSitemapIndex(site));
  file('/sitemap.xml', XML, async () => (await sitemaps()).buildAppSitemap(site, APP_ROUTES));
  const robots = buildAppRobots(site);
  const llms = buildLlmsTxt(site);
  file('/robots.txt', TEXT, () => robots);
  file('/llms.txt', TEXT, () => llms);

  // Whatever host the request came in on, the target is on the app's own origin (query kept).
  const legacy = async (request: FastifyRequest, reply: FastifyReply) => {
    const target = resolveRedirect(`${new URL(site.appUrl).origin}${request.url}`, site)!;
    return reply.code(target.status).header('cache-control', CACHE_CONTROL).header('location', target.location).send();
  };
  for (const from of Object.keys(APP_ROUTE_REDIRECTS)) {
    for (const path of [from, `${from}/`]) app.get(path, { schema: { hide: true } }, legacy);
  }
}
