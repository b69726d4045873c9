import type { KeyValueCache } from '../store/kv-cache';
import { LRUCache } from 'lru-cache';
import type { GraphqlPolicy } from './policy';

/** Sources of persisted queries kept per process in front of the shared store (a hash's text never changes). */
const LOCAL_SOURCES_MAX_CHARS = 4 * 1024 * 1024;
/** Registered queries stay this long after their last registration (clients register again on PERSISTED_QUERY_NOT_FOUND). */
const PERSISTED_QUERY_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Apollo's automatic persisted queries over the shared key-value cache, so a query registered
 * on one replica is known by hash on all. A source read back from the store passes the same
 * screening as a sent one (document caps, limit rules) before Apollo parses it: a document put
 * there by a replica with laxer limits, or by anything else with access to the store, answers
 * PERSISTED_QUERY_NOT_FOUND, and the client's retry with the full text is refused with the
 * policy's own error. Apollo verifies the hash of every registration.
 */
export function persistedQueries(policy: GraphqlPolicy, shared: KeyValueCache) {
  const local = new LRUCache<string, string>({ maxSize: LOCAL_SOURCES_MAX_CHARS, sizeCalculation: (source) => Math.max(1, source.length) });
  const cache = {
    async get(hash: string): Promise<string | undefined> {
      const known = local.get(hash);
      if (known !== undefined) return known;
      const source = await shared.get(hash);
      if (source === undefined || policy.screen(source)) return undefined;
      local.set(hash, source);
      return source;
    },
    async set(hash: string, source: string, opts?: { ttl?: number | null }) {
      local.set(hash, source);
      await shared.set(hash, source, opts);
    },
    async delete(hash: string) {
      local.delete(hash);
      return shared.delete(hash);
    },
  };
  return { cache, ttl: PERSISTED_QUERY_TTL_SECONDS };
}
