// The reads of the bench scenarios written by hand on `pg`, for the two reference servers that
// do not use our stack (Mercurius with hand-written resolvers, raw Fastify). Same SQL shapes as
// our services (the same indexes and the same rank buckets), so the comparison isolates the
// server, executor and resolver layers, not the queries.
import pg from 'pg';
import { readStored } from '../../src/services/quests/progress';
import { DEFAULT_CATALOGUE } from '../../src/services/quests/catalogue';
import { periodEndOf, periodStartOf } from '../../src/services/quests/periods';
import { lifecycleOf, questWindow } from '../../src/services/quests/quest-window';
import { utcWeekStart } from '../../src/services/leaderboards/service';
import { BENCH_BLOG_URL, SUI } from '../seed';

export type BoardName = 'XP' | 'BET' | 'WEEKLY_BET' | 'REFERRAL';

interface EntryRow {
  player: string;
  score: string;
  count: number | null;
  vip_level: number | null;
}

const BOARDS: Record<BoardName, { from: string; cols: string; order: string; byCoin: boolean; weekly: boolean }> = {
  XP: { from: 'xp_leaderboard t', cols: 't.player, t.total_xp::text AS score, NULL::int AS count, t.vip_level', order: 't.total_xp DESC, t.player', byCoin: false, weekly: false },
  BET: { from: 'bet_leaderboard t', cols: 't.player, t.total_wagered::text AS score, t.bet_count AS count, NULL::int AS vip_level', order: 't.total_wagered DESC, t.player', byCoin: true, weekly: false },
  WEEKLY_BET: { from: 'weekly_bet_leaderboard t', cols: 't.player, t.total_wagered::text AS score, t.bet_count AS count, NULL::int AS vip_level', order: 't.total_wagered DESC, t.player', byCoin: true, weekly: true },
  REFERRAL: { from: 'referral_leaderboard t', cols: 't.referrer AS player, t.total_rewards::text AS score, t.referral_count AS count, NULL::int AS vip_level', order: 't.total_rewards DESC, t.referrer', byCoin: true, weekly: false },
};

export interface Entry {
  rank: number;
  player: string;
  score: string;
  count: number | null;
  coinType: string | null;
  vipLevel: number | null;
}

const entry = (r: EntryRow, rank: number, coinType: string | null): Entry => ({ rank, player: r.player, score: r.score, count: r.count, coinType, vipLevel: r.vip_level });

