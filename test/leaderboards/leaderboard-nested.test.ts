/**
 * The nested read (leaderboard rows → each player's recent bets → each bet's player profile) over
 * real HTTP, with every statement the API sends to the database counted on the way (a counting
 * wrapper around the Db the runtime is given: raw SQL and Prisma operations). The count must
 * be the same small constant for 5 rows × 3 bets and 20 rows × 20 bets: per-item lookups are
 * batched (DataLoader), no N+1. Also the neighbours read around a player's rank.
 */
import { normalizeStructTag } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, type Db, type TestDb } from '../helpers/db';
import { codesOf, postGraphql } from '../helpers/graphql-wire';

const SUI = normalizeStructTag('0x2::sui::SUI');
const PLAYERS = 25;
const BETS_PER_PLAYER = 22;
const player = (i: number) => `0x${(i + 1).toString(16).padStart(64, '0')}`;
/** Players 0..24 with descending scores (player 0 first); two share a score to exercise the address tie-break. */
const scoreOf = (i: number) => (i === 6 ? 1000 - 5 : 1000 - i) * 1_000_000_000;
/** Every fifth player has no profile. */
const hasProfile = (i: number) => i % 5 !== 4;

/** The Db with every statement recorded: raw SQL through `query`, Prisma operations through a query extension. */
function counting(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const prisma = db.prisma.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        statements.push(`prisma ${model ?? ''}.${operation}`);
        return query(args);
      },
    },
  }) as unknown as Db['prisma'];
  const query: Db['query'] = (sql, params, opts) => {
    statements.push(sql);
    return db.query(sql, params, opts);
  };
  return { db: { ...db, prisma, query }, statements };
}

let testDb: TestDb;
let api: TestApi;
let statements: string[];

beforeAll(async () => {
  testDb = await createTestDb();
  const wrapped = counting(testDb.db);
  statements = wrapped.statements;
  api = await startApi({ db: wrapped.db });
  const ids = Array.from({ length: PLAYERS }, (_, i) => i);
  await testDb.db.query(
    `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count)
     SELECT p, $1, s, 0, 1, 0 FROM unnest($2::text[], $3::numeric[]) AS t(p, s)`,
    [SUI, ids.map(player), ids.map((i) => String(scoreOf(i)))],
  );
  await testDb.db.query(
    `INSERT INTO bet_result_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, player, game_id, coin_type, stake, payout, won)
     SELECT 'd-' || p || '-' || n, 0, n, timestamptz '2026-11-20T00:00:00Z' + make_interval(secs => n), p, p, 'g', $1, n, 0, false
       FROM unnest($2::text[]) AS t(p), generate_series(1, $3::int) AS n`,
    [SUI, ids.map(player), BETS_PER_PLAYER],
  );
  await testDb.db.query(`INSERT INTO profile (wallet_address, display_name) SELECT p, 'name of ' || p FROM unnest($1::text[]) AS t(p)`, [ids.filter(hasProfile).map(player)]);
}, 120_000);

afterAll(async () => {
  await api?.close();
  await testDb?.cleanup();
});

const NESTED = `query Nested($rows: Int!, $bets: Int!) {
  leaderboard(board: BET, limit: $rows) { rank player profile { walletAddress displayName }
    recentBets(limit: $bets) { txDigest player profile { displayName } } } }`;

interface NestedEntry {
  rank: number;
  player: string;
  profile: { walletAddress: string; displayName: string | null } | null;
  recentBets: Array<{ txDigest: string; player: string; profile: { displayName: string | null } | null }>;
}

/** The nested query and the statements it caused that touch its data (background work such as the quest watch is left out). */
async function nested(rows: number, bets: number): Promise<{ entries: NestedEntry[]; sql: string[] }> {
  await api.services.leaderboards.invalidate(); // the top-N comes from the database each time
  const from = statements.length;
  const res = await postGraphql(api.url, { query: NESTED, variables: { rows, bets } });
  expect(res.body.errors).toBeUndefined();
  const sql = statements.slice(from).filter((s) => /bet_leaderboard|bet_result_event|profile|betResultEvent|betLeaderboard/i.test(s));
  return { entries: res.body.data.leaderboard, sql };
}

describe('nested read: leaderboard → recent bets → profile', () => {
  it('costs the same 3 statements for 5 × 3 and for 20 × 20 items (one per level, no N+1)', async () => {
    const small = await nested(5, 3);
    const large = await nested(20, 20);
    expect(small.entries.flatMap((e) => e.recentBets)).toHaveLength(15);
    expect(large.entries.flatMap((e) => e.recentBets)).toHaveLength(400);
    // top-N of the board, the bets of all listed players, the profiles of all of them (both levels share the loader)
    expect(small.sql).toHaveLength(3);
    expect(large.sql).toHaveLength(3);
  });

  it('answers every level correctly', async () => {
    const { entries } = await nested(20, 20);
    const order = Array.from({ length: PLAYERS }, (_, i) => i).sort((a, b) => scoreOf(b) - scoreOf(a) || player(a).localeCompare(player(b)));
    expect(entries.map((e) => e.player)).toEqual(order.slice(0, 20).map(player));
    expect(entries.map((e) => e.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const e of entries) {
      const i = Number.parseInt(e.player.slice(2), 16) - 1;
      const name = hasProfile(i) ? `name of ${e.player}` : null;
      expect(e.profile).toEqual(name ? { walletAddress: e.player, displayName: name } : null);
      expect(e.recentBets.map((b) => b.txDigest)).toEqual(Array.from({ length: 20 }, (_, k) => `d-${e.player}-${BETS_PER_PLAYER - k}`));
      expect(e.recentBets.every((b) => b.player === e.player && (b.profile?.displayName ?? null) === name)).toBe(true);
    }
  });

  it('keeps loaders per operation: two queries in parallel each read their own data', async () => {
    const [a, b] = await Promise.all([nested(2, 1), nested(3, 2)]);
    expect(a.entries.map((e) => e.recentBets.length)).toEqual([1, 1]);
    expect(b.entries.map((e) => e.recentBets.length)).toEqual([2, 2, 2]);
  });
});

describe('leaderboardNeighbours', () => {
  const query = (p: string, count: number) =>
    postGraphql(api.url, { query: `{ leaderboardNeighbours(board: BET, player: "${p}", count: ${count}) { rank player score } }` });

  it('lists the player with its neighbours in rank order, ranks as on the full board', async () => {
    const full = (await postGraphql(api.url, { query: '{ leaderboard(board: BET, limit: 25) { rank player score } }' })).body.data.leaderboard;
    const tenth = full[9];
    const around = (await query(tenth.player, 3)).body.data.leaderboardNeighbours;
    expect(around).toEqual(full.slice(6, 13));
    // the first player has nobody ahead; the last nobody behind
    expect((await query(full[0].player, 2)).body.data.leaderboardNeighbours).toEqual(full.slice(0, 3));
    expect((await query(full[24].player, 2)).body.data.leaderboardNeighbours).toEqual(full.slice(22, 25));
  });

  it('is empty for a wallet not on the board and refuses a count over 50', async () => {
    expect((await query(`0x${'ee'.repeat(32)}`, 5)).body.data.leaderboardNeighbours).toEqual([]);
    expect(codesOf((await query(player(0), 51)).body)).toEqual(['VALIDATION_FAILED']);
  });
});
