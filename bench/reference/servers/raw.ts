// Raw Fastify + `pg`: one route per scenario answering the same data as the GraphQL servers.
import Fastify from 'fastify';
import pg from 'pg';
import { handwritten, handwrittenBlog, type BoardName } from '../handwritten';
import { announce } from './common';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10, options: '-c jit=off' });
const sql = handwritten(pool);
const blogPool = new pg.Pool({ connectionString: process.env.BLOG_DATABASE_URL, max: 10, options: '-c jit=off' });
const blog = handwrittenBlog(blogPool);

const app = Fastify();
app.get('/raw/trivial', async () => ({ data: { __typename: 'Query' } }));
app.get<{ Params: { board: BoardName } }>('/raw/top/:board', async (req) => ({ data: { leaderboard: await sql.top(req.params.board, 100) } }));
app.get<{ Querystring: { player: string; count: string } }>('/raw/neighbours', async (req) => ({ data: { leaderboardNeighbours: await sql.neighbours(req.query.player, Number(req.query.count)) } }));
app.get('/raw/quests/list', async () => ({ data: { questCampaigns: await sql.questCampaigns() } }));
app.post<{ Body: { campaignSlug: string; checks: Array<{ questKey: string; player: string }> } }>('/raw/quests/status', async (req) => ({
  data: { questBatchStatus: await sql.questBatchStatus(req.body.campaignSlug, req.body.checks) },
}));
app.get('/raw/nested', async () => {
  const entries = await sql.top('BET', 20);
  const players = entries.map((e) => e.player);
  const [bets, profiles] = await Promise.all([sql.recentBetsOf(players, 20), sql.profilesOf(players)]);
  const profile = (p: string) => {
    const found = profiles.get(p);
    return found ? { displayName: found.displayName, avatarUrl: found.avatarUrl } : null;
  };
  return {
    data: {
      leaderboard: entries.map((e) => ({
        rank: e.rank,
        player: e.player,
        score: e.score,
        profile: profile(e.player),
        recentBets: (bets.get(e.player) ?? []).map((b) => ({ txDigest: b.txDigest, gameId: b.gameId, stake: b.stake, payout: b.payout, won: b.won, profile: profile(b.player) })),
      })),
    },
  };
});
app.get<{ Querystring: { page: string; limit: string } }>('/raw/blog/list', async (req) => ({ data: { blogPosts: await blog.list(Number(req.query.page), Number(req.query.limit)) } }));
await announce(app, async () => {
  await app.close();
  await pool.end();
  await blogPool.end();
});
