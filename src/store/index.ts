import type { Logger } from 'pino';
import { connectRedis, describeTarget, type RedisAddressOptions, type RedisConnection } from './connection';
import { FailoverStore } from './failover';
import { createMemoryStore } from './memory';
import { createRedisStore } from './redis';
import type { SharedStore, StoreBackend } from './types';

export type { HitResult, MessageHandler, SharedStore, StoreBackend, Unsubscribe } from './types';
export { createMemoryStore, type MemoryStore } from './memory';
export { FailoverStore } from './failover';
export { createBus, defineChannel, defineChannelFamily, BusStream, type Bus, type BusPubSub, type Channel, type PayloadOf } from './bus';
export { connectRedis, type RedisConnection } from './connection';
export { renewMembers } from './renew-members';
export { createSliceQueue } from './slices';
export { createReplicatedSnapshot, type ReplicatedSnapshot } from './replicated-snapshot';

/** The Redis address and timeouts (./connection.ts; `cacheStore: 'redis'` selects Redis when `url` or `host` is given, anything else is per-process memory), and: */
export interface SharedStoreOptions extends RedisAddressOptions {
  /** Prepended to every key and channel (e.g. per environment or per test). */
  keyPrefix?: string;
  logger: Logger;
  /** Memory backend budget: keys plus set members. Default 10 000. */
  maxKeys?: number;
  /** Memory backend expiry sweep interval. Default 5 000 ms. */
  sweepIntervalMs?: number;
  /** Called when a Redis-backed store switches between 'redis' and 'memory' (outage, recovery). */
  onActiveChange?: (active: StoreBackend) => void;
  /** Replicas sharing the limits; unset: counted by a heartbeat in Redis (1 on the memory store). */
  replicas?: number;
  /** Replica heartbeat interval. Default 5 000 ms. */
  heartbeatMs?: number;
  /** Whether this process counts among the replicas limits are divided by (API processes; default true). */
  countsAsReplica?: boolean;
  /** Longest wait for one store call before it is served from memory and the outage begins. Default `commandTimeoutMs` (the runtime passes SHARED_STORE_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
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
    callTimeoutMs: opts.callTimeoutMs ?? opts.commandTimeoutMs,
    onActiveChange: opts.onActiveChange,
    replicas: opts.replicas,
    heartbeatMs: opts.heartbeatMs,
    countsAsReplica: opts.countsAsReplica,
  });
  await store.announce();
  return store;
}

/** Connects all connections, waiting at most `ms`; true when the first (commands) is ready. */
async function connectWithin(ms: number, conns: RedisConnection[]): Promise<boolean> {
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
