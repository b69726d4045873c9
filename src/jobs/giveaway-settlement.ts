import type { GiveawayService } from '../services/giveaways';
import type { JobDefinition } from './runner';

/**
 * Settles giveaways that ended more than CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS ago, in batches of
 * CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE, through the chain writer (JOBS.GIVEAWAY_SETTLEMENT_CRON).
 */
export function giveawaySettlementJob(giveaways: GiveawayService, cronExpression: string): JobDefinition {
  return {
    key: 'giveaway-settlement',
    cron: cronExpression,
    async run({ signal }) {
      return { ...(await giveaways.settleDue({ signal })) };
    },
  };
}
