import { defineDomain } from '../domain';
import { readCacheDomain } from '../read-cache';
import { createLeaderboardService } from './service';

export const leaderboardsDomain = defineDomain({
  name: 'leaderboards',
  settings: [],
  needs: [readCacheDomain],
  create: async ({ db, store, leaderboardCacheTtlMs }, { readCache }) => ({
    leaderboards: await createLeaderboardService({ db, store, readCache, ttlMs: leaderboardCacheTtlMs }),
  }),
});
