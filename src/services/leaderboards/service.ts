import { normalizeMoveType } from '../../input/move-type';
import { LRUCache } from 'lru-cache';
import { BOARDS, leaderboardOf, type Board } from '../../chain-events/leaderboards';
import type { Db, QueryOptions } from '../../db/client';
import { AppError } from '../../errors';
import type { SharedStore } from '../../store';
import { createReadCacheService, type ReadCacheService } from '../read-cache';
import { decodeLeaderboardCursor, encodeLeaderboardCursor, type LeaderboardPosition } from './cursor';

export { BOARDS, type Board };

export interface LeaderboardEntry {
  rank: number;
  player: string;
  /** u64 base units as a decimal string (XP, wagered amount or referral rewards). */
  score: string;
  /** Bets placed, referrals made; null for XP. */
  count: number | null;
  coinType: string | null;
  vipLevel: number | null;
  /** Pass as `after` to read the entries that follow this one. */
  cursor: string;
}

export interface LeaderboardQuery {
  board: Board;
  coinType?: string;
  /** Any date inside the wanted UTC week (weeks start Monday 00:00 UTC); default this week. */
  week?: string;
  limit?: number;
  /** The `cursor` of the last entry already read: the page starts right after it (ties stay in address order). */
  after?: string;
}

export interface LeaderboardService {
  /** `opts.signal`: the caller's request; when it ends, the database query is cancelled. */
  top(q: LeaderboardQuery, opts?: QueryOptions): Promise<LeaderboardEntry[]>;
  rankOf(q: Omit<LeaderboardQuery, 'limit' | 'after'> & { player: string }, opts?: QueryOptions): Promise<LeaderboardEntry | null>;
  /** The player's entry with up to `count` entries on each side, in rank order; empty when the player is not on the board. */
  neighbours(q: Omit<LeaderboardQuery, 'limit' | 'after'> & { player: string; count?: number }, opts?: QueryOptions): Promise<LeaderboardEntry[]>;
  /** Called by the indexer after each commit; drops cached reads on every replica. */
  invalidate(): Promise<void>;
  cacheStats(): { hits: number; misses: number; entries: number };
}

export const MAX_LEADERBOARD_LIMIT = 100;
export const MAX_NEIGHBOURS = 50;
/** Coin types are compared in Sui's normalized long form, as the indexer stores them. */
const DEFAULT_COIN = normalizeMoveType('0x2::sui::SUI');

function normalizeCoin(coinType: string): string {
  try {
    return normalizeMoveType(coinType);
  } catch {
    throw new AppError('VALIDATION_FAILED', `coinType "${coinType}" is not a Move type such as 0x2::sui::SUI`);
  }
}
/** Distinct top-N reads (board, coin, week, limit) kept per process. */
const TOP_CACHE_MAX_ENTRIES = 1000;

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

/** Resolves with `work` unless `signal` aborts first (the work itself goes on for its other waiters). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Reads the indexer's leaderboard tables. Top-N reads are cached per process for `ttlMs` in an
 * LRU whose fetchMethod makes every refill single-flight: one query per key however many
 * requests ask, and an expired entry is served stale while one background query refreshes it.
 * The indexer's `invalidate()` bumps the `chain` generation (services/read-cache/service.ts), which
 * empties this cache on every replica before any request sees the new generation.
 */
