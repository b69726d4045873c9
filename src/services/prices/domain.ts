import { createPriceSource } from '../../providers/price-source';
import { defineDomain } from '../domain';
import { readCacheDomain } from '../read-cache';
import { createPriceRetention } from './retention';
import { createPriceService } from './service';

export const pricesDomain = defineDomain({
  name: 'prices',
  settings: ['prices'],
  needs: [readCacheDomain],
  create: ({ config, db, store, logger, registry, now }, { readCache }) => ({
    prices: createPriceService({
      db,
      store,
      logger,
      source: config.prices.apiKey ? createPriceSource({ url: config.prices.apiUrl, apiKey: config.prices.apiKey }) : null,
      staleAfterSeconds: config.prices.staleAfterSeconds,
      registry,
      onChange: () => readCache.bump('prices'),
    }),
    priceRetention: createPriceRetention({ db, logger, retentionDays: config.prices.snapshotRetentionDays, now }),
  }),
});
