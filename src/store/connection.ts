import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { parseStoreAddress } from '../config/store-address';

/** A connection to the shared store's Redis: one server (possibly found through Sentinel) or a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

export interface RedisAddressOptions {
  cacheStore?: 'redis' | 'memory';
  /** redis://, rediss://, redis-sentinel:// or redis-cluster:// (src/config/store-address.ts); wins over host/port. */
  url?: string;
  host?: string;
  port?: number;
  db?: number;
  username?: string;
  password?: string;
  /** Longest wait for Redis at start before serving from memory. Default 1 000 ms. */
  connectTimeoutMs?: number;
  /** Longest wait for one Redis command before it counts as an outage. Default 1 000 ms (200 ms mistook CPU stalls of a busy replica for outages). */
  commandTimeoutMs?: number;
  /** Cap of the reconnect back-off and the recovery probe interval. Default 1 000 ms. */
  retryMaxDelayMs?: number;
}

/**
 * The one place that opens Redis connections (the store's command and subscriber connections, and
 * Socket.IO's adapter): a new, lazily connecting client with the store's options, or null when the
 * store is not Redis. `extra` overrides the defaults (e.g. an offline queue for a subscriber).
 */
export function connectRedis(opts: RedisAddressOptions, extra: RedisOptions = {}): RedisConnection | null {
  if (opts.cacheStore !== 'redis' || (!opts.url && !opts.host)) return null;
  const retryStrategy = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 10), opts.retryMaxDelayMs ?? 1_000);
  const base: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? 1_000,
    connectTimeout: opts.connectTimeoutMs ?? 1_000,
    autoResubscribe: false, // the Redis backend resubscribes itself on 'ready'
    ...extra,
  };
  if (!opts.url) {
    return new Redis({ ...base, retryStrategy, host: opts.host, port: opts.port ?? 6379, db: opts.db ?? 0, username: opts.username, password: opts.password });
  }
  const address = parseStoreAddress(opts.url);
  switch (address.kind) {
    case 'single':
      return new Redis(address.url, { ...base, retryStrategy });
    case 'sentinel':
      return new Redis({
        ...base,
        sentinels: address.sentinels,
        name: address.name,
        db: address.db,
        username: address.username,
        password: address.password,
        sentinelPassword: address.sentinelPassword,
        // Sentinel re-resolves the master on every reconnect; the same back-off paces both.
        sentinelRetryStrategy: retryStrategy,
        retryStrategy,
        // Listens for the sentinels' +switch-master and reconnects at once, instead of writing to a demoted master until it drops us.
        failoverDetector: true,
        ...(address.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
      });
    case 'cluster': {
      const { enableOfflineQueue, lazyConnect, ...redisOptions } = base;
      const options: ClusterOptions = {
        lazyConnect,
        enableOfflineQueue,
        clusterRetryStrategy: retryStrategy,
        redisOptions: { ...redisOptions, username: address.username, password: address.password, ...(address.tls ? { tls: {} } : {}) },
      };
      return new Cluster(address.nodes, options);
    }
  }
}

/** Where Redis is, for logs: hosts and database or master name, never credentials. */
export function describeTarget(opts: RedisAddressOptions): string {
  if (!opts.url) return `redis://${opts.host}:${opts.port ?? 6379}/${opts.db ?? 0}`;
  try {
    const address = parseStoreAddress(opts.url);
    const hosts = (list: { host: string; port: number }[]) => list.map((h) => `${h.host}:${h.port}`).join(',');
    if (address.kind === 'sentinel') return `redis-sentinel://${hosts(address.sentinels)}/${address.name}?db=${address.db}`;
    if (address.kind === 'cluster') return `redis-cluster://${hosts(address.nodes)}`;
    const u = new URL(address.url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'redis (unparsable URL)';
  }
}
