import { createIpCheck } from '../../providers/ip-check';
import { defineDomain } from '../domain';
import { createGiftService } from './service';

export const giftsDomain = defineDomain({
  name: 'gifts',
  settings: ['gifts'],
  needs: [],
  create: ({ config, db, logger, registry }) => ({
    gifts: createGiftService({
      db,
      logger,
      ipCheck: config.gifts.ipCheckKey ? createIpCheck({ url: config.gifts.ipCheckUrl, apiKey: config.gifts.ipCheckKey }) : null,
      ipDailyLimit: config.gifts.ipDailyLimit,
      registry,
    }),
  }),
});
