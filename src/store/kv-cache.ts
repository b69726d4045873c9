import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { staleSweeper } from './stale-purge';
import type { SharedStore } from './types';

/** Entries kept per process when no Redis is configured (persisted queries and cached responses). */
const MEMORY_MAX_ENTRIES = 5000;
/** With Redis: this process's own fills kept in memory in front of it, by size. */
const LOCAL_FILLS_MAX_BYTES = 32 * 1024 * 1024;
/** Expiry of an entry written without one (Apollo's "until evicted"): Redis is not an LRU we may fill forever. */
const UNTIMED_TTL_MS = 7 * 24 * 3600 * 1000;
/** The cache's keys in the shared store, under its key prefix. */
const KEY_SPACE = 'kv:';

/** Apollo's KeyValueCache (`@apollo/utils.keyvaluecache`), as the response cache and persisted queries use it; `ttl` in seconds. */
export interface KeyValueCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, opts?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

export interface SharedKeyValueCache {
  /** Apollo's KeyValueCache (persisted queries, response cache). */
  cache: KeyValueCache;
  /** 'redis': every replica reads what one wrote; 'memory': this process only. */
  backend: 'redis' | 'memory';
  close(): Promise<void>;
}

/** A bounded LRU in this process: the cache of a process without Redis. */
export function createMemoryKeyValueCache(): SharedKeyValueCache {
  const lru = new LRUCache<string, string>({ max: MEMORY_MAX_ENTRIES });
  const wrote = staleSweeper(lru);
  const cache: KeyValueCache = {
    get: async (key) => lru.get(key),
    set: async (key, value, opts) => {
      lru.set(key, value, opts?.ttl ? { ttl: opts.ttl * 1000 } : {});
      wrote();
    },
    delete: async (key) => lru.delete(key),
  };
  return { cache, backend: 'memory', close: async () => lru.clear() };
}

/**
 * The key-value cache Apollo's persisted queries and response cache share across replicas, on the
 * shared store itself: the same ioredis connection on every topology (one server, Sentinel,
 * Cluster), its key prefix, its call deadline and its one outage state. While the store serves from
 * memory (an outage), reads miss and writes stay local: requests execute as if uncached, and cached
 * bodies never crowd the counters out of the store's bounded memory. Without Redis it is an LRU here.
 */
export function createSharedKeyValueCache(store: SharedStore, opts: { logger: Logger }): SharedKeyValueCache {
  if (store.kind !== 'redis') return createMemoryKeyValueCache();
  let lastWarnAt = 0;
  const warn = (err: unknown) => {
    // Outages are the store's business (one warning); only a refused call lands here, at most once a minute.
    if (Date.now() - lastWarnAt < 60_000) return;
    lastWarnAt = Date.now();
    opts.logger.warn({ err }, 'response cache: the shared store refused a call (requests run uncached meanwhile)');
  };
  const shared: KeyValueCache = {
    async get(key) {
      if (store.active !== 'redis') return undefined;
      return (await store.get(KEY_SPACE + key).catch(warn)) ?? undefined;
    },
    async set(key, value, setOpts) {
      if (store.active !== 'redis') return;
      await store.set(KEY_SPACE + key, value, setOpts?.ttl ? setOpts.ttl * 1000 : UNTIMED_TTL_MS).catch(warn);
    },
    async delete(key) {
      await store.del(KEY_SPACE + key).catch(warn);
      return true;
    },
  };
  // The store is closed by its owner.
  return { cache: localFillsFirst(shared), backend: 'redis', close: async () => undefined };
}

/**
 * What this process writes to the shared cache is also kept here until the same expiry, and read
 * from here first: a hot entry this replica filled costs no Redis round trip. Entries filled by
 * other replicas are read from Redis (their remaining time is not known here, so they are not
 * copied: nothing is served past the expiry it was written with). Invalidation needs nothing more:
 * cached responses are keyed by the data generations, and persisted queries by their hash.
 */
export function localFillsFirst(shared: KeyValueCache): KeyValueCache {
  const local = new LRUCache<string, string>({ maxSize: LOCAL_FILLS_MAX_BYTES, sizeCalculation: (value, key) => value.length + key.length });
  const wrote = staleSweeper(local);
  return {
    async get(key) {
      return local.get(key) ?? shared.get(key);
    },
    async set(key, value, opts) {
      // Apollo's ttl is in seconds; none (persisted queries) means kept until evicted
      local.set(key, value, opts?.ttl ? { ttl: opts.ttl * 1000 } : {});
      wrote();
      return shared.set(key, value, opts);
    },
    async delete(key) {
      local.delete(key);
      return shared.delete(key);
    },
  };
}
