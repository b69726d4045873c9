import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaderboardDocument, LeaderboardRankDocument } from '../../src/generated/graphql';
import { utcWeekStart } from '../../src/services/leaderboards/service';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

describe('leaderboard reads (GraphQL and /api/analytics, /api/stats)', () => {
  let api: TestApi;
  const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';
  const OPERATOR_TOKEN = 'leaderboards-test-operator-token-0123456789';
  beforeAll(async () => {
    api = await startApi({ env: { OPERATOR_TOKEN } });
    const xp = Array.from({ length: 120 }, (_, i) => `('0x${i.toString(16).padStart(4, '0')}', ${(i * 37) % 1000}, ${i % 7})`).join(',');
    await api.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ${xp}`);
    await api.db.query(
      `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count) VALUES
        ('0xa', $1, 18446744073709551615000, 0, 3, 1), ('0xb', $1, 500, 0, 2, 0), ('0xc', '0x0000000000000000000000000000000000000000000000000000000000000005::usdc::USDC', 900, 0, 1, 1)`,
      [SUI],
    );
    const week = utcWeekStart(new Date('2026-11-18T12:00:00Z')).toISOString().slice(0, 10);
    await api.db.query(`INSERT INTO weekly_bet_leaderboard (week_start, player, coin_type, total_wagered, total_payout, bet_count, win_count) VALUES ($1::date, '0xa', $2, 10, 0, 1, 0), ($1::date, '0xb', $2, 20, 0, 1, 0)`, [week, SUI]);
  });
  afterAll(async () => api?.close());

  it('returns the top 100 in score order with ranks, through the typed client', async () => {
    const { body } = await gql(api.url, LeaderboardDocument, { board: 'XP', limit: 100 });
    expect(body.errors).toBeUndefined();
    const entries = body.data!.leaderboard;
    expect(entries).toHaveLength(100);
    expect(entries.map((e) => e.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const scores = entries.map((e) => BigInt(e.score));
    expect(scores.every((s, i) => i === 0 || scores[i - 1] >= s)).toBe(true);
  });

  it("gives a player's rank consistent with the top list", async () => {
    const top = (await gql(api.url, LeaderboardDocument, { board: 'XP', limit: 20 })).body.data!.leaderboard;
    const tenth = top[9];
    const { body } = await gql(api.url, LeaderboardRankDocument, { board: 'XP', player: tenth.player });
    expect(body.data?.leaderboardRank).toMatchObject({ rank: 10, player: tenth.player, score: tenth.score });
    const missing = await gql(api.url, LeaderboardRankDocument, { board: 'XP', player: '0xnobody' });
    expect(missing.body.data?.leaderboardRank).toBeNull();
  });

  it('keeps u64 sums exact and filters by coin type and UTC week', async () => {
    const bet = await fetch(`${api.url}/api/analytics/leaderboards/bet?limit=5`).then((r) => r.json());
    expect(bet.entries.map((e: { player: string; score: string }) => [e.player, e.score])).toEqual([
      ['0xa', '18446744073709551615000'],
      ['0xb', '500'],
    ]);
    const weekly = await fetch(`${api.url}/api/stats/leaderboards/weekly_bet?week=2026-11-22`).then((r) => r.json());
    expect(weekly.entries.map((e: { player: string }) => e.player)).toEqual(['0xb', '0xa']);
    const usdc = await fetch(`${api.url}/api/analytics/leaderboards/bet?coinType=0x5::usdc::USDC`).then((r) => r.json());
    expect(usdc.entries.map((e: { player: string }) => e.player)).toEqual(['0xc']);
    const otherWeek = await fetch(`${api.url}/api/stats/leaderboards/weekly_bet?week=2026-11-23`).then((r) => r.json());
    expect(otherWeek.entries).toEqual([]);
  });

  it('serves repeated reads from the cache until invalidated', async () => {
    await fetch(`${api.url}/api/analytics/leaderboards/bet?limit=3`);
    await api.db.query(`UPDATE bet_leaderboard SET total_wagered = 1 WHERE player = '0xa'`);
    const cached = await fetch(`${api.url}/api/analytics/leaderboards/bet?limit=3`).then((r) => r.json());
    expect(cached.entries[0].player).toBe('0xa');
    await api.services.leaderboards.invalidate();
    const fresh = await fetch(`${api.url}/api/analytics/leaderboards/bet?limit=3`).then((r) => r.json());
    expect(fresh.entries[0].player).toBe('0xb');
    const stats = await fetch(`${api.url}/api/stats/cache`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } }).then((r) => r.json());
    expect(stats.leaderboards.hits).toBeGreaterThan(0);
  });

  it('refuses bad input with the error shape', async () => {
    const badBoard = await fetch(`${api.url}/api/analytics/leaderboards/nope`);
    expect(badBoard.status).toBe(400);
    expect(await badBoard.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    const badCoin = await fetch(`${api.url}/api/analytics/leaderboards/bet?coinType=not-a-type`);
    expect(badCoin.status).toBe(400);
    const badLimit = await fetch(`${api.url}/api/analytics/leaderboards/xp?limit=101`);
    expect(badLimit.status).toBe(400);
    const gqlBad = await gql(api.url, LeaderboardDocument, { board: 'XP', limit: 0 });
    expect(gqlBad.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
  });
});