export function handwritten(pool: pg.Pool) {
  const query = async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[];
  const db = { query };
  return {
    async top(board: BoardName, limit: number): Promise<Entry[]> {
      const b = BOARDS[board];
      const params: unknown[] = [limit];
      const where: string[] = [];
      if (b.weekly) where.push(`t.week_start = $${params.push(utcWeekStart(new Date()).toISOString().slice(0, 10))}::date`);
      if (b.byCoin) where.push(`t.coin_type = $${params.push(SUI)}`);
      const rows = await query<EntryRow>(`SELECT ${b.cols} FROM ${b.from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${b.order} LIMIT $1`, params);
      return rows.map((r, i) => entry(r, i + 1, b.byCoin ? SUI : null));
    },
    /** BET board (SUI): the player's rank from the rank buckets plus two index ranges, then a keyset read each side. */
    async neighbours(player: string, count: number, coinType = SUI): Promise<Entry[]> {
      const [me] = await query<EntryRow & { rank: string }>(
        `SELECT me.player, me.total_wagered::text AS score, me.bet_count AS count, NULL::int AS vip_level,
                1 + coalesce((SELECT sum(r.n) FROM leaderboard_rank_bucket r WHERE r.board = 'bet' AND r.scope = $1 AND r.bucket > leaderboard_rank_bucket(me.total_wagered)), 0)
                  + (SELECT count(*) FROM bet_leaderboard b WHERE b.coin_type = $1 AND b.total_wagered > me.total_wagered
                        AND b.total_wagered < leaderboard_rank_bucket(me.total_wagered) + leaderboard_rank_unit(me.total_wagered))
                  + (SELECT count(*) FROM bet_leaderboard b WHERE b.coin_type = $1 AND b.total_wagered = me.total_wagered AND b.player < me.player) AS rank
           FROM bet_leaderboard me WHERE me.coin_type = $1 AND me.player = $2`,
        [coinType, player],
      );
      if (!me) return [];
      const rank = Number(me.rank);
      const rows = await query<EntryRow & { ahead: boolean }>(
        `(SELECT true AS ahead, t.player, t.total_wagered::text AS score, t.bet_count AS count, NULL::int AS vip_level FROM bet_leaderboard t
           WHERE t.coin_type = $1 AND t.total_wagered >= $2::numeric AND (t.total_wagered > $2::numeric OR t.player < $3) ORDER BY t.total_wagered ASC, t.player DESC LIMIT $4)
         UNION ALL
         (SELECT false, t.player, t.total_wagered::text, t.bet_count, NULL::int FROM bet_leaderboard t
           WHERE t.coin_type = $1 AND t.total_wagered <= $2::numeric AND (t.total_wagered < $2::numeric OR t.player > $3) ORDER BY t.total_wagered DESC, t.player ASC LIMIT $4)`,
        [coinType, me.score, me.player, count],
      );
      const ahead = rows.filter((r) => r.ahead).map((r, i) => entry(r, rank - 1 - i, coinType));
      const behind = rows.filter((r) => !r.ahead).map((r, i) => entry(r, rank + 1 + i, coinType));
      return [...ahead.reverse(), entry(me, rank, coinType), ...behind];
    },
    async questCampaigns() {
      const now = new Date();
      const campaigns = await query<{ slug: string; type: string; name: string | null; title: string | null; description: string | null; copy_text: string | null; start_at: Date; end_at: Date; manages_claims: boolean }>(
        'SELECT slug, type, name, title, description, copy_text, start_at, end_at, manages_claims FROM campaign ORDER BY start_at, slug',
      );
      return campaigns.map((c) => {
        const row = { startAt: new Date(c.start_at), endAt: new Date(c.end_at) };
        const defs = DEFAULT_CATALOGUE.find((d) => d.campaign.slug === c.slug)?.quests ?? [];
        return {
          slug: c.slug, type: c.type, name: c.name, title: c.title, description: c.description, copyText: c.copy_text,
          startAt: row.startAt.toISOString(), endAt: row.endAt.toISOString(), managesClaims: c.manages_claims,
          quests: defs.map((q) => {
            const window = questWindow(q, row);
            const periodStart = periodStartOf(q.timePeriod, now);
            return {
              key: q.key, title: q.title, description: q.description, xpReward: q.xpReward, timePeriod: q.timePeriod, modes: [...q.modes],
              lifecycle: lifecycleOf(q, row, now), performanceDaily: q.performanceDaily === true,
              startAt: window.startAt.toISOString(), endAt: window.endAt.toISOString(), periodEnd: periodEndOf(q.timePeriod, periodStart).toISOString(),
            };
          }),
        };
      });
    },
    async questBatchStatus(campaignSlug: string, checks: ReadonlyArray<{ questKey: string; player: string }>) {
      const now = new Date();
      const quests = new Map(DEFAULT_CATALOGUE.find((c) => c.campaign.slug === campaignSlug)!.quests.map((q) => [q.key, q] as const));
      const keys = checks.map((c) => {
        const q = quests.get(c.questKey)!;
        return { questKey: q.key, campaignSlug, player: c.player, timePeriod: q.timePeriod, periodStart: periodStartOf(q.timePeriod, now) };
      });
      const stored = await readStored(db, keys);
      return keys.map((k, i) => {
        const q = quests.get(k.questKey)!;
        const progress = stored[i].progress ?? '0';
        return { questKey: k.questKey, player: k.player, progress, target: q.target.toString(), completed: BigInt(progress) >= q.target, claimed: stored[i].claimedAt !== null };
      });
    },
    async recentBetsOf(players: readonly string[], limit: number): Promise<Map<string, BetRow[]>> {
      const rows = await query<BetRow>(
        `SELECT b.tx_digest AS "txDigest", b.player, b.game_id AS "gameId", b.stake::text AS stake, b.payout::text AS payout, b.won
           FROM unnest($1::text[]) AS p(player)
           CROSS JOIN LATERAL (SELECT * FROM bet_result_event e WHERE e.player = p.player ORDER BY e.timestamp_ms DESC, e.id DESC LIMIT $2) AS b`,
        [players, limit],
      );
      const out = new Map<string, BetRow[]>(players.map((p) => [p, []]));
      for (const r of rows) out.get(r.player)?.push(r);
      return out;
    },
    async profilesOf(wallets: readonly string[]): Promise<Map<string, Profile>> {
      const rows = await query<Profile>('SELECT wallet_address AS "walletAddress", display_name AS "displayName", avatar_url AS "avatarUrl" FROM profile WHERE wallet_address = ANY($1::text[])', [wallets]);
      return new Map(rows.map((r) => [r.walletAddress, r]));
    },
  };
}

