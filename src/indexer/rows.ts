import type { DecodedEvent } from './follow.js';
import type { BetResult, DailyStreakClaimed, DailyStreakReset, HouseLiquidity, KindData, KindKey, ReferralReward, VipExpProgress } from './kinds.js';

/** A column of a kind's event table (beyond the common ones) and how to bind its value. */
type Column<T> = readonly [name: string, cast: string, value: (data: T) => unknown];

export interface TableSpec<T> {
  table: string;
  columns: readonly Column<T>[];
  /** Extra data-modifying CTEs reading the inserted rows from `ins` (leaderboard projections). */
  projections: readonly string[];
}

const dec = (v: bigint) => v.toString();

const BET_LEADERBOARDS = [
  `bet_lb AS (
    INSERT INTO bet_leaderboard AS lb (player, coin_type, total_wagered, total_payout, bet_count, win_count, updated_at)
    SELECT player, coin_type, sum(stake), sum(payout), count(*), count(*) FILTER (WHERE won), now()
    FROM ins GROUP BY player, coin_type
    ON CONFLICT (player, coin_type) DO UPDATE SET
      total_wagered = lb.total_wagered + EXCLUDED.total_wagered,
      total_payout = lb.total_payout + EXCLUDED.total_payout,
      bet_count = lb.bet_count + EXCLUDED.bet_count,
      win_count = lb.win_count + EXCLUDED.win_count,
      updated_at = now()
  )`,
  // Weeks start on Monday 00:00 UTC (date_trunc('week') is ISO).
  `weekly_bet_lb AS (
    INSERT INTO weekly_bet_leaderboard AS lb (week_start, player, coin_type, total_wagered, total_payout, bet_count, win_count, updated_at)
    SELECT date_trunc('week', timestamp_ms AT TIME ZONE 'UTC')::date, player, coin_type,
           sum(stake), sum(payout), count(*), count(*) FILTER (WHERE won), now()
    FROM ins GROUP BY 1, player, coin_type
    ON CONFLICT (week_start, player, coin_type) DO UPDATE SET
      total_wagered = lb.total_wagered + EXCLUDED.total_wagered,
      total_payout = lb.total_payout + EXCLUDED.total_payout,
      bet_count = lb.bet_count + EXCLUDED.bet_count,
      win_count = lb.win_count + EXCLUDED.win_count,
      updated_at = now()
  )`,
];

// total_exp is the chain's running total: keep the highest seen and the level that came with it.
const XP_LEADERBOARD = `xp_lb AS (
    INSERT INTO xp_leaderboard AS lb (player, total_xp, vip_level, updated_at)
    SELECT DISTINCT ON (player) player, total_exp, vip_level, now()
    FROM ins ORDER BY player, total_exp DESC, id DESC
    ON CONFLICT (player) DO UPDATE SET
      vip_level = CASE WHEN EXCLUDED.total_xp >= lb.total_xp THEN EXCLUDED.vip_level ELSE lb.vip_level END,
      total_xp = GREATEST(lb.total_xp, EXCLUDED.total_xp),
      updated_at = now()
  )`;

// referral_count counts distinct referees per (referrer, coin); the statement's snapshot does not
// see the rows `ins` adds, so NOT EXISTS looks at earlier batches only.
const REFERRAL_LEADERBOARD = `referral_lb AS (
    INSERT INTO referral_leaderboard AS lb (referrer, coin_type, total_rewards, referral_count, updated_at)
    SELECT i.referrer, i.coin_type, sum(i.amount),
           count(DISTINCT i.referee) FILTER (WHERE NOT EXISTS (
             SELECT 1 FROM referral_reward_event r
             WHERE r.referrer = i.referrer AND r.referee = i.referee AND r.coin_type = i.coin_type)),
           now()
    FROM ins i GROUP BY i.referrer, i.coin_type
    ON CONFLICT (referrer, coin_type) DO UPDATE SET
      total_rewards = lb.total_rewards + EXCLUDED.total_rewards,
      referral_count = lb.referral_count + EXCLUDED.referral_count,
      updated_at = now()
  )`;

const liquidity = (table: string): TableSpec<HouseLiquidity> => ({
  table,
  columns: [
    ['action', 'text', (d) => d.action],
    ['provider', 'text', (d) => d.provider],
    ['coin_type', 'text', (d) => d.coinType],
    ['amount', 'numeric', (d) => dec(d.amount)],
    ['house_balance', 'numeric', (d) => dec(d.houseBalance)],
  ],
  projections: [],
});

