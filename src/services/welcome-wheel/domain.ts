import { chainWritesDomain } from '../chain-writes';
import { defineDomain } from '../domain';
import { registerWelcomeWheelPayout } from './payout';
import { createWelcomeWheelService } from './service';

export const welcomeWheelDomain = defineDomain({
  name: 'welcome-wheel',
  settings: ['welcomeWheel'],
  needs: [chainWritesDomain],
  create: ({ config, db }, { chainWriter }) => {
    registerWelcomeWheelPayout(chainWriter);
    const { maxReward, poolId } = config.welcomeWheel;
    return { welcomeWheel: createWelcomeWheelService({ db, maxReward, payouts: { chainWriter, poolId } }) };
  },
});
