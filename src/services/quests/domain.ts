import { defineDomain } from '../domain';
import { leaderboardsDomain } from '../leaderboards';
import { operatorsDomain } from '../operators';
import { readCacheDomain } from '../read-cache';
import { createQuestService } from './service';

export const questsDomain = defineDomain({
  name: 'quests',
  settings: ['quests'],
  needs: [leaderboardsDomain, operatorsDomain, readCacheDomain],
  create: ({ config, db, store, logger, registry, hooks, now }, { leaderboards, audit, readCache }) => ({
    quests: createQuestService({ db, store, logger, leaderboards, registry, claimLimit: config.quests.claimRateLimit, hooks, now, audit, readCache }),
  }),
});
