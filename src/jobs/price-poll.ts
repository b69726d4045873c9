import type { PriceService } from '../services/prices';
import type { JobDefinition } from './runner';

/** A start-up poll is skipped when another replica polled this recently (replicas starting together poll once). */
const START_POLL_GAP_MS = 30_000;

/** Polls the price source into the shared store and `price_snapshot` (JOBS.PRICE_POLL_CRON, default every 5 minutes, and once at start). */
export function pricePollJob(prices: PriceService, cronExpression: string): JobDefinition {
  return {
    key: 'price-poll',
    cron: cronExpression,
    runAtStartUnlessRanWithinMs: START_POLL_GAP_MS,
    async run({ signal }) {
      const { prices: usd, fetchedAt } = await prices.poll({ signal });
      return { fetchedAt, prices: usd };
    },
  };
}
