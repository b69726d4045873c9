import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { KeyValueCache } from '../store/kv-cache';
import responseCachePlugin from '@apollo/server-plugin-response-cache';
import type { GraphQLSchema } from 'graphql';
import { cacheableHint, cachePolicyPlugin, operationCachePolicies, type CacheHint } from './cache-policy';
import type { CachedAnswers } from './cached-answers';
import type { GraphqlContext } from './context';

/**
 * The cache hints of the read path (seconds), set on fields with
 * `@Directive(cacheControl(CACHE_HINTS.…))` (./cache-policy.ts). Public reads are short because a browser or CDN
 * keeps them for max-age whatever we invalidate; our own cache is emptied at once by the
 * generation bump (services/read-cache/service.ts). Per-wallet reads are PRIVATE (cached per wallet) or
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

/**
 * The cache-control plugin (the response's policy from the hints, and the `Cache-Control`
 * header; ours in place of Apollo's, see ./cache-policy.ts) and Apollo's full-response cache,
 * stored in the shared key-value cache so one replica's fill serves all. An operation whose hints
 * make it uncacheable skips the cache lookup (a round trip to the store). PRIVATE responses are
 * keyed by the authenticated wallet (`sessionId`) and never stored for anonymous callers; the
 * generations of the data domains are folded into every key, so a bump (indexer commit, price
 * poll, partner delivery) makes older entries unreachable. With `answers`, anonymous HTTP reads
 * are left to the cached answers served before Apollo (./cached-answers.ts), which Apollo teaches
 * which operations are PUBLIC queries.
 */
export function responseCachePlugins(schema: GraphQLSchema, opts: { cache: KeyValueCache; generations: () => string; answers?: CachedAnswers }): ApolloServerPlugin<GraphqlContext>[] {
  const policyOf = operationCachePolicies(schema, { defaultMaxAge: 0 });
  const { answers } = opts;
  return [
    ApolloServerPluginCacheControlDisabled(),
    cachePolicyPlugin<GraphqlContext>(policyOf),
    ...(answers ? [answers.plugin(policyOf)] : []),
    unlessOwnedByAnswers(
      answers,
      responseCachePlugin<GraphqlContext>({
        cache: opts.cache,
        sessionId: async (rc) => rc.contextValue.auth?.wallet ?? null,
        extraCacheKeyData: async () => opts.generations(),
        shouldReadFromCache: async (rc) => rc.operation?.operation === 'query' && rc.document !== undefined && cacheableHint(policyOf(rc.document, rc.operation)),
      }),
    ),
  ];
}

/** Apollo's response cache on the requests the cached answers leave to it only (the others skip its hooks: a key, a copy of the variables and a few awaits each). */
function unlessOwnedByAnswers(answers: CachedAnswers | undefined, plugin: ApolloServerPlugin<GraphqlContext>): ApolloServerPlugin<GraphqlContext> {
  if (!answers) return plugin;
  return {
    ...plugin,
    async requestDidStart(rc) {
      return answers.owns(rc) ? undefined : plugin.requestDidStart?.(rc);
    },
  };
}
