import { defineDomain } from '../domain';
import { createActivityService } from './service';

export const activityDomain = defineDomain({
  name: 'activity',
  settings: [],
  needs: [],
  create: ({ pubSub }) => ({ activity: createActivityService(pubSub) }),
});
