/**
 * Game activity feeds over real HTTP (REST under /api/analytics and /api/stats, and GraphQL) from
 * bet_result_event rows: newest first, keyset pages that neither skip nor repeat rows (also for
 * rows sharing a timestamp), filters, big wins by multiplier, and refusals of bad input.
 */
import { normalizeStructTag } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigWinsDocument, RecentBetsDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const SUI = normalizeStructTag('0x2::sui::SUI');
const USDC = normalizeStructTag('0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC');
const ALICE = `0x${'a1'.repeat(32)}`;
const BOB = `0x${'b2'.repeat(32)}`;
const T0 = Date.parse('2026-11-20T12:00:00.000Z');

interface Bet {
  seq: number;
  atMs: number;
  player: string;
  coin: string;
  stake: bigint;
  payout: bigint;
}

/** 30 bets: every third shares its timestamp with the previous one; payouts vary from 0 to 5× stake. */
const BETS: Bet[] = Array.from({ length: 30 }, (_, i) => ({
  seq: i,
  atMs: T0 + (i - (i % 3 === 2 ? 1 : 0)) * 1000 + 123,
  player: i % 2 ? BOB : ALICE,
  coin: i % 5 === 0 ? USDC : SUI,
  stake: 1_000_000_000n,
  payout: BigInt(i % 6) * 1_000_000_000n,
}));

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
  for (const b of BETS) {
    await api.db.query(
      `INSERT INTO bet_result_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, player, game_id, coin_type, stake, payout, won)
       VALUES ($1, 0, $2, $3::timestamptz, $4, $4, '7', $5, $6, $7, $8)`,
      [`digest-${b.seq}`, b.seq, new Date(b.atMs).toISOString(), b.player, b.coin, b.stake.toString(), b.payout.toString(), b.payout > b.stake],
    );
  }
}, 60_000);
afterAll(async () => api?.close());

/** The bets as the feed must list them: newest first, the later-inserted row first within a timestamp. */
const newestFirst = (bets: Bet[]) => [...bets].sort((a, b) => b.atMs - a.atMs || b.seq - a.seq).map((b) => `digest-${b.seq}`);

async function rest(path: string) {
  const res = await fetch(`${api.url}${path}`);
  return { status: res.status, body: await res.json() };
}

async function readAll(path: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await rest(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.body.items.map((i: { txDigest: string }) => i.txDigest));
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

describe('recent bets', () => {
  it('pages newest first without skipping or repeating rows', async () => {
    expect(await readAll('/api/analytics/activity/recent-bets', 4)).toEqual(newestFirst(BETS));
    expect(await readAll('/api/stats/activity/recent-bets', 30)).toEqual(newestFirst(BETS));
  });

  it('shows each bet as indexed', async () => {
    const page = await rest('/api/analytics/activity/recent-bets?limit=1');
    const newest = BETS[29];
    expect(page.body.items[0]).toEqual({
      cursor: page.body.nextCursor,
      txDigest: 'digest-29',
      eventSeq: 0,
      timestamp: new Date(newest.atMs).toISOString(),
      player: newest.player,
      gameId: '7',
      coinType: newest.coin,
      stake: '1000000000',
      payout: '5000000000',
      won: true,
    });
  });

  it('filters by player and coin type', async () => {
    expect(await readAll(`/api/analytics/activity/recent-bets?player=${BOB}`, 5)).toEqual(newestFirst(BETS.filter((b) => b.player === BOB)));
    expect(await readAll(`/api/analytics/activity/recent-bets?coinType=${encodeURIComponent(USDC)}`, 2)).toEqual(newestFirst(BETS.filter((b) => b.coin === USDC)));
  });

  it('gives GraphQL the same pages', async () => {
    const first = await gql(api.url, RecentBetsDocument, { limit: 3 });
    const rest1 = await rest('/api/analytics/activity/recent-bets?limit=3');
    expect(first.body.data?.recentBets).toEqual(rest1.body);
    const second = await gql(api.url, RecentBetsDocument, { limit: 3, cursor: first.body.data!.recentBets.nextCursor });
    expect(second.body.data?.recentBets.items.map((i) => i.txDigest)).toEqual(newestFirst(BETS).slice(3, 6));
  });
});

describe('big wins', () => {
  it('lists won bets paying at least minMultiplier × stake (default 2), newest first', async () => {
    expect(await readAll('/api/analytics/activity/big-wins', 3)).toEqual(newestFirst(BETS.filter((b) => b.payout >= 2n * b.stake)));
    expect(await readAll('/api/stats/activity/big-wins?minMultiplier=4.5', 3)).toEqual(newestFirst(BETS.filter((b) => b.payout * 10n >= 45n * b.stake)));
    const viaGraphql = await gql(api.url, BigWinsDocument, { minMultiplier: 5, limit: 100 });
    expect(viaGraphql.body.data?.bigWins.items.map((i) => i.txDigest)).toEqual(newestFirst(BETS.filter((b) => b.payout >= 5n * b.stake)));
    expect(viaGraphql.body.data?.bigWins.nextCursor).toBeNull();
  });
});

describe('bad input', () => {
  it('is refused with VALIDATION_FAILED on both transports', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=bm9wZQ', 'player=alice', 'coinType=not-a-type']) {
      const res = await rest(`/api/analytics/activity/recent-bets?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('VALIDATION_FAILED');
    }
    expect((await rest('/api/analytics/activity/big-wins?minMultiplier=0.5')).status).toBe(400);
    for (const variables of [{ limit: 0 }, { cursor: 'bm9wZQ' }, { player: 'alice' }]) {
      const res = await gql(api.url, RecentBetsDocument, variables);
      expect(res.body.errors?.[0].extensions?.code, JSON.stringify(variables)).toBe('VALIDATION_FAILED');
    }
  });
});
