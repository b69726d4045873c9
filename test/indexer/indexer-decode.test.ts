import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/indexer/kinds.js';
import { EVENT_KIND_SPECS } from '../../src/chain-events/kinds.js';
import { EventDecodeError } from '../../src/indexer/decode.js';
import { followKind } from '../../src/indexer/follow.js';
import type { EventSource } from '../../src/indexer/sources/index.js';

const player = '0x' + 'ab'.repeat(32);
const bet = { player, game_id: '7', coin_type: '0000000000000000000000000000000000000000000000000000000000000002::sui::SUI', stake: '18446744073709551615', payout: '0', won: true };

describe('event kind decoders', () => {
  it('decodes u64 exactly as bigint and normalizes coin types and addresses', () => {
    expect(EVENT_KINDS.bet_result_event.decode(bet)).toEqual({
      player,
      gameId: 7n,
      coinType: '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI',
      stake: 18446744073709551615n,
      payout: 0n,
      won: true,
    });
    expect(EVENT_KINDS.referral_reward_event.decode({ referrer: '0x2', referee: player, coin_type: { name: '0x2::sui::SUI' }, amount: 5 }).referrer).toBe(
      '0x' + '0'.repeat(63) + '2',
    );
  });

  it('maps liquidity actions from u8 codes or names', () => {
    const base = { provider: player, coin_type: '0x2::sui::SUI', amount: '1', house_balance: '2' };
    expect(EVENT_KINDS.house_liquidity_event.decode({ ...base, action: 0 }).action).toBe('deposit');
    expect(EVENT_KINDS.secondary_house_liquidity_event.decode({ ...base, action: 'Withdraw' }).action).toBe('withdraw');
    expect(() => EVENT_KINDS.house_liquidity_event.decode({ ...base, action: 2 })).toThrow(/"action" must be one of/);
  });

  it.each([
    [{ ...bet, stake: '18446744073709551616' }, /bet_result_event: field "stake" must be a u64/],
    [{ ...bet, stake: '-1' }, /"stake" must be a u64/],
    [{ ...bet, stake: '01' }, /"stake" must be a u64/],
    [{ ...bet, stake: 1.5 }, /"stake" must be a u64/],
    [{ ...bet, won: 'true' }, /"won" must be a boolean/],
    [{ ...bet, player: 'alice' }, /"player" must be a Sui address/],
    [{ ...bet, coin_type: 'SUI' }, /"coin_type" must be a Move type name/],
    [{ ...bet, payout: undefined }, /"payout" must be a u64 .*got nothing \(field missing\)/],
  ])('rejects malformed fields with a clear error (%#)', (json, message) => {
    expect(() => EVENT_KINDS.bet_result_event.decode(json)).toThrow(message);
    expect(() => EVENT_KINDS.bet_result_event.decode(json)).toThrow(EventDecodeError);
  });

  it('decodes giveaways; an end beyond what a timestamp holds is stored as the latest one (never due)', () => {
    const giveaway = EVENT_KINDS.giveaway_created_event.decode({ giveaway_id: '0x5', ends_at_ms: '18446744073709551615' });
    expect(giveaway).toEqual({ giveawayId: '0x' + '0'.repeat(63) + '5', endsAtMs: 18446744073709551615n });
    const endsAt = (d: typeof giveaway) => EVENT_KIND_SPECS.giveaway_created_event.columns.find(([name]) => name === 'ends_at')![2](d);
    expect(endsAt(giveaway)).toBe('9999-12-31T23:59:59.999Z');
    expect(endsAt({ ...giveaway, endsAtMs: 1_767_225_600_000n })).toBe('2026-01-01T00:00:00.000Z');
    expect(() => EVENT_KINDS.giveaway_created_event.decode({ giveaway_id: '0x5', ends_at_ms: '-1' })).toThrow(/"ends_at_ms" must be a u64/);
  });

  it('bounds u8 fields', () => {
    const vip = { player, exp_gained: '1', total_exp: '1', vip_level: 256 };
    expect(() => EVENT_KINDS.vip_exp_progress_event.decode(vip)).toThrow(/"vip_level" must be a u8/);
  });
});

describe('followKind and malformed events', () => {
  const packageId = '0x' + 'cd'.repeat(32);
  const type = `${packageId}::game::BetResultEvent`;
  const event = (txDigest: string, json: Record<string, unknown>) => ({ txDigest, eventSeq: 0, checkpoint: 1n, timestampMs: 0, sender: player, type, json });
  const source: EventSource = {
    transport: 'grpc',
    listEvents: async () => ({ events: [event('GoodTx', bet), event('BadTx', { ...bet, stake: 'x' })], nextCursor: 'c1', hasNextPage: false }),
  };
  const follow = (onMalformedEvent?: () => 'skip' | 'fail') => {
    const controller = new AbortController();
    const batches: number[] = [];
    const done = followKind({
      source,
      kind: EVENT_KINDS.bet_result_event,
      packageId,
      startCursor: null,
      pageSize: 10,
      pollIntervalMs: 10,
      signal: controller.signal,
      onMalformedEvent,
      onBatch: async (b) => {
        batches.push(b.events.length);
        controller.abort();
      },
    });
    return { done, batches };
  };

  it('stops with an error naming the kind, field and transaction', async () => {
    await expect(follow().done).rejects.toThrow(/bet_result_event: field "stake" must be a u64.*\(tx BadTx, event 0\)/);
  });

  it('skips the event when the caller says so', async () => {
    const run = follow(() => 'skip');
    await expect(run.done).resolves.toBe('c1');
    expect(run.batches).toEqual([1]);
  });
});
