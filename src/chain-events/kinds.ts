/**
 * The registry of followed chain event kinds: what each kind carries and where it is stored.
 * The indexer's decoders, its insert SQL, the operator status query and the leaderboards
 * (./leaderboards.ts) all derive from these entries; adding a kind starts here.
 */

export interface BetResult {
  player: string;
  gameId: bigint;
  coinType: string;
  stake: bigint;
  payout: bigint;
  won: boolean;
}

export interface VipExpProgress {
  player: string;
  expGained: bigint;
  totalExp: bigint;
  vipLevel: number;
}

export interface DailyStreakClaimed {
  player: string;
  streakDay: bigint;
  reward: bigint;
}

export interface DailyStreakReset {
  player: string;
  previousStreak: bigint;
}

export interface ReferralReward {
  referrer: string;
  referee: string;
  coinType: string;
  amount: bigint;
}

type LiquidityAction = 'deposit' | 'withdraw';

export interface HouseLiquidity {
  action: LiquidityAction;
  provider: string;
  coinType: string;
  amount: bigint;
  houseBalance: bigint;
}

export interface GiveawayCreated {
  giveawayId: string;
  /** End of the giveaway, ms since the epoch (u64 on chain). */
  endsAtMs: bigint;
}

/** A column of a kind's event table (beyond the common ones): name, SQL cast, and its value from the decoded event. */
export type KindColumn<T> = readonly [name: string, cast: string, value: (data: T) => unknown];

export interface EventKindSpec<K extends string = string, T = unknown> {
  /** Kind key; also the name of the kind's event table and its row in the `cursor` table. */
  key: K;
  /** Move type without the package: `module::Name`. */
  moveType: string;
  columns: readonly KindColumn<T>[];
}

const spec = <T>() => <K extends string>(key: K, moveType: string, columns: readonly KindColumn<T>[]): EventKindSpec<K, T> => ({ key, moveType, columns });

const dec = (v: bigint) => v.toString();

/** The last instant of year 9999 (the widest plain ISO 8601 form); a later on-chain u64 end means "never" and is stored as this. */
const MAX_ISO_MS = 253_402_300_799_999n;
const isoOfMs = (ms: bigint) => new Date(Number(ms > MAX_ISO_MS ? MAX_ISO_MS : ms)).toISOString();

const liquidityColumns: readonly KindColumn<HouseLiquidity>[] = [
  ['action', 'text', (d) => d.action],
  ['provider', 'text', (d) => d.provider],
  ['coin_type', 'text', (d) => d.coinType],
  ['amount', 'numeric', (d) => dec(d.amount)],
  ['house_balance', 'numeric', (d) => dec(d.houseBalance)],
];

export const EVENT_KIND_SPECS = {
  bet_result_event: spec<BetResult>()('bet_result_event', 'game::BetResultEvent', [
    ['player', 'text', (d) => d.player],
    ['game_id', 'text', (d) => d.gameId.toString()],
    ['coin_type', 'text', (d) => d.coinType],
    ['stake', 'numeric', (d) => dec(d.stake)],
    ['payout', 'numeric', (d) => dec(d.payout)],
    ['won', 'boolean', (d) => d.won],
  ]),
  vip_exp_progress_event: spec<VipExpProgress>()('vip_exp_progress_event', 'vip::PlayerVipExpProgressEvent', [
    ['player', 'text', (d) => d.player],
    ['exp_gained', 'numeric', (d) => dec(d.expGained)],
    ['total_exp', 'numeric', (d) => dec(d.totalExp)],
    ['vip_level', 'int', (d) => d.vipLevel],
  ]),
  daily_streak_claimed_event: spec<DailyStreakClaimed>()('daily_streak_claimed_event', 'daily_streak::DailyStreakClaimedEvent', [
    ['player', 'text', (d) => d.player],
    ['streak_day', 'numeric', (d) => dec(d.streakDay)],
    ['reward', 'numeric', (d) => dec(d.reward)],
  ]),
  daily_streak_reset_event: spec<DailyStreakReset>()('daily_streak_reset_event', 'daily_streak::DailyStreakResetEvent', [
    ['player', 'text', (d) => d.player],
    ['previous_streak', 'numeric', (d) => dec(d.previousStreak)],
  ]),
  referral_reward_event: spec<ReferralReward>()('referral_reward_event', 'referral::ReferralRewardEvent', [
    ['referrer', 'text', (d) => d.referrer],
    ['referee', 'text', (d) => d.referee],
    ['coin_type', 'text', (d) => d.coinType],
    ['amount', 'numeric', (d) => dec(d.amount)],
  ]),
  house_liquidity_event: spec<HouseLiquidity>()('house_liquidity_event', 'house::HouseLiquidityEvent', liquidityColumns),
  secondary_house_liquidity_event: spec<HouseLiquidity>()('secondary_house_liquidity_event', 'secondary_house::SecondaryHouseLiquidityEvent', liquidityColumns),
  // Feeds no leaderboard: the giveaway settlement job (src/services/giveaways/service.ts) reads it.
  giveaway_created_event: spec<GiveawayCreated>()('giveaway_created_event', 'giveaway::GiveawayCreatedEvent', [
    ['giveaway_id', 'text', (d) => d.giveawayId],
    ['ends_at', 'timestamptz', (d) => isoOfMs(d.endsAtMs)],
  ]),
} as const;

export type KindKey = keyof typeof EVENT_KIND_SPECS;
export type KindData<K extends KindKey> = (typeof EVENT_KIND_SPECS)[K] extends EventKindSpec<K, infer T> ? T : never;

/** Every followed kind, in a stable order. */
export const KIND_SPECS: readonly EventKindSpec<KindKey>[] = Object.values(EVENT_KIND_SPECS) as EventKindSpec<KindKey>[];

/** The event table a kind's rows live in (its key; our own constant, never user input). */
export const tableOf = (kind: KindKey): string => EVENT_KIND_SPECS[kind].key;
