/** Leaderboard pages past the top 100 over real HTTP (REST and GraphQL): cursor pages that keep tied scores in one order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaderboardPageDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const PLAYERS = 260;
/** Five distinct scores for 260 players: every page edge falls inside a run of ties. */
const scoreOf = (i: number) => (i % 5) * 100;
const playerOf = (i: number) => `0x${(i * 7919 % 10007).toString(16).padStart(5, '0')}`;

interface Entry {
  rank: number;
  player: string;
  score: string;
  cursor: string;
}

describe('leaderboard pages (after = the last entry’s cursor)', () => {
  let api: TestApi;
  /** The board as the database orders it: score descending, ties by address. */
  let expected: string[];
  beforeAll(async () => {
    api = await startApi();
    const rows = Array.from({ length: PLAYERS }, (_, i) => `('${playerOf(i)}', ${scoreOf(i)}, 0)`).join(',');
    await api.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ${rows}`);
    expected = Array.from({ length: PLAYERS }, (_, i) => i)
      .sort((a, b) => scoreOf(b) - scoreOf(a) || (playerOf(a) < playerOf(b) ? -1 : 1))
      .map(playerOf);
  }, 120_000);
  afterAll(async () => api?.close());

  async function restPages(limit: number): Promise<Entry[][]> {
    const pages: Entry[][] = [];
    let after: string | undefined;
    for (;;) {
      const res = await fetch(`${api.url}/api/analytics/leaderboards/xp?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(res.status).toBe(200);
      const page = ((await res.json()) as { entries: Entry[] }).entries;
      if (page.length === 0) return pages;
      pages.push(page);
      after = page.at(-1)!.cursor;
    }
  }

  it('REST: pages of 100 cover the board once, in board order, with ranks 1…260', async () => {
    const pages = await restPages(100);
    expect(pages.map((p) => p.length)).toEqual([100, 100, 60]);
    const all = pages.flat();
    expect(all.map((e) => e.player)).toEqual(expected);
    expect(all.map((e) => e.rank)).toEqual(Array.from({ length: PLAYERS }, (_, i) => i + 1));
    // Read again: tied players keep their places.
    expect((await restPages(100)).flat().map((e) => e.player)).toEqual(expected);
  });

  it('GraphQL: the same pages; a cursor page agrees with the player rank lookup', async () => {
    const all: Entry[] = [];
    let after: string | null | undefined = null;
    for (let i = 0; i < 5; i++) {
      const { body } = await gql(api.url, LeaderboardPageDocument, { board: 'XP', limit: 77, after });
      expect(body.errors).toBeUndefined();
      const page: Entry[] = body.data!.leaderboard;
      if (page.length === 0) break;
      all.push(...page);
      after = page.at(-1)!.cursor;
    }
    expect(all.map((e) => e.player)).toEqual(expected);
    const deep = all[200]!;
    const rank = await fetch(`${api.url}/api/analytics/leaderboards/xp/players/${deep.player}`).then((r) => r.json());
    expect(rank.entry).toMatchObject({ rank: 201, player: deep.player, score: deep.score });
  });

  it('refuses a cursor that is not one', async () => {
    const bad = await fetch(`${api.url}/api/analytics/leaderboards/xp?after=not-a-cursor`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    const gqlBad = await gql(api.url, LeaderboardPageDocument, { board: 'XP', limit: 10, after: 'x' });
    expect(gqlBad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
