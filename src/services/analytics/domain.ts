import { createAnalyticsProvider } from '../../providers/analytics';
import { defineDomain } from '../domain';
import { leaderboardsDomain } from '../leaderboards';
import { operatorsDomain } from '../operators';
import { createAnalyticsService } from './service';

export const analyticsDomain = defineDomain({
  name: 'analytics',
  settings: ['analytics'],
  needs: [leaderboardsDomain, operatorsDomain],
  create: ({ config, db, store, logger }, { leaderboards, audit }) => ({
    analytics: createAnalyticsService({
      db,
      store,
      leaderboards,
      audit,
      provider: config.analytics ? createAnalyticsProvider({ ...config.analytics, logger }) : undefined,
      ttlMs: config.analytics?.cacheTtlMs ?? 0,
    }),
  }),
});