export async function createLeaderboardService(opts: { db: Db; store: SharedStore; readCache?: ReadCacheService; ttlMs?: number }): Promise<LeaderboardService> {
  const readCache = opts.readCache ?? (await createReadCacheService({ store: opts.store }));
  const ttlMs = opts.ttlMs ?? 30_000;
  const stats = { hits: 0, misses: 0 };
  const topCache = new LRUCache<string, LeaderboardEntry[], ReturnType<typeof parse>>({
    max: TOP_CACHE_MAX_ENTRIES,
    ttl: Math.max(1, ttlMs),
    allowStale: true,
    // clear() during a refill: the waiting requests still get its rows, which are not stored.
    ignoreFetchAbort: true,
    // The shared refill is not tied to one request's signal (others wait on it); statement_timeout bounds it.
    fetchMethod: async (_key, _stale, { context }) => {
      stats.misses++;
      return readTop(context);
    },
  });
  readCache.onBump('chain', () => topCache.clear());

  function parse(q: LeaderboardQuery) {
    if (!BOARDS.includes(q.board)) throw new AppError('VALIDATION_FAILED', `Unknown leaderboard "${q.board}"; use one of ${BOARDS.join(', ')}`);
    const limit = q.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LEADERBOARD_LIMIT) {
      throw new AppError('VALIDATION_FAILED', `limit must be an integer from 1 to ${MAX_LEADERBOARD_LIMIT}`);
    }
    let week: Date | null = null;
    if (leaderboardOf(q.board).read.weekly) {
      const at = q.week ? new Date(`${q.week}T00:00:00Z`) : new Date();
      if (q.week && (!/^\d{4}-\d{2}-\d{2}$/.test(q.week) || Number.isNaN(at.getTime()))) throw new AppError('VALIDATION_FAILED', 'week must be a date as YYYY-MM-DD');
      week = utcWeekStart(at);
    }
    const after: LeaderboardPosition | null = q.after ? decodeLeaderboardCursor(q.after) : null;
    return { board: q.board, limit, after, coinType: leaderboardOf(q.board).read.byCoin ? (q.coinType ? normalizeCoin(q.coinType) : DEFAULT_COIN) : null, week };
  }

  /** One table per board: rows ordered by score, ties broken by address for a stable rank. */
  function source(board: Board): { table: string; score: string; count: string | null; player: string; vip: string | null } {
    const { table, read } = leaderboardOf(board);
    return { table, score: read.score, count: read.count, player: read.player, vip: read.vipLevel };
  }

  /** The columns a board row is read with, qualified by `alias`. */
  function selectList(s: ReturnType<typeof source>, alias: string): string {
    const col = (c: string | null) => (c ? `${alias}.${c}` : 'NULL::int');
    return `${alias}.${s.player} AS player, ${alias}.${s.score}::text AS score, ${col(s.count)} AS count, ${col(s.vip)} AS vip_level`;
  }

  /** The board's filter conditions (coin, week) for a table alias; parameters are pushed once. */
  function filters(p: ReturnType<typeof parse>, params: unknown[]): (alias: string) => string[] {
    const coin = p.coinType !== null ? `$${params.push(p.coinType)}` : null;
    const week = p.week ? `$${params.push(p.week.toISOString().slice(0, 10))}::date` : null;
    return (alias) => [...(coin ? [`${alias}.coin_type = ${coin}`] : []), ...(week ? [`${alias}.week_start = ${week}`] : [])];
  }
  /** The bucket table's scope of a board read; the triggers in the rank-bucket migration build the same strings. */
  const bucketScope = (p: ReturnType<typeof parse>): string => [p.week?.toISOString().slice(0, 10), p.coinType].filter(Boolean).join(' ');
  const where = (conds: string[]) => (conds.length ? `WHERE ${conds.join(' AND ')}` : '');

  const toEntry = (row: Row, rank: number, coinType: string | null): LeaderboardEntry => ({
    rank,
    player: row.player,
    score: String(row.score),
    count: row.count === null ? null : Number(row.count),
    coinType,
    vipLevel: row.vip_level === null ? null : Number(row.vip_level),
    cursor: encodeLeaderboardCursor({ rank, score: String(row.score), player: row.player }),
  });

  async function readTop(p: ReturnType<typeof parse>, queryOpts?: QueryOptions): Promise<LeaderboardEntry[]> {
    const s = source(p.board);
    const params: unknown[] = [];
    const board = filters(p, params);
    const conds = board('t');
    if (p.after) {
      // Keyset: rows after the cursor's (score, player) in board order; the `<=` bound gives an index range.
      const score = `$${params.push(p.after.score)}::numeric`;
      const player = `$${params.push(p.after.player)}`;
      conds.push(`t.${s.score} <= ${score}`, `(t.${s.score} < ${score} OR t.${s.player} > ${player})`);
    }
    const rows = await opts.db.query<Row>(
      `SELECT ${selectList(s, 't')} FROM ${s.table} t ${where(conds)}
        ORDER BY t.${s.score} DESC, t.${s.player} ASC LIMIT $${params.push(p.limit)}`,
      params,
      queryOpts,
    );
    const firstRank = (p.after?.rank ?? 0) + 1;
    return rows.map((row, i) => toEntry(row, firstRank + i, p.coinType));
  }

  const service: LeaderboardService = {
    async top(q, queryOpts) {
      const p = parse(q);
      if (ttlMs <= 0) return readTop(p, queryOpts);
      const key = JSON.stringify([p.board, p.coinType, p.week?.getTime() ?? null, p.limit, q.after ?? null]);
      if (topCache.has(key)) stats.hits++;
      return unlessAborted(topCache.fetch(key, { context: p }) as Promise<LeaderboardEntry[]>, queryOpts?.signal);
    },
    async rankOf(q, queryOpts) {
      const p = parse({ ...q, limit: 1 });
      const s = source(p.board);
      const params: unknown[] = [];
      const board = filters(p, params);
      const me = `$${params.push(q.player)}`;
      const bucketsOf = `r.board = $${params.push(p.board)} AND r.scope = $${params.push(bucketScope(p))}`;
      // Rank = 1 + rows strictly ahead in (score DESC, player ASC) order: the players of every
      // higher score bucket (leaderboard_rank_bucket, kept in step by triggers), then two index
      // range scans inside the player's own bucket: higher scores, and equal scores with a lower address.
      const bucket = `leaderboard_rank_bucket(me.${s.score})`;
      const rows = await opts.db.query<Row & { rank: string }>(
        `SELECT ${selectList(s, 'me')},
                1 + coalesce((SELECT sum(r.n) FROM leaderboard_rank_bucket r WHERE ${bucketsOf} AND r.bucket > ${bucket}), 0)
                  + (SELECT count(*) FROM ${s.table} b ${where([...board('b'), `b.${s.score} > me.${s.score}`, `b.${s.score} < ${bucket} + leaderboard_rank_unit(me.${s.score})`])})
                  + (SELECT count(*) FROM ${s.table} b ${where([...board('b'), `b.${s.score} = me.${s.score}`, `b.${s.player} < me.${s.player}`])}) AS rank
           FROM ${s.table} me ${where([...board('me'), `me.${s.player} = ${me}`])}`,
        params,
        queryOpts,
      );
      return rows[0] ? toEntry(rows[0], Number(rows[0].rank), p.coinType) : null;
    },
    async neighbours(q, queryOpts) {
      const count = q.count ?? 5;
      if (!Number.isInteger(count) || count < 0 || count > MAX_NEIGHBOURS) throw new AppError('VALIDATION_FAILED', `count must be an integer from 0 to ${MAX_NEIGHBOURS}`);
      const me = await service.rankOf(q, queryOpts);
      if (!me || count === 0) return me ? [me] : [];
      const p = parse({ ...q, limit: 1 });
      const s = source(p.board);
      const params: unknown[] = [];
      const board = filters(p, params);
      const score = `$${params.push(me.score)}::numeric`;
      const player = `$${params.push(me.player)}`;
      const limit = `$${params.push(count)}`;
      // Keyset reads on the (score DESC, player) index from the player's position outwards; the
      // redundant `>=` / `<=` bound gives each side an index range instead of a scan from the end.
      const side = (ahead: boolean) => {
        const [cmp, tie, order] = ahead ? ['>', '<', 'ASC'] : ['<', '>', 'DESC'];
        const conds = [...board('t'), `t.${s.score} ${cmp}= ${score}`, `(t.${s.score} ${cmp} ${score} OR t.${s.player} ${tie} ${player})`];
        return `(SELECT ${ahead} AS ahead, ${selectList(s, 't')} FROM ${s.table} t ${where(conds)}
                  ORDER BY t.${s.score} ${order}, t.${s.player} ${ahead ? 'DESC' : 'ASC'} LIMIT ${limit})`;
      };
      const rows = await opts.db.query<Row & { ahead: boolean }>(`${side(true)} UNION ALL ${side(false)}`, params, queryOpts);
      const ahead = rows.filter((r) => r.ahead).map((r, i) => toEntry(r, me.rank - 1 - i, p.coinType));
      const behind = rows.filter((r) => !r.ahead).map((r, i) => toEntry(r, me.rank + 1 + i, p.coinType));
      return [...ahead.reverse(), me, ...behind];
    },
    async invalidate() {
      await readCache.bump('chain');
    },
    cacheStats: () => ({ ...stats, entries: topCache.size }),
  };
  return service;
}
