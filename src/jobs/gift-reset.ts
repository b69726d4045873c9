import type { GiftService } from '../services/gifts';
import type { JobDefinition } from './runner';

/** Zeroes the gift delivery counters (JOBS.GIFT_RESET_CRON, default 00:00 UTC). */
export function giftResetJob(gifts: GiftService, cronExpression: string): JobDefinition {
  return {
    key: 'gift-reset',
    cron: cronExpression,
    async run() {
      return gifts.resetCounters();
    },
  };
}
