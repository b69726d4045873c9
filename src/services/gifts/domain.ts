import { createIpCheck } from '../../providers/ip-check';
import { defineDomain } from '../domain';
import { operatorsDomain } from '../operators';
import { createGiftAdmin } from './admin';
import { createGiftService } from './service';

export const giftsDomain = defineDomain({
  name: 'gifts',
  settings: ['gifts'],
  needs: [operatorsDomain],
  create: ({ config, db, logger, registry }, { audit }) => ({
    gifts: createGiftService({
      db,
      logger,
      ipCheck: config.gifts.ipCheckKey ? createIpCheck({ url: config.gifts.ipCheckUrl, apiKey: config.gifts.ipCheckKey }) : null,
      ipDailyLimit: config.gifts.ipDailyLimit,
      registry,
    }),
    /** Projects, windows, quotas and stash as operators run them. */
    giftAdmin: createGiftAdmin({ db, audit }),
  }),
});
