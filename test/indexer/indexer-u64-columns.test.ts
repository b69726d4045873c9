import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { createEventStore } from '../../src/indexer/store.js';

// Daily streak counters are u64 on chain; their columns hold the whole range exactly
// (migration 20261122171556_daily_streak_u64), so an extreme value cannot stop the indexer.
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

const U64_MAX = (1n << 64n) - 1n;
const meta = (seq: number) => ({ txDigest: 'D1', eventSeq: seq, checkpoint: 7n, timestampMs: Date.UTC(2026, 0, 5), sender: `0x${'1'.repeat(64)}`, type: 'x' });

describe('daily streak u64 columns', () => {
  it('stores streak_day and previous_streak up to 2^64-1 exactly', async () => {
    const store = createEventStore({ db: t.db });
    const player = `0x${'a'.repeat(64)}`;
    await store.writeBatch({ kind: 'daily_streak_claimed_event', events: [{ ...meta(0), data: { player, streakDay: U64_MAX, reward: U64_MAX } }], cursor: null, nextCursor: 'c1' }, 'graphql');
    await store.writeBatch({ kind: 'daily_streak_reset_event', events: [{ ...meta(1), data: { player, previousStreak: U64_MAX - 1n } }], cursor: null, nextCursor: 'c2' }, 'graphql');
    const [claimed] = await t.db.query<{ v: string }>('SELECT streak_day::text AS v FROM daily_streak_claimed_event');
    const [reset] = await t.db.query<{ v: string }>('SELECT previous_streak::text AS v FROM daily_streak_reset_event');
    expect(claimed.v).toBe(U64_MAX.toString());
    expect(reset.v).toBe((U64_MAX - 1n).toString());
  });
});
