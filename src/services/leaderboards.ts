import { normalizeStructTag } from '@mysten/sui/utils';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { SharedStore } from '../store';

export const BOARDS = ['xp', 'bet', 'weekly_bet', 'referral'] as const;
export type Board = (typeof BOARDS)[number];

export interface LeaderboardEntry {
  rank: number;
  player: string;
  /** u64 base units as a decimal string (XP, wagered amount or referral rewards). */
  score: string;
  /** Bets placed, referrals made; null for XP. */
  count: number | null;
  coinType: string | null;
  vipLevel: number | null;
}

export interface LeaderboardQuery {
  board: Board;
  coinType?: string;
  /** Any date inside the wanted UTC week (weeks start Monday 00:00 UTC); default this week. */
  week?: string;
  limit?: number;
}

export interface LeaderboardService {
  top(q: LeaderboardQuery): Promise<LeaderboardEntry[]>;
  rankOf(q: Omit<LeaderboardQuery, 'limit'> & { player: string }): Promise<LeaderboardEntry | null>;
  /** Called by the indexer after each commit; drops cached reads on every replica. */
  invalidate(): Promise<void>;
  cacheStats(): { hits: number; misses: number; entries: number };
}

export const MAX_LEADERBOARD_LIMIT = 100;
/** Coin types are compared in Sui's normalized long form, as the indexer stores them. */
const DEFAULT_COIN = normalizeStructTag('0x2::sui::SUI');

function normalizeCoin(coinType: string): string {
  try {
    return normalizeStructTag(coinType);
  } catch {
    throw new AppError('VALIDATION_FAILED', `coinType "${coinType}" is not a Move type such as 0x2::sui::SUI`);
  }
}
const INVALIDATE_CHANNEL = 'leaderboards:invalidate';

export function utcWeekStart(date: Date): Date {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const daysSinceMonday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - daysSinceMonday);
  return d;
}

interface Row {
  player: string;
  score: string;
  count: number | null;
  vip_level: number | null;
}

/**
 * Reads the indexer's leaderboard tables. Top-N reads are cached per process for `ttlMs`;
 * the indexer's `invalidate()` clears every replica's cache through the shared store.
 */
export async function createLeaderboardService(opts: { db: Db; store: SharedStore; ttlMs?: number }): Promise<LeaderboardService> {
  const ttlMs = opts.ttlMs ?? 30_000;
  const cache = new Map<string, { at: number; value: LeaderboardEntry[] }>();
  const stats = { hits: 0, misses: 0 };
  await opts.store.subscribe(INVALIDATE_CHANNEL, () => cache.clear());

  function parse(q: LeaderboardQuery) {
    if (!BOARDS.includes(q.board)) throw new AppError('VALIDATION_FAILED', `Unknown leaderboard "${q.board}"; use one of ${BOARDS.join(', ')}`);
    const limit = q.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LEADERBOARD_LIMIT) {
      throw new AppError('VALIDATION_FAILED', `limit must be an integer from 1 to ${MAX_LEADERBOARD_LIMIT}`);
    }
    let week: Date | null = null;
    if (q.board === 'weekly_bet') {
      const at = q.week ? new Date(`${q.week}T00:00:00Z`) : new Date();
      if (q.week && (!/^\d{4}-\d{2}-\d{2}$/.test(q.week) || Number.isNaN(at.getTime()))) throw new AppError('VALIDATION_FAILED', 'week must be a date as YYYY-MM-DD');
      week = utcWeekStart(at);
    }
    return { board: q.board, limit, coinType: q.board === 'xp' ? null : q.coinType ? normalizeCoin(q.coinType) : DEFAULT_COIN, week };
  }

  /** One SQL per board: rows ordered by score, ties broken by address for a stable rank. */
  function source(board: Board): { table: string; score: string; count: string; player: string; vip: string; weekly: boolean } {
    switch (board) {
      case 'xp':
        return { table: 'xp_leaderboard', score: 'total_xp', count: 'NULL::int', player: 'player', vip: 'vip_level', weekly: false };
      case 'bet':
        return { table: 'bet_leaderboard', score: 'total_wagered', count: 'bet_count', player: 'player', vip: 'NULL::int', weekly: false };
      case 'weekly_bet':
        return { table: 'weekly_bet_leaderboard', score: 'total_wagered', count: 'bet_count', player: 'player', vip: 'NULL::int', weekly: true };
      case 'referral':
        return { table: 'referral_leaderboard', score: 'total_rewards', count: 'referral_count', player: 'referrer', vip: 'NULL::int', weekly: false };
    }
  }

  function filters(p: ReturnType<typeof parse>, params: unknown[]): string {
    const where: string[] = [];
    if (p.coinType !== null) where.push(`coin_type = $${params.push(p.coinType)}`);
    if (p.week) where.push(`week_start = $${params.push(p.week.toISOString().slice(0, 10))}::date`);
    return where.length ? `WHERE ${where.join(' AND ')}` : '';
  }

  const toEntry = (row: Row, rank: number, coinType: string | null): LeaderboardEntry => ({
    rank,
    player: row.player,
    score: String(row.score),
    count: row.count === null ? null : Number(row.count),
    coinType,
    vipLevel: row.vip_level === null ? null : Number(row.vip_level),
  });

  return {
    async top(q) {
      const p = parse(q);
      const key = JSON.stringify([p.board, p.coinType, p.week?.getTime() ?? null, p.limit]);
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < ttlMs) {
        stats.hits++;
        return hit.value;
      }
      stats.misses++;
      const s = source(p.board);
      const params: unknown[] = [];
      const where = filters(p, params);
      const rows = await opts.db.query<Row>(
        `SELECT ${s.player} AS player, ${s.score}::text AS score, ${s.count} AS count, ${s.vip} AS vip_level
           FROM ${s.table} ${where} ORDER BY ${s.score} DESC, ${s.player} ASC LIMIT $${params.push(p.limit)}`,
        params,
      );
      const value = rows.map((row, i) => toEntry(row, i + 1, p.coinType));
      cache.set(key, { at: Date.now(), value });
      return value;
    },
    async rankOf(q) {
      const p = parse({ ...q, limit: 1 });
      const s = source(p.board);
      const params: unknown[] = [];
      const where = filters(p, params);
      const playerParam = `$${params.push(q.player)}`;
      const rows = await opts.db.query<Row & { rank: string }>(
        `WITH board AS (SELECT ${s.player} AS player, ${s.score} AS raw_score, ${s.count} AS count, ${s.vip} AS vip_level FROM ${s.table} ${where}),
              me AS (SELECT * FROM board WHERE player = ${playerParam})
         SELECT me.player, me.raw_score::text AS score, me.count, me.vip_level,
                (SELECT count(*) FROM board b WHERE b.raw_score > me.raw_score OR (b.raw_score = me.raw_score AND b.player < me.player)) + 1 AS rank
           FROM me`,
        params,
      );
      return rows[0] ? toEntry(rows[0], Number(rows[0].rank), p.coinType) : null;
    },
    async invalidate() {
      cache.clear();
      await opts.store.publish(INVALIDATE_CHANNEL, String(Date.now()));
    },
    cacheStats: () => ({ ...stats, entries: cache.size }),
  };
}
