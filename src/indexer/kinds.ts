import { normalizeStructTag } from '@mysten/sui/utils';
import { fieldReader } from './decode.js';

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

export type LiquidityAction = 'deposit' | 'withdraw';

export interface HouseLiquidity {
  action: LiquidityAction;
  provider: string;
  coinType: string;
  amount: bigint;
  houseBalance: bigint;
}

export interface EventKind<K extends string = string, T = unknown> {
  /** Kind key; also the name of the kind's event table and its row in the cursor table. */
  key: K;
  /** Move type without the package: `module::Name`. */
  moveType: string;
  /** Typed values from the event's JSON; throws EventDecodeError on a malformed event. */
  decode(json: Record<string, unknown>): T;
}

const kind = <K extends string, T>(key: K, moveType: string, decode: (r: ReturnType<typeof fieldReader>) => T): EventKind<K, T> => ({
  key,
  moveType,
  decode: (json) => decode(fieldReader(key, json)),
});

const liquidity = (r: ReturnType<typeof fieldReader>): HouseLiquidity => ({
  action: r.oneOf('action', ['deposit', 'withdraw'] as const),
  provider: r.address('provider'),
  coinType: r.typeName('coin_type'),
  amount: r.u64('amount'),
  houseBalance: r.u64('house_balance'),
});

export const EVENT_KINDS = {
  bet_result_event: kind('bet_result_event', 'game::BetResultEvent', (r): BetResult => ({
    player: r.address('player'),
    gameId: r.u64('game_id'),
    coinType: r.typeName('coin_type'),
    stake: r.u64('stake'),
    payout: r.u64('payout'),
    won: r.bool('won'),
  })),
  vip_exp_progress_event: kind('vip_exp_progress_event', 'vip::PlayerVipExpProgressEvent', (r): VipExpProgress => ({
    player: r.address('player'),
    expGained: r.u64('exp_gained'),
    totalExp: r.u64('total_exp'),
    vipLevel: r.u8('vip_level'),
  })),
  daily_streak_claimed_event: kind('daily_streak_claimed_event', 'daily_streak::DailyStreakClaimedEvent', (r): DailyStreakClaimed => ({
    player: r.address('player'),
    streakDay: r.u64('streak_day'),
    reward: r.u64('reward'),
  })),
  daily_streak_reset_event: kind('daily_streak_reset_event', 'daily_streak::DailyStreakResetEvent', (r): DailyStreakReset => ({
    player: r.address('player'),
    previousStreak: r.u64('previous_streak'),
  })),
  referral_reward_event: kind('referral_reward_event', 'referral::ReferralRewardEvent', (r): ReferralReward => ({
    referrer: r.address('referrer'),
    referee: r.address('referee'),
    coinType: r.typeName('coin_type'),
    amount: r.u64('amount'),
  })),
  house_liquidity_event: kind('house_liquidity_event', 'house::HouseLiquidityEvent', liquidity),
  secondary_house_liquidity_event: kind('secondary_house_liquidity_event', 'secondary_house::SecondaryHouseLiquidityEvent', liquidity),
} as const;

export type KindKey = keyof typeof EVENT_KINDS;
export type KindData<K extends KindKey> = ReturnType<(typeof EVENT_KINDS)[K]['decode']>;
export type AnyEventKind = (typeof EVENT_KINDS)[KindKey];

/** Every followed kind, in a stable order. */
export const KIND_LIST: readonly AnyEventKind[] = Object.values(EVENT_KINDS);

/** Fully qualified, normalized Move type of a kind in the given package. */
export function eventTypeOf(kind: Pick<EventKind, 'moveType'>, packageId: string): string {
  return normalizeStructTag(`${packageId}::${kind.moveType}`);
}

export function isKindKey(value: string): value is KindKey {
  return Object.hasOwn(EVENT_KINDS, value);
}
