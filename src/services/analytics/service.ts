import type { Db, QueryOptions } from '../../db/client';
import { AppError } from '../../errors';
import type { AnalyticsProvider } from '../../providers/analytics';
import type { SharedStore } from '../../store';
import { activityFeedQueries, type BetActivity, type BetPage } from './feeds';
import type { LeaderboardService } from '../leaderboards';
import type { AuditLog, OperatorActor } from '../operators';
import { analyticsCache, type AnalyticsCache } from './model';

export { BIG_WIN_DEFAULT_MULTIPLIER, FEED_MAX_LIMIT, type BetActivity, type BetPage } from './feeds';

export interface LiveActives {
  /** Users active in the last 30 minutes (the analytics property's realtime report). */
  activeUsers: number;
  /** ISO 8601: when the analytics service was asked. */
  fetchedAt: string;
  /** Seconds since `fetchedAt`. */
  ageSeconds: number;
}

export interface CacheStats {
  leaderboards: { hits: number; misses: number; entries: number };
  /** Live actives: hits and misses of this process; `cached` whether the shared entry is live now. */
  liveActives: { hits: number; misses: number; cached: boolean; ttlMs: number };
}

export interface AnalyticsService {
  /** Cached for `ttlMs` in the shared store (one upstream call per window across replicas); SERVICE_UNAVAILABLE when no property is configured. */
  liveActives(opts?: QueryOptions): Promise<LiveActives>;
  /** Newest first; `{ limit?, cursor?, player?, coinType? }`. */
  recentBets(input: unknown, opts?: QueryOptions): Promise<BetPage>;
  /** The newest `limit` bets of each player in one statement (DataLoader batches). */
  recentBetsOfPlayers(players: readonly string[], limit: number, opts?: QueryOptions): Promise<Map<string, BetActivity[]>>;
  /** Won bets paying at least `minMultiplier` × stake, newest first; `{ limit?, cursor?, coinType?, minMultiplier? }`. */
  bigWins(input: unknown, opts?: QueryOptions): Promise<BetPage>;
  cacheStats(): Promise<CacheStats>;
  /** Drops the live-actives entry and every replica's leaderboard cache (an operator action: audited). */
  clearCaches(actor: OperatorActor, requestId?: string): Promise<{ cleared: AnalyticsCache[] }>;
}

export interface AnalyticsServiceDeps {
  db: Db;
  store: SharedStore;
  leaderboards: LeaderboardService;
  audit: AuditLog;
  /** Undefined: no analytics property configured. */
  provider?: AnalyticsProvider;
  ttlMs: number;
}

const LIVE_ACTIVES_KEY = 'analytics:live-actives';

export function createAnalyticsService(deps: AnalyticsServiceDeps): AnalyticsService {
  const feeds = activityFeedQueries(deps.db);
  const stats = { hits: 0, misses: 0 };
  let inFlight: Promise<LiveActives> | null = null;

  const withAge = (activeUsers: number, fetchedAt: string): LiveActives => ({
    activeUsers,
    fetchedAt,
    ageSeconds: Math.max(0, Math.floor((Date.now() - Date.parse(fetchedAt)) / 1000)),
  });

  async function fetchLiveActives(provider: AnalyticsProvider): Promise<LiveActives> {
    const activeUsers = await provider.activeUsers();
    const fetchedAt = new Date().toISOString();
    if (deps.ttlMs > 0) await deps.store.set(LIVE_ACTIVES_KEY, JSON.stringify({ activeUsers, fetchedAt }), deps.ttlMs);
    return withAge(activeUsers, fetchedAt);
  }

  return {
    async liveActives(opts) {
      const provider = deps.provider;
      if (!provider) throw new AppError('SERVICE_UNAVAILABLE', 'Live actives are not configured (GENERAL.ANALYTICS_PROPERTY_ID)');
      const cached = deps.ttlMs > 0 ? await deps.store.get(LIVE_ACTIVES_KEY) : null;
      if (cached) {
        stats.hits++;
        const { activeUsers, fetchedAt } = JSON.parse(cached) as { activeUsers: number; fetchedAt: string };
        return withAge(activeUsers, fetchedAt);
      }
      stats.misses++;
      // One upstream call per process at a time; callers arriving meanwhile share its answer, so
      // it is not tied to the first caller's request (the provider has its own timeout).
      if (!inFlight) {
        inFlight = fetchLiveActives(provider).finally(() => (inFlight = null));
        // Every caller may have gone (aborted) by the time it fails: never an unhandled rejection.
        inFlight.catch(() => undefined);
      }
      const shared = inFlight;
      if (!opts?.signal) return shared;
      const signal = opts.signal;
      return Promise.race([shared, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))]);
    },
    recentBets: (input, opts) => feeds.recentBets(input, opts),
    recentBetsOfPlayers: (players, limit, opts) => feeds.recentBetsOfPlayers(players, limit, opts),
    bigWins: (input, opts) => feeds.bigWins(input, opts),
    async cacheStats() {
      return {
        leaderboards: deps.leaderboards.cacheStats(),
        liveActives: { ...stats, cached: (await deps.store.get(LIVE_ACTIVES_KEY)) !== null, ttlMs: deps.ttlMs },
      };
    },
    clearCaches(actor, requestId) {
      // Nothing of it is in the database: the row commits once both caches are dropped (a failure records nothing).
      return deps.audit.audited({ actor, action: 'analytics.clear_caches', target: 'caches', requestId }, async () => {
        await deps.store.del(LIVE_ACTIVES_KEY);
        await deps.leaderboards.invalidate();
        const cleared = [...analyticsCache.options];
        return { after: { cleared }, result: { cleared } };
      });
    },
  };
}
