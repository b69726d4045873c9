import { defineDomain } from '../domain';
import { createWelcomeWheelService } from './service';

export const welcomeWheelDomain = defineDomain({
  name: 'welcome-wheel',
  settings: ['welcomeWheel'],
  needs: [],
  create: ({ config, db }) => ({ welcomeWheel: createWelcomeWheelService({ db, maxReward: config.welcomeWheel.maxReward }) }),
});
