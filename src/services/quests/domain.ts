import { defineDomain } from '../domain';
import { leaderboardsDomain } from '../leaderboards';
import { createQuestService } from './service';

export const questsDomain = defineDomain({
  name: 'quests',
  settings: ['quests'],
  needs: [leaderboardsDomain],
  create: ({ config, db, store, logger, registry, hooks, now }, { leaderboards }) => ({
    quests: createQuestService({ db, store, logger, leaderboards, registry, claimLimit: config.quests.claimRateLimit, hooks, now }),
  }),
});
