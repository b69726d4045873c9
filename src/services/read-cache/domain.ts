import { defineDomain } from '../domain';
import { createReadCacheService } from './service';

export const readCacheDomain = defineDomain({
  name: 'read-cache',
  settings: [],
  needs: [],
  create: async ({ store, logger }) => ({
    /** Generations of cached reads (response cache keys, local read caches), bumped by the indexer and the price poll. */
    readCache: await createReadCacheService({ store, logger }),
  }),
});