export interface BetRow {
  txDigest: string;
  player: string;
  gameId: string;
  stake: string;
  payout: string;
  won: boolean;
}

export interface Profile {
  walletAddress: string;
  displayName: string | null;
  avatarUrl: string | null;
}

export type Handwritten = ReturnType<typeof handwritten>;

/** One page of published posts as the blog list page reads it, from Payload's own tables (its `blog_posts` and tag rows). */
export function handwrittenBlog(pool: pg.Pool) {
  return {
    async list(page: number, limit: number) {
      const [posts, total] = await Promise.all([
        pool.query<{ slug: string; title: string; excerpt: string; author: string; tags: string[]; published_at: string }>(
          `SELECT p.slug, p.title, p.excerpt, p.author,
                  ARRAY(SELECT t.text FROM blog_posts_texts t WHERE t.parent_id = p.id AND t.path = 'tags' ORDER BY t."order") AS tags,
                  to_char(coalesce(p.published_at, p.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published_at
             FROM blog_posts p WHERE p._status = 'published' ORDER BY p.published_at DESC LIMIT $1 OFFSET $2`,
          [limit, (page - 1) * limit],
        ),
        pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM blog_posts WHERE _status = 'published'`),
      ]);
      const totalPosts = total.rows[0].n;
      const totalPages = Math.ceil(totalPosts / limit);
      return {
        page,
        totalPosts,
        totalPages,
        hasNextPage: page < totalPages,
        posts: posts.rows.map((p) => ({ slug: p.slug, title: p.title, excerpt: p.excerpt, author: p.author, tags: p.tags, publishedAt: p.published_at, url: `${BENCH_BLOG_URL}/posts/${p.slug}/` })),
      };
    },
  };
}

/** The hand-written SDL of the GraphQL reference servers (Mercurius and plain Apollo on `pg`): the bench scenarios' fields of our schema. */
export const HANDWRITTEN_SDL = /* GraphQL */ `
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

/** The root fields of HANDWRITTEN_SDL on the hand-written reads (every request reaches PostgreSQL: no cache). */
export function handwrittenQueryResolvers(sql: Handwritten, blog: ReturnType<typeof handwrittenBlog>) {
  return {
    leaderboard: (_: unknown, a: { board: BoardName; limit: number }) => sql.top(a.board, a.limit),
    leaderboardNeighbours: (_: unknown, a: { player: string; count: number }) => sql.neighbours(a.player, a.count),
    questCampaigns: () => sql.questCampaigns(),
    questBatchStatus: (_: unknown, a: { campaignSlug: string; checks: Array<{ questKey: string; player: string }> }) => sql.questBatchStatus(a.campaignSlug, a.checks),
    blogPosts: (_: unknown, a: { page: number; limit: number }) => blog.list(a.page, a.limit),
  };
}
