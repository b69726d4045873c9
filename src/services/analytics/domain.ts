import { createAnalyticsProvider } from '../../providers/analytics';
import { defineDomain } from '../domain';
import { leaderboardsDomain } from '../leaderboards';
import { createAnalyticsService } from './service';

export const analyticsDomain = defineDomain({
  name: 'analytics',
  settings: ['analytics'],
  needs: [leaderboardsDomain],
  create: ({ config, db, store, logger }, { leaderboards }) => ({
    analytics: createAnalyticsService({
      db,
      store,
      leaderboards,
      provider: config.analytics ? createAnalyticsProvider({ ...config.analytics, logger }) : undefined,
      ttlMs: config.analytics?.cacheTtlMs ?? 0,
    }),
  }),
});
