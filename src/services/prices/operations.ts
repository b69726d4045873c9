import { operationsOver, type OperationSet } from '../operation';
import { pricesModel } from './model';
import type { PriceService } from './service';

type Svc = { prices: PriceService };
const operation = operationsOver<Svc>();

/** The cached prices (./service.ts): `GET /api/price` and the `prices` query are read from this. */
export const priceOperations: OperationSet<Svc> = {
  domain: 'prices',
  operations: [
    operation({
      summary: 'USD prices of the native asset (SUI) and a USD stablecoin (USDC), from the last good poll',
      description:
        'Polled every 5 minutes (JOBS.PRICE_POLL_CRON), never fetched on request; SERVICE_UNAVAILABLE before the first poll. `stale` is true past PRICES.STALE_AFTER_SECONDS (two intervals): the source has been failing and the last good price is shown.',
      kind: 'query',
      access: 'public',
      output: pricesModel,
      errors: ['SERVICE_UNAVAILABLE'],
      rest: { method: 'GET', path: '/price', operationId: 'prices', tag: 'prices' },
      graphql: { field: 'prices', cache: 'prices' },
      handle: ({ prices }) => prices.current(),
    }),
  ],
};
