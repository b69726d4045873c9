// Mercurius with graphql-jit (jit: 1) and hand-written resolvers on `pg` (bench/reference/handwritten.ts);
// per-item fields of the nested scenario through Mercurius's own loaders.
import Fastify from 'fastify';
import mercurius, { type IResolvers, type MercuriusLoaders } from 'mercurius';
import pg from 'pg';
import { handwritten, handwrittenBlog, type BetRow, type BoardName, type Entry } from '../handwritten';
import { announce } from './common';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10, options: '-c jit=off' });
const sql = handwritten(pool);
const blogPool = new pg.Pool({ connectionString: process.env.BLOG_DATABASE_URL, max: 10, options: '-c jit=off' });
const blog = handwrittenBlog(blogPool);

const schema = /* GraphQL */ `
  enum LeaderboardBoard { XP BET WEEKLY_BET REFERRAL }
  type PlayerProfile { walletAddress: String! displayName: String avatarUrl: String }
  type BetActivity { txDigest: String! player: String! gameId: String! stake: String! payout: String! won: Boolean! profile: PlayerProfile }
  type LeaderboardEntry {
    rank: Int! player: String! score: String! count: Int coinType: String vipLevel: Int
    recentBets(limit: Int! = 20): [BetActivity!]!
    profile: PlayerProfile
  }
  type Quest {
    key: String! title: String! description: String! xpReward: Int! timePeriod: String! modes: [String!]!
    lifecycle: String! performanceDaily: Boolean! startAt: String! endAt: String! periodEnd: String!
  }
  type QuestCampaign {
    slug: String! type: String! name: String title: String description: String copyText: String
    startAt: String! endAt: String! managesClaims: Boolean! quests: [Quest!]!
  }
  input QuestCheckInput { questKey: String! mode: String player: String }
  type QuestStatus { questKey: String! player: String! progress: String! target: String! completed: Boolean! claimed: Boolean! }
  type BlogPostSummary { slug: String! title: String! excerpt: String! author: String! tags: [String!]! publishedAt: String! url: String! }
  type BlogPostPage { posts: [BlogPostSummary!]! page: Int! totalPosts: Int! totalPages: Int! hasNextPage: Boolean! }
  type Query {
    leaderboard(board: LeaderboardBoard!, limit: Int! = 10): [LeaderboardEntry!]!
    leaderboardNeighbours(board: LeaderboardBoard!, player: String!, count: Int! = 5): [LeaderboardEntry!]!
    questCampaigns: [QuestCampaign!]!
    questBatchStatus(campaignSlug: String!, checks: [QuestCheckInput!]!): [QuestStatus!]!
    blogPosts(page: Int! = 1, limit: Int! = 20): BlogPostPage!
  }
`;

const resolvers: IResolvers = {
  Query: {
    leaderboard: (_: unknown, a: { board: BoardName; limit: number }) => sql.top(a.board, a.limit),
    leaderboardNeighbours: (_: unknown, a: { player: string; count: number }) => sql.neighbours(a.player, a.count),
    questCampaigns: () => sql.questCampaigns(),
    questBatchStatus: (_: unknown, a: { campaignSlug: string; checks: Array<{ questKey: string; player: string }> }) => sql.questBatchStatus(a.campaignSlug, a.checks),
    blogPosts: (_: unknown, a: { page: number; limit: number }) => blog.list(a.page, a.limit),
  },
};

const profiles = async (queries: Array<{ obj: { player: string } }>) => {
  const found = await sql.profilesOf([...new Set(queries.map((q) => q.obj.player))]);
  return queries.map((q) => found.get(q.obj.player) ?? null);
};
const loaders: MercuriusLoaders = {
  LeaderboardEntry: {
    async recentBets(queries: Array<{ obj: Entry; params: { limit: number } }>) {
      const found = await sql.recentBetsOf([...new Set(queries.map((q) => q.obj.player))], queries[0].params.limit);
      return queries.map((q) => found.get(q.obj.player) ?? []);
    },
    profile: profiles,
  },
  BetActivity: { profile: profiles as (queries: Array<{ obj: BetRow }>) => Promise<unknown[]> },
};

const app = Fastify();
await app.register(mercurius, { schema, resolvers, loaders, jit: 1 });
await announce(app, async () => {
  await app.close();
  await pool.end();
  await blogPool.end();
});
