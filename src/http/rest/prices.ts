import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { COMMON_ERRORS, errorResponses } from './responses';

const assetPrice = {
  type: 'object',
  required: ['symbol', 'usd'],
  properties: { symbol: { type: 'string' }, usd: { type: 'string', pattern: '^\\d+(\\.\\d+)?$', description: 'USD per unit, decimal string' } },
} as const;

/** Cached prices (src/services/prices/service.ts): served from the shared store, never from the source. */
export async function priceRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get(
    '/price',
    {
      schema: {
        tags: ['prices'],
        operationId: 'prices',
        summary: 'USD prices of the native asset (SUI) and a USD stablecoin (USDC), from the last good poll',
        description: 'Polled every 5 minutes (JOBS.PRICE_POLL_CRON). `stale` is true past PRICES.STALE_AFTER_SECONDS (two intervals): the source has been failing and the last good price is shown.',
        response: {
          200: {
            type: 'object',
            required: ['native', 'stablecoin', 'updatedAt', 'ageSeconds', 'stale', 'source', 'lastFailedPollAt'],
            properties: {
              native: assetPrice,
              stablecoin: assetPrice,
              updatedAt: { type: 'string', format: 'date-time', description: 'Time of the last good poll' },
              ageSeconds: { type: 'integer', minimum: 0 },
              stale: { type: 'boolean' },
              source: { type: 'string' },
              lastFailedPollAt: { type: ['string', 'null'], format: 'date-time', description: 'A failed poll after the last good one' },
            },
          },
          ...errorResponses(['SERVICE_UNAVAILABLE', ...COMMON_ERRORS]),
        },
      },
    },
    async () => services.prices.current(),
  );
}
