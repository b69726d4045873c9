import { defineDomain } from '../domain';
import { broadcastBetResults } from './bets';
import { createActivityService } from './service';

export const activityDomain = defineDomain({
  name: 'activity',
  settings: [],
  needs: [],
  create: ({ bus, hooks, logger }) => {
    const activity = createActivityService(bus);
    broadcastBetResults(hooks, activity, logger);
    return { activity };
  },
});
