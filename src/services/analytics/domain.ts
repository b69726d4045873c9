import { createAnalyticsProvider } from '../../providers/analytics';
import { authDomain } from '../auth';
import { defineDomain } from '../domain';
import { leaderboardsDomain } from '../leaderboards';
import { createAnalyticsService } from './service';

export const analyticsDomain = defineDomain({
  name: 'analytics',
  settings: ['analytics'],
  needs: [leaderboardsDomain, authDomain],
  create: ({ config, db, store, logger }, { leaderboards, operator }) => ({
    analytics: createAnalyticsService({
      db,
      store,
      leaderboards,
      provider: config.analytics ? createAnalyticsProvider({ ...config.analytics, logger }) : undefined,
      ttlMs: config.analytics?.cacheTtlMs ?? 0,
      operator,
    }),
  }),
});
