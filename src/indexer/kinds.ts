import { normalizeMoveType } from '../input/move-type';
import { EVENT_KIND_SPECS, KIND_SPECS, type KindData, type KindKey } from '../chain-events/kinds.js';
import { FieldReader } from './decode.js';

export type { KindData, KindKey } from '../chain-events/kinds.js';

/** A registry kind as the indexer follows it: its Move type and how to read its event JSON. */
export interface EventKind<K extends string = string, T = unknown> {
  key: K;
  /** Move type without the package: `module::Name`. */
  moveType: string;
  /** Typed values from the event's JSON; throws EventDecodeError on a malformed event. */
  decode(json: Record<string, unknown>): T;
}

const liquidity = (r: FieldReader): KindData<'house_liquidity_event'> => ({
  action: r.oneOf('action', ['deposit', 'withdraw'] as const),
  provider: r.address('provider'),
  coinType: r.typeName('coin_type'),
  amount: r.u64('amount'),
  houseBalance: r.u64('house_balance'),
});

/** One decoder per registry kind (a kind without one does not compile). */
const DECODERS: { [K in KindKey]: (r: FieldReader) => KindData<K> } = {
  bet_result_event: (r) => ({
    player: r.address('player'),
    gameId: r.u64('game_id'),
    coinType: r.typeName('coin_type'),
    stake: r.u64('stake'),
    payout: r.u64('payout'),
    won: r.bool('won'),
  }),
  vip_exp_progress_event: (r) => ({
    player: r.address('player'),
    expGained: r.u64('exp_gained'),
    totalExp: r.u64('total_exp'),
    vipLevel: r.u8('vip_level'),
  }),
  daily_streak_claimed_event: (r) => ({
    player: r.address('player'),
    streakDay: r.u64('streak_day'),
    reward: r.u64('reward'),
  }),
  daily_streak_reset_event: (r) => ({
    player: r.address('player'),
    previousStreak: r.u64('previous_streak'),
  }),
  referral_reward_event: (r) => ({
    referrer: r.address('referrer'),
    referee: r.address('referee'),
    coinType: r.typeName('coin_type'),
    amount: r.u64('amount'),
  }),
  house_liquidity_event: liquidity,
  secondary_house_liquidity_event: liquidity,
  giveaway_created_event: (r) => ({
    giveawayId: r.address('giveaway_id'),
    endsAtMs: r.u64('ends_at_ms'),
  }),
};

function followed<K extends KindKey>(key: K): EventKind<K, KindData<K>> {
  const decode = DECODERS[key] as (r: FieldReader) => KindData<K>;
  return { key, moveType: EVENT_KIND_SPECS[key].moveType, decode: (json) => decode(new FieldReader(key, json)) };
}

export const EVENT_KINDS = Object.fromEntries(KIND_SPECS.map((s) => [s.key, followed(s.key)])) as unknown as { [K in KindKey]: EventKind<K, KindData<K>> };

export type AnyEventKind = (typeof EVENT_KINDS)[KindKey];

/** Every followed kind, in the registry's order. */
export const KIND_LIST: readonly AnyEventKind[] = KIND_SPECS.map((s) => EVENT_KINDS[s.key]);

/** Fully qualified, normalized Move type of a kind in the given package. */
export function eventTypeOf(kind: Pick<EventKind, 'moveType'>, packageId: string): string {
  return normalizeMoveType(`${packageId}::${kind.moveType}`);
}
