import { tableOf, type KindKey } from '../../chain-events/kinds';
import type { QuestEvaluator, TimePeriod } from './catalogue';

/**
 * An evaluator as SQL over one event table: the player column, and the aggregate (with its
 * condition in a FILTER, so every (player, period) that has any event of the kind gets a row,
 * also when the condition matches none: the per-batch upkeep and the rebuild then agree).
 */
interface EvaluatorSql {
  kind: KindKey;
  /** The column naming the player (the referrer for referrals). */
  playerColumn: 'player' | 'referrer';
  /** Aggregate over rows aliased `e`; `$n` placeholders refer to `params`. */
  aggregate(param: (value: unknown) => string): string;
}

const cond = (parts: Array<string | null>) => {
  const list = parts.filter((p): p is string => p !== null);
  return list.length ? ` FILTER (WHERE ${list.join(' AND ')})` : '';
};
const coinIs = (coinType: string | undefined, param: (v: unknown) => string) => (coinType ? `e.coin_type = ${param(coinType)}` : null);

export function evaluatorSql(ev: QuestEvaluator): EvaluatorSql {
  switch (ev.kind) {
    case 'bets_placed':
      return { kind: 'bet_result_event', playerColumn: 'player', aggregate: (p) => `count(*)${cond([coinIs(ev.coinType, p)])}` };
    case 'bets_won':
      return { kind: 'bet_result_event', playerColumn: 'player', aggregate: (p) => `count(*)${cond(['e.won', coinIs(ev.coinType, p)])}` };
    case 'wagered':
      return { kind: 'bet_result_event', playerColumn: 'player', aggregate: (p) => `coalesce(sum(e.stake)${cond([coinIs(ev.coinType, p)])}, 0)` };
    case 'daily_streak_claims':
      return { kind: 'daily_streak_claimed_event', playerColumn: 'player', aggregate: () => 'count(*)' };
    case 'vip_level':
      return { kind: 'vip_exp_progress_event', playerColumn: 'player', aggregate: () => 'coalesce(max(e.vip_level), 0)' };
    case 'referrals':
      return { kind: 'referral_reward_event', playerColumn: 'referrer', aggregate: () => 'count(DISTINCT e.referee)' };
  }
}

/** The event kind whose rows move an evaluator's progress. */
export const kindOf = (ev: QuestEvaluator): KindKey => evaluatorSql(ev).kind;

/** The player a decoded event of the evaluator's kind counts for. */
export function playerOf(ev: QuestEvaluator, data: unknown): string | null {
  const value = (data as Record<string, unknown> | null)?.[evaluatorSql(ev).playerColumn];
  return typeof value === 'string' ? value : null;
}

/**
 * Progress per key row: `keys` is a relation with columns (player, period_start, period_end);
 * the result adds `progress` (numeric). Each key is one index range scan on (player, timestamp).
 */
export function progressOfKeys(ev: QuestEvaluator, keys: string, params: unknown[]): string {
  const s = evaluatorSql(ev);
  const param = (v: unknown) => `$${params.push(v)}`;
  return `SELECT k.*, (SELECT ${s.aggregate(param)} FROM ${tableOf(s.kind)} e
                        WHERE e.${s.playerColumn} = k.player AND e.timestamp_ms >= k.period_start AND e.timestamp_ms < k.period_end)::numeric AS progress
            FROM ${keys} k`;
}

/** The UTC period start of an event row `e`, as SQL (weeks are ISO: Monday 00:00 UTC). */
function periodStartSql(period: TimePeriod): string {
  if (period === 'once') return `'1970-01-01T00:00:00Z'::timestamptz`;
  return `date_trunc('${period === 'daily' ? 'day' : 'week'}', e.timestamp_ms, 'UTC')`;
}

/** Progress of every (player, period) that has events: the rebuild's truth. Columns: player, period_start, progress. */
export function progressOfAll(ev: QuestEvaluator, period: TimePeriod, params: unknown[]): string {
  const s = evaluatorSql(ev);
  const param = (v: unknown) => `$${params.push(v)}`;
  return `SELECT e.${s.playerColumn} AS player, ${periodStartSql(period)} AS period_start, (${s.aggregate(param)})::numeric AS progress
            FROM ${tableOf(s.kind)} e GROUP BY 1, 2`;
}
