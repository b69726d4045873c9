import { tableOf, type KindKey } from './kinds.js';

/**
 * The leaderboards the indexer projects from event kinds. One entry per board is the single
 * source of its rules: the indexer's live projection (rows inserted by a batch), the rebuild
 * (whole event table), the leaderboard reads and the GraphQL/REST board names derive from it.
 */
export interface LeaderboardSpec<B extends string = string> {
  /** Public name (GraphQL enum value in upper case, REST `board` parameter). */
  board: B;
  table: string;
  /** The event kind whose rows feed the board. */
  fedBy: KindKey;
  /** The kind's columns `aggregate` reads from a batch's inserted rows (what the indexer's insert returns). */
  reads: readonly string[];
  keys: readonly string[];
  values: readonly string[];
  /**
   * The board's rows (columns keys + values, in that order) aggregated from `source`, a relation
   * with the kind's columns: the kind's event table, or in a batch the rows it just inserted
   * (`batch` true; the kind's table then holds only earlier batches' rows).
   */
  aggregate(source: string, batch: boolean): string;
  /** How a stored row (`lb`) absorbs a batch's aggregate (`EXCLUDED`), per value column. */
  merge: Readonly<Record<string, string>>;
  /** How reads rank the board: SQL expressions over its table. */
  read: { player: string; score: string; count: string | null; vipLevel: string | null; byCoin: boolean; weekly: boolean };
}

const sumMerge = (cols: readonly string[]) => Object.fromEntries(cols.map((c) => [c, `lb.${c} + EXCLUDED.${c}`]));

const BET_VALUES = ['total_wagered', 'total_payout', 'bet_count', 'win_count'] as const;
const betTotals = 'sum(stake) AS total_wagered, sum(payout) AS total_payout, count(*)::int AS bet_count, (count(*) FILTER (WHERE won))::int AS win_count';
const betRead = { player: 'player', score: 'total_wagered', count: 'bet_count', vipLevel: null, byCoin: true };

const board = <B extends string>(spec: LeaderboardSpec<B>) => spec;

export const LEADERBOARD_SPECS = [
  board({
    board: 'xp',
    table: 'xp_leaderboard',
    fedBy: 'vip_exp_progress_event',
    reads: ['id', 'player', 'total_exp', 'vip_level'],
    keys: ['player'],
    values: ['total_xp', 'vip_level', 'chain_xp', 'quest_xp'],
    // chain_xp: the chain's running total_exp, so keep the highest seen and the level that came with it.
    // quest_xp: claimed quest rewards, added by the claim itself (src/services/quests/claims.ts), never by
    // the indexer. total_xp (the score) is their sum.
    aggregate: (source, batch) => {
      const chain = `SELECT DISTINCT ON (player) player, total_exp AS chain_xp, vip_level FROM ${source} ORDER BY player, total_exp DESC, id DESC`;
      if (batch) return `SELECT player, chain_xp AS total_xp, vip_level, chain_xp, 0::numeric AS quest_xp FROM (${chain}) c`;
      return `SELECT coalesce(c.player, q.player) AS player, coalesce(c.chain_xp, 0) + coalesce(q.quest_xp, 0) AS total_xp,
                     coalesce(c.vip_level, 0) AS vip_level, coalesce(c.chain_xp, 0) AS chain_xp, coalesce(q.quest_xp, 0) AS quest_xp
                FROM (${chain}) c
                FULL JOIN (SELECT player_address AS player, sum(xp_reward)::numeric AS quest_xp FROM quest_claim GROUP BY player_address) q
                  ON q.player = c.player`;
    },
    merge: {
      vip_level: 'CASE WHEN EXCLUDED.chain_xp >= lb.chain_xp THEN EXCLUDED.vip_level ELSE lb.vip_level END',
      chain_xp: 'GREATEST(lb.chain_xp, EXCLUDED.chain_xp)',
      total_xp: 'GREATEST(lb.chain_xp, EXCLUDED.chain_xp) + lb.quest_xp',
      quest_xp: 'lb.quest_xp',
    },
    read: { player: 'player', score: 'total_xp', count: null, vipLevel: 'vip_level', byCoin: false, weekly: false },
  }),
  board({
    board: 'bet',
    table: 'bet_leaderboard',
    fedBy: 'bet_result_event',
    reads: ['player', 'coin_type', 'stake', 'payout', 'won'],
    keys: ['player', 'coin_type'],
    values: BET_VALUES,
    aggregate: (source) => `SELECT player, coin_type, ${betTotals} FROM ${source} GROUP BY player, coin_type`,
    merge: sumMerge(BET_VALUES),
    read: { ...betRead, weekly: false },
  }),
  board({
    board: 'weekly_bet',
    table: 'weekly_bet_leaderboard',
    fedBy: 'bet_result_event',
    reads: ['timestamp_ms', 'player', 'coin_type', 'stake', 'payout', 'won'],
    keys: ['week_start', 'player', 'coin_type'],
    values: BET_VALUES,
    // Weeks start on Monday 00:00 UTC (date_trunc('week') is ISO).
    aggregate: (source) => `SELECT date_trunc('week', timestamp_ms AT TIME ZONE 'UTC')::date AS week_start, player, coin_type, ${betTotals}
                              FROM ${source} GROUP BY 1, player, coin_type`,
    merge: sumMerge(BET_VALUES),
    read: { ...betRead, weekly: true },
  }),
  board({
    board: 'referral',
    table: 'referral_leaderboard',
    fedBy: 'referral_reward_event',
    reads: ['referrer', 'referee', 'coin_type', 'amount'],
    keys: ['referrer', 'coin_type'],
    values: ['total_rewards', 'referral_count'],
    // referral_count counts distinct referees per (referrer, coin). In a batch, the statement's snapshot
    // does not see the rows `source` adds, so NOT EXISTS looks at earlier batches only.
    aggregate: (source, batch) => `SELECT i.referrer, i.coin_type, sum(i.amount) AS total_rewards,
                              (count(DISTINCT i.referee)${batch ? ` FILTER (WHERE NOT EXISTS (
                                SELECT 1 FROM ${tableOf('referral_reward_event')} r
                                 WHERE r.referrer = i.referrer AND r.referee = i.referee AND r.coin_type = i.coin_type))` : ''})::int AS referral_count
                              FROM ${source} i GROUP BY i.referrer, i.coin_type`,
    merge: sumMerge(['total_rewards', 'referral_count']),
    read: { player: 'referrer', score: 'total_rewards', count: 'referral_count', vipLevel: null, byCoin: true, weekly: false },
  }),
] as const;

export type Board = (typeof LEADERBOARD_SPECS)[number]['board'];

/** Board names in their public order. */
export const BOARDS: readonly Board[] = LEADERBOARD_SPECS.map((s) => s.board);

export function leaderboardOf(name: Board): LeaderboardSpec<Board> {
  return LEADERBOARD_SPECS.find((s) => s.board === name)!;
}

/** The boards a kind's inserted rows feed. */
export const boardsFedBy = (kind: KindKey): readonly LeaderboardSpec[] => LEADERBOARD_SPECS.filter((s) => s.fedBy === kind);

/** The board as recomputed from its kind's whole event table (the rebuild's truth). */
export const recomputedBoard = (spec: LeaderboardSpec): string => spec.aggregate(tableOf(spec.fedBy), false);
