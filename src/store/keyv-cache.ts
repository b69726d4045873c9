import { KeyvAdapter } from '@apollo/utils.keyvadapter';
import Keyv from 'keyv';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { SharedStoreOptions } from './index';

/** Entries kept per process when no Redis is configured (persisted queries and cached responses). */
const MEMORY_MAX_ENTRIES = 5000;
/** With Redis: this process's own fills kept in memory in front of it, by size. */
const LOCAL_FILLS_MAX_BYTES = 32 * 1024 * 1024;

/** Apollo's KeyValueCache, as the response cache and persisted queries use it. */
export type KeyValueCache = Pick<KeyvAdapter<string>, 'get' | 'set' | 'delete'>;

export interface SharedKeyValueCache {
  /** Apollo's KeyValueCache (persisted queries, response cache) over Keyv. */
  cache: KeyValueCache;
  /** 'redis': every replica reads what one wrote; 'memory': this process only. */
  backend: 'redis' | 'memory';
  close(): Promise<void>;
}

/** A redis:// or rediss:// address for node-redis, from the store's settings (sentinel and cluster addresses are not supported here). */
function redisAddress(opts: SharedStoreOptions): string | undefined {
  if (opts.url) return /^rediss?:\/\//.test(opts.url) ? opts.url : undefined;
  if (!opts.host) return undefined;
  const auth = opts.password ? `${encodeURIComponent(opts.username ?? '')}:${encodeURIComponent(opts.password)}@` : '';
  return `redis://${auth}${opts.host}:${opts.port ?? 6379}/${opts.db ?? 0}`;
}

/**
 * The key-value cache Apollo's persisted queries and response cache share across replicas: Keyv
 * over the maintained Redis store (@keyv/redis) on the shared store's Redis, under its key
 * prefix; without Redis, Keyv over a bounded LRU in this process. A Redis outage makes reads
 * miss and writes drop (no throw, no offline queue): requests then execute as if uncached.
 */
export async function createSharedKeyValueCache(opts: SharedStoreOptions & { logger: Logger }): Promise<SharedKeyValueCache> {
  const namespace = `${opts.keyPrefix ?? ''}kv`;
  const address = opts.cacheStore === 'redis' ? redisAddress(opts) : undefined;
  if (opts.cacheStore === 'redis' && !address) opts.logger.warn('response cache: the shared store address is not redis:// or rediss://, so persisted queries and cached responses stay per process');
  if (!address) {
    const lru = new LRUCache<string, string>({ max: MEMORY_MAX_ENTRIES });
    // Keyv keeps each entry's expiry itself and passes a ttl number third, which lru-cache's set() reads as options.
    const store = { get: (k: string) => lru.get(k), set: (k: string, v: string) => void lru.set(k, v), delete: (k: string) => lru.delete(k), clear: () => lru.clear(), has: (k: string) => lru.has(k) };
    const keyv = new Keyv<string>({ store, namespace });
    keyv.on('error', (err: unknown) => opts.logger.warn({ err }, 'response cache (memory) error'));
    return { cache: new KeyvAdapter(keyv), backend: 'memory', close: async () => keyv.disconnect() };
  }
  // Loaded only here: node-redis costs a process without Redis about 80 ms of start.
  const { default: KeyvRedis } = await import('@keyv/redis');
  const store = new KeyvRedis<string>(
    { url: address, disableOfflineQueue: true, socket: { connectTimeout: 1000 } },
    { namespace, throwOnConnectError: false, throwOnErrors: false, connectionTimeout: 1000 },
  );
  const keyv = new Keyv<string>({ store, namespace, useKeyPrefix: false });
  let lastWarnAt = 0;
  const warn = (err: unknown) => {
    // An outage repeats the same error on every request: log it once a minute, at info: the shared
    // store's one warning already names the unreachable Redis (one outage, one warning).
    if (Date.now() - lastWarnAt < 60_000) return;
    lastWarnAt = Date.now();
    opts.logger.info({ err }, 'response cache: Redis error (requests run uncached meanwhile)');
  };
  store.on('error', warn);
  keyv.on('error', warn);
  return { cache: localFillsFirst(new KeyvAdapter(keyv)), backend: 'redis', close: async () => keyv.disconnect() };
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
  return {
    async get(key) {
      return local.get(key) ?? shared.get(key);
    },
    async set(key, value, opts) {
      // Apollo's ttl is in seconds; none (persisted queries) means kept until evicted
      local.set(key, value, opts?.ttl ? { ttl: opts.ttl * 1000 } : {});
      return shared.set(key, value, opts);
    },
    async delete(key) {
      local.delete(key);
      return shared.delete(key);
    },
  };
}
