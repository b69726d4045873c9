import type { AppRoute } from './sitemaps';

/**
 * The app host's routes (the app itself is another codebase) and when each one's content last
 * changed: the app sitemap is built from this table. Edit a route's `lastmod` with its content;
 * it is never a build or start time. Internal routes stay listed here and are left out of the
 * sitemap by `appSitemapEntries` (INTERNAL_APP_ROUTES), as are legacy redirect sources.
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: '/', lastmod: '2026-11-01T00:00:00Z' },
  { path: '/weekly-race', lastmod: '2026-11-01T00:00:00Z' },
  { path: '/bonus', lastmod: '2026-11-01T00:00:00Z' },
  { path: '/redirect', lastmod: '2026-11-01T00:00:00Z' },
];