export const TABLES: { [K in KindKey]: TableSpec<KindData<K>> } = {
  bet_result_event: {
    table: 'bet_result_event',
    columns: [
      ['player', 'text', (d: BetResult) => d.player],
      ['game_id', 'text', (d: BetResult) => d.gameId.toString()],
      ['coin_type', 'text', (d: BetResult) => d.coinType],
      ['stake', 'numeric', (d: BetResult) => dec(d.stake)],
      ['payout', 'numeric', (d: BetResult) => dec(d.payout)],
      ['won', 'boolean', (d: BetResult) => d.won],
    ],
    projections: BET_LEADERBOARDS,
  },
  vip_exp_progress_event: {
    table: 'vip_exp_progress_event',
    columns: [
      ['player', 'text', (d: VipExpProgress) => d.player],
      ['exp_gained', 'numeric', (d: VipExpProgress) => dec(d.expGained)],
      ['total_exp', 'numeric', (d: VipExpProgress) => dec(d.totalExp)],
      ['vip_level', 'int', (d: VipExpProgress) => d.vipLevel],
    ],
    projections: [XP_LEADERBOARD],
  },
  daily_streak_claimed_event: {
    table: 'daily_streak_claimed_event',
    columns: [
      ['player', 'text', (d: DailyStreakClaimed) => d.player],
      ['streak_day', 'numeric', (d: DailyStreakClaimed) => dec(d.streakDay)],
      ['reward', 'numeric', (d: DailyStreakClaimed) => dec(d.reward)],
    ],
    projections: [],
  },
  daily_streak_reset_event: {
    table: 'daily_streak_reset_event',
    columns: [
      ['player', 'text', (d: DailyStreakReset) => d.player],
      ['previous_streak', 'numeric', (d: DailyStreakReset) => dec(d.previousStreak)],
    ],
    projections: [],
  },
  referral_reward_event: {
    table: 'referral_reward_event',
    columns: [
      ['referrer', 'text', (d: ReferralReward) => d.referrer],
      ['referee', 'text', (d: ReferralReward) => d.referee],
      ['coin_type', 'text', (d: ReferralReward) => d.coinType],
      ['amount', 'numeric', (d: ReferralReward) => dec(d.amount)],
    ],
    projections: [REFERRAL_LEADERBOARD],
  },
  house_liquidity_event: liquidity('house_liquidity_event'),
  secondary_house_liquidity_event: liquidity('secondary_house_liquidity_event'),
};

const COMMON: readonly Column<DecodedEvent<unknown>>[] = [
  ['tx_digest', 'text', (e) => e.txDigest],
  ['event_seq', 'int', (e) => e.eventSeq],
  ['checkpoint', 'bigint', (e) => {
    if (e.checkpoint === null) throw new Error(`event ${e.txDigest}#${e.eventSeq} has no checkpoint`);
    return e.checkpoint.toString();
  }],
  ['timestamp_ms', 'timestamptz', (e) => new Date(e.timestampMs).toISOString()],
  ['sender', 'text', (e) => e.sender],
];

/**
 * One statement: insert the rows (duplicates by (tx_digest, event_seq) skipped), feed only the
 * inserted rows to the kind's leaderboards, return how many were inserted.
 */
export function insertStatement<T>(spec: TableSpec<T>, events: readonly DecodedEvent<T>[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const names = [...COMMON.map((c) => c[0]), ...spec.columns.map((c) => c[0])];
  const rows = events.map((event) => {
    const cells = [
      ...COMMON.map(([, cast, value]) => `$${params.push(value(event))}::${cast}`),
      ...spec.columns.map(([, cast, value]) => `$${params.push(value(event.data))}::${cast}`),
    ];
    return `(${cells.join(', ')})`;
  });
  const ctes = [
    `ins AS (
    INSERT INTO ${spec.table} (${names.join(', ')})
    VALUES ${rows.join(',\n      ')}
    ON CONFLICT (tx_digest, event_seq) DO NOTHING
    RETURNING *
  )`,
    ...spec.projections,
  ];
  return { sql: `WITH ${ctes.join(',\n  ')}\nSELECT count(*)::int AS inserted FROM ins`, params };
}
