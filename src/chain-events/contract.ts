import type { KindKey } from './kinds.js';

/**
 * The chain contract the code assumes, as data: the fields the indexer's decoders read from each
 * event struct, and the Move functions the chain writer calls. At start both are compared with the
 * package's normalized modules on the configured node (./contract-check.ts).
 *
 * A type is written as Move prints it: `u64`, `address`, `vector<u8>`, `&mut 0x2::clock::Clock`.
 * A datatype without an address (`giveaway::Giveaway`) matches that module and name in any package,
 * because a package's own types keep the address of its first version across upgrades.
 * Where a decoder accepts several encodings, every accepted type is listed.
 */

/** Struct fields the code reads: name → the Move types it accepts. Fields the code ignores are not listed. */
export type StructFields = Readonly<Record<string, readonly string[]>>;

export interface StructContract {
  module: string;
  name: string;
  fields: StructFields;
}

export interface FunctionContract {
  module: string;
  name: string;
  /** Parameter types in order, without the trailing `&mut TxContext` the runtime supplies. */
  parameters: readonly string[];
}

const ADDRESS = ['address'];
const U64 = ['u64'];
const U8 = ['u8'];
const BOOL = ['bool'];
/** FieldReader.typeName: a `String` or a `TypeName` ({ name }). */
const TYPE_NAME = ['0x1::string::String', '0x1::ascii::String', '0x1::type_name::TypeName'];
/** FieldReader.oneOf: a u8 index or the name as a string. */
const ENUM_TAG = ['u8', '0x1::string::String', '0x1::ascii::String'];
/** An `ID` is rendered as its address in event JSON, so either declaration reads the same. */
const OBJECT_ID = ['0x2::object::ID', 'address'];

const liquidity: StructFields = { action: ENUM_TAG, provider: ADDRESS, coin_type: TYPE_NAME, amount: U64, house_balance: U64 };

/** Per followed kind, the fields its decoder (src/indexer/kinds.ts) reads; the struct is the kind's `moveType`. */
export const EVENT_FIELDS: { readonly [K in KindKey]: StructFields } = {
  bet_result_event: { player: ADDRESS, game_id: U64, coin_type: TYPE_NAME, stake: U64, payout: U64, won: BOOL },
  vip_exp_progress_event: { player: ADDRESS, exp_gained: U64, total_exp: U64, vip_level: U8 },
  daily_streak_claimed_event: { player: ADDRESS, streak_day: U64, reward: U64 },
  daily_streak_reset_event: { player: ADDRESS, previous_streak: U64 },
  referral_reward_event: { referrer: ADDRESS, referee: ADDRESS, coin_type: TYPE_NAME, amount: U64 },
  house_liquidity_event: liquidity,
  secondary_house_liquidity_event: liquidity,
  giveaway_created_event: { giveaway_id: OBJECT_ID, ends_at_ms: U64 },
};

/** The Move functions the chain writer's builders call, keyed by write kind. */
export const CALL_TARGETS = {
  /** In PLATFORM_PACKAGE_ID: `settle(giveaway: &mut Giveaway, clock: &Clock)`. */
  'giveaway.settle': { module: 'giveaway', name: 'settle', parameters: ['&mut giveaway::Giveaway', '&0x2::clock::Clock'] },
  /** In PLATFORM_PACKAGE_ID: `payout(pool: &mut WheelPool, player: address, reward: u64)`; the spec names no payout function (docs/decisions.md). */
  'welcome-wheel.payout': { module: 'welcome_wheel', name: 'payout', parameters: ['&mut welcome_wheel::WheelPool', 'address', 'u64'] },
  /** In CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID: SuiNS's `subdomains::new` (the call @mysten/suins's `createSubName` makes). */
  'nameservice.subname': {
    module: 'subdomains',
    name: 'new',
    parameters: ['&mut suins::SuiNS', '&suins_registration::SuinsRegistration', '&0x2::clock::Clock', '0x1::string::String', 'u64', 'bool', 'bool'],
  },
} as const satisfies Record<string, FunctionContract>;

export type CallTargetKind = keyof typeof CALL_TARGETS;
