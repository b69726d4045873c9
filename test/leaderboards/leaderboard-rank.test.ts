// leaderboardRank against a brute-force ranking (score DESC, address ASC) after every kind of
// write the boards see: bulk inserts, upserts, moves across score buckets, deletes, truncation.
// The bucket table the rank reads must equal a fresh aggregate of the boards after each step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaderboardRankDocument, type LeaderboardRankQueryVariables } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';
const USDC = '0x0000000000000000000000000000000000000000000000000000000000000005::usdc::USDC';
const addr = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

describe('leaderboardRank from score buckets', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  /** Every player's expected rank, computed here from the rows. */
  async function expectedRanks(sql: string, params: unknown[] = []): Promise<Map<string, number>> {
    const rows = await api.db.query<{ player: string; score: string }>(sql, params);
    rows.sort((a, b) => {
      const d = BigInt(b.score) - BigInt(a.score);
      return d !== 0n ? (d > 0n ? 1 : -1) : a.player < b.player ? -1 : a.player > b.player ? 1 : 0;
    });
    return new Map(rows.map((r, i) => [r.player, i + 1]));
  }

  async function rankOf(vars: LeaderboardRankQueryVariables): Promise<number | null> {
    const { body } = await gql(api.url, LeaderboardRankDocument, vars);
    expect(body.errors).toBeUndefined();
    return body.data!.leaderboardRank?.rank ?? null;
  }

  /** The bucket table equals a fresh aggregate of all four boards. */
  async function expectBucketsInStep(): Promise<void> {
    const drift = await api.db.query(
      `WITH fresh AS (
         SELECT 'xp' AS board, '' AS scope, leaderboard_rank_bucket(total_xp) AS bucket, count(*) AS n FROM xp_leaderboard GROUP BY 3
         UNION ALL SELECT 'bet', coin_type, leaderboard_rank_bucket(total_wagered), count(*) FROM bet_leaderboard GROUP BY 2, 3
         UNION ALL SELECT 'weekly_bet', to_char(week_start, 'YYYY-MM-DD') || ' ' || coin_type, leaderboard_rank_bucket(total_wagered), count(*) FROM weekly_bet_leaderboard GROUP BY 2, 3
         UNION ALL SELECT 'referral', coin_type, leaderboard_rank_bucket(total_rewards), count(*) FROM referral_leaderboard GROUP BY 2, 3)
       SELECT * FROM fresh f FULL JOIN (SELECT * FROM leaderboard_rank_bucket WHERE n <> 0) b USING (board, scope, bucket)
        WHERE f.n IS DISTINCT FROM b.n`,
    );
    expect(drift).toEqual([]);
  }

  /** Ranks of a spread of players (first, last, ties, bucket edges) match the brute-force order. */
  async function expectXpRanks(): Promise<void> {
    const expected = await expectedRanks('SELECT player, total_xp::text AS score FROM xp_leaderboard');
    const all = [...expected.entries()];
    const sample = [...all.slice(0, 3), ...all.slice(-3), ...all.filter((_, i) => i % 97 === 0)];
    for (const [player, rank] of sample) expect(await rankOf({ board: 'XP', player }), player).toBe(rank);
  }

  it('ranks an XP board spread over many decades, with ties and zeros', async () => {
    // Scores from 0 to ~10^20: every bucket width, several players per exact score.
    await api.db.query(
      `INSERT INTO xp_leaderboard (player, total_xp, vip_level)
       SELECT '0x' || lpad(to_hex(i), 64, '0'), CASE WHEN i % 11 = 0 THEN 0 ELSE trunc(power(10::numeric, (i % 21)) * ((i * 37) % 1000) / 100) END, i % 5
         FROM generate_series(1, 1500) AS i`,
    );
    await expectBucketsInStep();
    await expectXpRanks();
    expect(await rankOf({ board: 'XP', player: addr(999_999) })).toBeNull();
  });

  it('stays exact through upserts, moves across buckets and deletes', async () => {
    await api.db.query(`UPDATE xp_leaderboard SET total_xp = total_xp * 10 + 7 WHERE (('x' || right(player, 4))::bit(16)::int) % 3 = 0`);
    await api.db.query(
      `INSERT INTO xp_leaderboard (player, total_xp, vip_level)
       SELECT '0x' || lpad(to_hex(i), 64, '0'), i::numeric * 1000, 1 FROM generate_series(1400, 1700) AS i
       ON CONFLICT (player) DO UPDATE SET total_xp = xp_leaderboard.total_xp + EXCLUDED.total_xp`,
    );
    await api.db.query(`DELETE FROM xp_leaderboard WHERE (('x' || right(player, 4))::bit(16)::int) % 7 = 0`);
    await expectBucketsInStep();
    await expectXpRanks();
  });

  it('keeps coins and weeks apart on the bet, weekly and referral boards', async () => {
    await api.db.query(
      `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count)
       SELECT '0x' || lpad(to_hex(i), 64, '0'), CASE WHEN i % 2 = 0 THEN $1 ELSE $2 END, (i % 50)::numeric * 123456789, 0, 1, 0 FROM generate_series(1, 400) AS i`,
      [SUI, USDC],
    );
    await api.db.query(
      `INSERT INTO weekly_bet_leaderboard (week_start, player, coin_type, total_wagered, total_payout, bet_count, win_count)
       SELECT CASE WHEN i % 3 = 0 THEN date '2026-11-16' ELSE date '2026-11-23' END, '0x' || lpad(to_hex(i), 64, '0'), $1, (i % 40)::numeric * 1000000007, 0, 1, 0
         FROM generate_series(1, 300) AS i`,
      [SUI],
    );
    await api.db.query(
      `INSERT INTO referral_leaderboard (referrer, coin_type, total_rewards, referral_count)
       SELECT '0x' || lpad(to_hex(i), 64, '0'), $1, i::numeric * i * 1000, i % 9 FROM generate_series(1, 200) AS i`,
      [SUI],
    );
    await expectBucketsInStep();
    const usdc = await expectedRanks('SELECT player, total_wagered::text AS score FROM bet_leaderboard WHERE coin_type = $1', [USDC]);
    for (const [player, rank] of [...usdc.entries()].filter((_, i) => i % 23 === 0)) {
      expect(await rankOf({ board: 'BET', coinType: '0x5::usdc::USDC', player })).toBe(rank);
    }
    const week = await expectedRanks(`SELECT player, total_wagered::text AS score FROM weekly_bet_leaderboard WHERE week_start = date '2026-11-16'`);
    for (const [player, rank] of [...week.entries()].filter((_, i) => i % 11 === 0)) {
      expect(await rankOf({ board: 'WEEKLY_BET', week: '2026-11-18', player })).toBe(rank);
    }
    const referral = await expectedRanks('SELECT referrer AS player, total_rewards::text AS score FROM referral_leaderboard');
    for (const [player, rank] of [...referral.entries()].filter((_, i) => i % 19 === 0)) {
      expect(await rankOf({ board: 'REFERRAL', player })).toBe(rank);
    }
  });

  it('empties a truncated board', async () => {
    await api.db.query('TRUNCATE referral_leaderboard');
    await expectBucketsInStep();
    expect(await rankOf({ board: 'REFERRAL', player: addr(5) })).toBeNull();
  });
});
