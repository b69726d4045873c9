import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { KeyValueCache } from '../store/kv-cache';
import responseCachePlugin from '@apollo/server-plugin-response-cache';
import type { GraphQLSchema } from 'graphql';
import { cacheableHint, cachePolicyPlugin, operationCachePolicies } from './cache-policy';
import type { CachedAnswers } from './cached-answers';
import type { GraphqlContext } from './context';

export { CACHE_HINTS } from '../services/cache-hints';

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
