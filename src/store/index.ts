import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { FailoverStore } from './failover';
import { createMemoryStore } from './memory';
import { createRedisStore } from './redis';
import type { SharedStore, StoreBackend } from './types';

export type { HitResult, MessageHandler, SharedStore, StoreBackend, Unsubscribe } from './types';
export { createMemoryStore, type MemoryStore } from './memory';
export { FailoverStore } from './failover';
export { createPubSub, type StorePubSub } from './pubsub';

export interface SharedStoreOptions {
  /** 'redis' selects Redis when `url` or `host` is given; anything else is per-process memory. */
  cacheStore?: 'redis' | 'memory';
  /** redis:// or rediss:// URL; when given, host/port/db/username/password are ignored. */
  url?: string;
  host?: string;
  port?: number;
  db?: number;
  username?: string;
  password?: string;
  /** Prepended to every key and channel (e.g. per environment or per test). */
  keyPrefix?: string;
  logger: Logger;
  /** Memory backend budget: keys plus set members. Default 10 000. */
  maxKeys?: number;
  /** Longest wait for Redis at start before serving from memory. Default 1 000 ms. */
  connectTimeoutMs?: number;
  /** Longest wait for one Redis command before it counts as an outage. Default 1 000 ms (200 ms mistook CPU stalls of a busy replica for outages). */
  commandTimeoutMs?: number;
  /** Cap of the reconnect back-off and the recovery probe interval. Default 1 000 ms. */
  retryMaxDelayMs?: number;
  /** Memory backend expiry sweep interval. Default 5 000 ms. */
  sweepIntervalMs?: number;
  /** Called when a Redis-backed store switches between 'redis' and 'memory' (outage, recovery). */
  onActiveChange?: (active: StoreBackend) => void;
  /** Replicas sharing the limits; unset: counted by a heartbeat in Redis (1 on the memory store). */
  replicas?: number;
  /** Replica heartbeat interval. Default 5 000 ms. */
  heartbeatMs?: number;
}

/**
 * Builds the shared store. Importing this module never connects; calling this function
 * connects when Redis is configured, waiting at most `connectTimeoutMs`. It never rejects
 * because Redis is down: the store then serves from memory until Redis answers.
 */
export async function createSharedStore(opts: SharedStoreOptions): Promise<SharedStore> {
  const { logger } = opts;
  const memory = createMemoryStore({ logger, maxKeys: opts.maxKeys, sweepIntervalMs: opts.sweepIntervalMs, replicas: opts.replicas });
  if (opts.cacheStore !== 'redis') {
    if (opts.cacheStore === 'memory' && (opts.url || opts.host)) {
      logger.warn('shared store: CACHE_STORE=memory, so the configured Redis address (SHARED_STORE_URL, REDIS_URL or SHARED_STORE_HOST) is ignored');
    }
    logger.info('shared store: per-process memory (CACHE_STORE is not redis); limits and presence are per replica');
    return memory;
  }
  if (!opts.url && !opts.host) {
    logger.warn('shared store: CACHE_STORE is redis but no URL or host is set; using per-process memory');
    return memory;
  }

  const retryMaxDelayMs = opts.retryMaxDelayMs ?? 1_000;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 1_000;
  const client = connectRedis(opts)!; // checked above: redis with an address
  const subscriber = client.duplicate();
  // Errors are reported through the failover store's logs; an unhandled 'error' would be noise.
  subscriber.on('error', (err: Error) => logger.debug({ err: err.message }, 'shared store subscriber connection error'));
  let lastError: unknown = new Error('not reachable at start');
  client.on('error', (err: Error) => {
    lastError = err;
  });

  const connected = await connectWithin(connectTimeoutMs, [client, subscriber]);
  const redis = createRedisStore({ client, subscriber, keyPrefix: opts.keyPrefix, logger });
  const target = describeTarget(opts);
  if (connected) logger.info({ target }, 'shared store: redis');
  const store = new FailoverStore({
    redis,
    memory,
    client,
    logger,
    target,
    connected,
    startError: lastError,
    probeIntervalMs: retryMaxDelayMs,
    onActiveChange: opts.onActiveChange,
    replicas: opts.replicas,
    heartbeatMs: opts.heartbeatMs,
  });
  await store.announce();
  return store;
}

/**
 * A new (lazily connecting) client of the store's Redis with the store's options, or null when the
 * store is not Redis. The store itself uses it; so does Socket.IO's Redis adapter, which needs its
 * own publish and subscribe connections.
 */
export function connectRedis(opts: Omit<SharedStoreOptions, 'logger'>, extra: RedisOptions = {}): Redis | null {
  if (opts.cacheStore !== 'redis' || (!opts.url && !opts.host)) return null;
  const redisOptions: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? 1_000,
    connectTimeout: opts.connectTimeoutMs ?? 1_000,
    autoResubscribe: false, // the Redis backend resubscribes itself on 'ready'
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), opts.retryMaxDelayMs ?? 1_000),
    ...(opts.url
      ? {}
      : { host: opts.host, port: opts.port ?? 6379, db: opts.db ?? 0, username: opts.username, password: opts.password }),
    ...extra,
  };
  return opts.url ? new Redis(opts.url, redisOptions) : new Redis(redisOptions);
}

/** Connects all connections, waiting at most `ms`; true when the first (commands) is ready. */
async function connectWithin(ms: number, conns: Redis[]): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms + 50);
  });
  // A failed first attempt is not final: ioredis keeps reconnecting in the background.
  const attempts = Promise.all(conns.map((c) => c.connect().catch(() => undefined)));
  await Promise.race([attempts, timeout]);
  clearTimeout(timer);
  return conns[0].status === 'ready';
}

/** host:port/db for logs, never credentials. */
function describeTarget(opts: SharedStoreOptions): string {
  if (opts.url) {
    try {
      const u = new URL(opts.url);
      return `${u.protocol}//${u.host}${u.pathname}`;
    } catch {
      return 'redis (unparsable URL)';
    }
  }
  return `redis://${opts.host}:${opts.port ?? 6379}/${opts.db ?? 0}`;
}
