import type { BetResult } from '../../chain-events/kinds';
import type { Logger } from '../../observability/logger';
import type { Hooks } from '../hooks';
import type { ActivityEvent, ActivityService } from './service';

/** How a bet result reads in the activity feed. */
export function betActivity(bet: BetResult, at: Date): ActivityEvent {
  const coin = bet.coinType.split('::').at(-1);
  const summary = bet.won ? `won ${bet.payout} ${coin} on game ${bet.gameId}` : `bet ${bet.stake} ${coin} on game ${bet.gameId}`;
  return { kind: 'bet_result', player: bet.player, summary, at };
}

/**
 * Broadcasts the live bet results the indexer commits (the `chainIndexed` hook): the last
 * `perBatch` of each batch that is news (no backfill, no replay).
 */
export function broadcastBetResults(hooks: Pick<Hooks, 'on'>, activity: Pick<ActivityService, 'publish'>, logger: Logger, perBatch = 20): () => void {
  return hooks.on('chainIndexed', ({ kind, events, news }) => {
    if (kind !== 'bet_result_event' || !news) return;
    for (const e of events.slice(-perBatch)) {
      activity.publish(betActivity(e.data as BetResult, new Date(e.timestampMs))).catch((err: unknown) => logger.warn({ err }, 'activity publish failed'));
    }
  });
}
