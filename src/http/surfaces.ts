import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { buildLlmsTxt } from '../surfaces/shared/llms';
import { NON_MAINNET_ROBOTS } from '../surfaces/shared/robots';
import { isIndexable, surfaceSite } from '../surfaces/shared/site';
import { buildSitemapIndex } from '../surfaces/shared/sitemaps';

/** Browsers and crawlers may cache both for as long as the blog's pages regenerate. */
const CACHE_CONTROL = 'public, max-age=60';

/**
 * `{app_url}/sitemap_index.xml` and `{app_url}/llms.txt`, at the root (not under /api): the edge
 * routes these two paths of the app host here (docs/decisions.md, "Web surfaces"). Built once
 * from the configured URLs; off mainnet the index lists nothing and both say noindex.
 */
export function registerSurfaces(app: FastifyInstance, config: Config['surfaces']): void {
  const site = surfaceSite(config);
  const indexXml = buildSitemapIndex(site);
  const llmsTxt = buildLlmsTxt(site);
  const headers = {
    'cache-control': CACHE_CONTROL,
    ...(isIndexable(site) ? {} : { 'x-robots-tag': NON_MAINNET_ROBOTS }),
  };
  app.get('/sitemap_index.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...headers, 'content-type': 'application/xml; charset=utf-8' }).send(indexXml),
  );
  app.get('/llms.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...headers, 'content-type': 'text/plain; charset=utf-8' }).send(llmsTxt),
  );
}
