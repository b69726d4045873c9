/** How long (seconds) and for whom an answer may be cached: Apollo's `@cacheControl` arguments. */
export interface CacheHint {
  maxAge: number;
  scope?: 'PUBLIC' | 'PRIVATE';
}

/**
 * The cache hints of the read path (seconds), set on fields with
 * `@Directive(cacheControl(CACHE_HINTS.…))` (src/graphql/cache-policy.ts), or named by a
 * declared operation (`graphql.cache`) or a model's field (`cacheHinted`, ./model-names.ts). Public reads are short because a browser or CDN
 * keeps them for max-age whatever we invalidate; our own cache is emptied at once by the
 * generation bump (./read-cache/service.ts). Per-wallet reads are PRIVATE (cached per wallet) or
 * not hinted at all: an unhinted root or object field has max-age 0, which makes the whole
 * response uncacheable.
 */
export const CACHE_HINTS = {
  /** Leaderboards, ranks and their bets: change with each indexer commit (which bumps `chain`). */
  leaderboards: { maxAge: 10, scope: 'PUBLIC' },
  /** Prices: polled every few minutes (each poll bumps `prices`); `ageSeconds` may lag by this much. */
  prices: { maxAge: 30, scope: 'PUBLIC' },
  /**
   * The quest catalogue (campaigns, quests, their lifecycle now): public; an operator's edit bumps
   * the `quests` generation (our cache drops at once); a lifecycle boundary shows within this many seconds.
   */
  questCatalogue: { maxAge: 10, scope: 'PUBLIC' },
  /** Published blog posts: a partner delivery bumps `blog`; an edit in the CMS admin shows within this many seconds (services/blog/service.ts). */
  blog: { maxAge: 30, scope: 'PUBLIC' },
  /** One wallet's view derived from indexed events (VIP level): cached for that wallet only. */
  walletChainView: { maxAge: 10, scope: 'PRIVATE' },
  /**
   * Quest statuses: the caller's own when no player is named, so PRIVATE (per wallet; anonymous
   * callers share theirs, ./cached-answers.ts). The upkeep and claims bump `questProgress`, indexer
   * commits `chain`; a period or lifecycle boundary shows within this many seconds.
   */
  questStatus: { maxAge: 5, scope: 'PRIVATE' },
} as const satisfies Record<string, CacheHint>;

/** A hint's name, as declarations and models say it. */
export type CacheHintName = keyof typeof CACHE_HINTS;
