import { chainWritesDomain } from '../chain-writes';
import { defineDomain } from '../domain';
import { createGiveawayService, registerGiveawaySettle } from './service';

export const giveawaysDomain = defineDomain({
  name: 'giveaways',
  settings: ['chain'],
  needs: [chainWritesDomain],
  create: ({ config, db }, { chainWriter }) => {
    registerGiveawaySettle(chainWriter);
    const { graceMs, batchSize } = config.chain.giveaways;
    return { giveaways: createGiveawayService({ db, chainWriter, graceMs, batchSize }) };
  },
});
