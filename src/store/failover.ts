import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { MemoryStore } from './memory';
import type { RedisConnection } from './connection';
import type { RedisStore } from './redis';
import { isOutage } from './errors';
import { createHitCoalescer } from './hit-coalescer';
import { toCost, toTtl, type HitResult, type MessageHandler, type SharedStore, type StoreBackend, type Unsubscribe } from './types';
import { withDeadline } from '../deadline';

export interface FailoverOptions {
  redis: RedisStore;
  memory: MemoryStore;
  /** The command connection, watched for outages and recovery. */
  client: RedisConnection;
  logger: Logger;
  /** Where Redis is, for logs (never credentials). */
  target: string;
  /** Whether Redis answered at start. */
  connected: boolean;
  /** Why it did not, for the outage warning. */
  startError?: unknown;
  /** Called when the serving backend changes (e.g. to drive a metric). */
  onActiveChange?: (active: StoreBackend) => void;
  /** Longest wait for one call to Redis before it is served from memory and the outage begins. Default 1 000 ms. */
  callTimeoutMs?: number;
  /** How often a degraded store checks that Redis answers again. Default 1 000 ms. */
  probeIntervalMs?: number;
  /** Replicas sharing this store, when configured; otherwise counted by heartbeat. */
  replicas?: number;
  /** How often this process announces itself in the replica set. Default 5 000 ms. */
  heartbeatMs?: number;
  /**
   * Whether this process is one of the replicas limits are divided among (an API process). Default
   * true; a jobs or indexer process admits no requests, so it only reads the count.
   */
  countsAsReplica?: boolean;
}

/** At most this many invalidations are remembered during an outage, to replay on recovery. */
const MAX_PENDING_INVALIDATIONS = 10_000;
/** Member set of live API replicas (each refreshes its entry every heartbeat; 3 missed beats drop it). */
const REPLICAS_KEY = 'store:replicas';

/**
 * Serves every operation from Redis while it answers and from the memory store while it
 * does not. A call Redis leaves unanswered for `callTimeoutMs` (a frozen server keeps its
 * connections open, so nothing fails) is served from memory and begins the outage at once.
 * An outage is logged once (warn) and its end once (info). While degraded,
 * operations go straight to memory (no waiting on a dead connection); a probe and the
 * client's 'ready' event detect recovery. On recovery the memory state is dropped, and
 * cache deletions made during the outage are replayed on Redis.
 *
 * Counters stay conservative through an outage: every count Redis returns is mirrored into
 * memory, so the fallback continues from the last known count, and fallback results carry a
 * share of 1/replicas (configured, or the replica set last seen by heartbeat) so that all
 * replicas together grant no more than the limit.
 */
export class FailoverStore implements SharedStore {
  readonly kind = 'redis' as const;
  private up: boolean;
  private closed = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly pendingKeys = new Set<string>();
  private readonly pendingPrefixes = new Set<string>();
  private pendingOverflow = false;
  private readonly instanceId = randomUUID();
  private seenReplicas = 1;
  private readonly heartbeatTimer: NodeJS.Timeout;

  constructor(private readonly opts: FailoverOptions) {
    this.up = opts.connected;
    const { client, logger } = opts;
    client.on('error', (err: Error) => logger.debug({ err: err.message }, 'shared store connection error'));
    client.on('close', () => this.markDown(new Error('connection closed')));
    client.on('ready', () => void this.probe());
    if (!this.up) this.degrade(opts.startError ?? new Error('not reachable at start'));
    this.heartbeatTimer = setInterval(() => void this.announce(), opts.heartbeatMs ?? 5_000);
    this.heartbeatTimer.unref();
    // Announce at once: an outage in the first heartbeat interval must already divide the limit.
    void this.announce();
  }

  get active(): StoreBackend {
    return this.up ? 'redis' : 'memory';
  }

  /** Replicas limits are divided among during an outage: configured, else last seen in Redis (at least 1). */
  get replicas(): number {
    return this.opts.replicas ?? this.seenReplicas;
  }

  /** Refreshes this process's entry in the replica set (API processes only) and the count seen; a no-op while degraded. */
  async announce(): Promise<void> {
    if (!this.up || this.closed) return;
    const ttlMs = 3 * (this.opts.heartbeatMs ?? 5_000);
    try {
      const seen =
        this.opts.countsAsReplica === false
          ? (await this.opts.redis.members(REPLICAS_KEY)).length
          : await this.opts.redis.addMember(REPLICAS_KEY, this.instanceId, ttlMs);
      this.seenReplicas = Math.max(1, seen);
    } catch (err) {
      if (isOutage(err)) this.markDown(err);
      else this.opts.logger.error({ err }, 'shared store: replica heartbeat refused');
    }
  }

  /** A busy key's hits go together (./hit-coalescer.ts): one round trip, and one memory seed, per batch. */
  private readonly chargeTogether = createHitCoalescer((key, windowMs, cost) =>
    this.run(async (s) => {
      const result = await s.hit(key, windowMs, cost);
      if (s === this.opts.redis) {
        this.opts.memory.seedCounter(key, result.count, result.resetMs);
        return result;
      }
      return { ...result, share: 1 / this.replicas };
    }),
  );

  hit(key: string, windowMs: number, cost = 1): Promise<HitResult> {
    try {
      // Checked alone: a bad argument fails its own call, never a batch it would join.
      return this.chargeTogether(key, toTtl(windowMs, 'windowMs'), toCost(cost));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  acquireLease(key: string, holder: string, ttlMs: number) {
    return this.run((s) => s.acquireLease(key, holder, ttlMs));
  }
  renewLease(key: string, holder: string, ttlMs: number) {
    return this.run((s) => s.renewLease(key, holder, ttlMs));
  }
  releaseLease(key: string, holder: string) {
    return this.run((s) => s.releaseLease(key, holder));
  }
  addMember(set: string, member: string, ttlMs: number) {
    return this.run((s) => s.addMember(set, member, ttlMs));
  }
  addMembers(set: string, members: readonly string[], ttlMs: number) {
    return this.run((s) => s.addMembers(set, members, ttlMs));
  }
  removeMember(set: string, member: string) {
    return this.run((s) => s.removeMember(set, member));
  }
  members(set: string) {
    return this.run((s) => s.members(set));
  }
  get(key: string) {
    return this.run((s) => s.get(key));
  }
  set(key: string, value: string, ttlMs: number) {
    return this.run((s) => s.set(key, value, ttlMs));
  }
  del(...keys: string[]) {
    return this.run(
      (s) => s.del(...keys),
      () => this.remember(keys, this.pendingKeys),
    );
  }
  delPrefix(prefix: string) {
    return this.run(
      (s) => s.delPrefix(prefix),
      () => this.remember([prefix], this.pendingPrefixes),
    );
  }
  publish(channel: string, message: string) {
    return this.run((s) => s.publish(channel, message));
  }

  /**
   * Listens on both backends: a message is published to exactly one of them. The Redis
   * side is kept through outages and re-subscribed when its connection is ready again.
   */
  async subscribe(channel: string, onMessage: MessageHandler): Promise<Unsubscribe> {
    const local = await this.opts.memory.subscribe(channel, onMessage);
    // Never rejects (the Redis side subscribes again when its connection is ready); a frozen Redis only delays it.
    const remote = this.opts.redis.subscribe(channel, onMessage);
    if (this.up) await this.withinDeadline(remote).catch((err: unknown) => this.markDown(err));
    return async () => {
      await local();
      await (await remote)().catch((err: unknown) => this.opts.logger.debug({ err: errorText(err) }, 'shared store unsubscribe failed'));
    };
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    if (this.up && this.opts.countsAsReplica !== false) await this.opts.redis.removeMember(REPLICAS_KEY, this.instanceId).catch(() => undefined);
    this.closed = true;
    this.stopProbe();
    await Promise.all([this.opts.redis.close(), this.opts.memory.close()]);
  }

  private async run<T>(op: (s: SharedStore) => Promise<T>, onFallback?: () => void): Promise<T> {
    if (this.up) {
      try {
        return await this.withinDeadline(op(this.opts.redis));
      } catch (err) {
        if (!isOutage(err)) throw err;
        this.markDown(err);
      }
    }
    onFallback?.();
    return op(this.opts.memory);
  }

  /** The call's result, or a StoreDeadlineError (an outage) once `callTimeoutMs` pass; a late result or failure is dropped. */
  private withinDeadline<T>(call: Promise<T>): Promise<T> {
    const ms = this.opts.callTimeoutMs ?? 1_000;
    return withDeadline(call, ms, () => new StoreDeadlineError(ms));
  }

  private markDown(err: unknown): void {
    if (!this.up || this.closed) return;
    this.up = false;
    this.notify();
    this.degrade(err);
  }

  private notify(): void {
    try {
      this.opts.onActiveChange?.(this.active);
    } catch (err) {
      this.opts.logger.error({ err }, 'shared store onActiveChange threw');
    }
  }

  private degrade(err: unknown): void {
    this.opts.logger.warn(
      { err: errorText(err), target: this.opts.target },
      'shared store unreachable (SHARED_STORE_URL, CACHE_STORE=redis): serving from per-process memory; limits and presence are not shared across replicas until it returns. Start Redis at that address, correct SHARED_STORE_URL, or set CACHE_STORE=memory for a single process',
    );
    this.stopProbe();
    this.probeTimer = setInterval(() => void this.probe(), this.opts.probeIntervalMs ?? 1_000);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.up || this.closed || this.probing || this.opts.client.status !== 'ready') return;
    this.probing = true;
    try {
      await this.opts.client.ping();
      await this.replayInvalidations();
      if (this.closed || this.opts.client.status !== 'ready') return;
      this.up = true;
      this.stopProbe();
      this.opts.memory.clear();
      this.notify();
      this.opts.logger.info({ target: this.opts.target }, 'shared store reachable again: shared state restored');
      await this.announce();
    } catch (err) {
      this.opts.logger.debug({ err: errorText(err) }, 'shared store probe failed');
    } finally {
      this.probing = false;
    }
  }

  private remember(items: string[], into: Set<string>): void {
    for (const item of items) {
      if (this.pendingKeys.size + this.pendingPrefixes.size >= MAX_PENDING_INVALIDATIONS) {
        this.pendingOverflow = true;
        return;
      }
      into.add(item);
    }
  }

  /** Cache deletions made during the outage would otherwise leave stale values in Redis. */
  private async replayInvalidations(): Promise<void> {
    const keys = [...this.pendingKeys];
    for (let i = 0; i < keys.length; i += 500) await this.opts.redis.del(...keys.slice(i, i + 500));
    for (const prefix of this.pendingPrefixes) await this.opts.redis.delPrefix(prefix);
    if (this.pendingOverflow) {
      this.opts.logger.info(
        { max: MAX_PENDING_INVALIDATIONS },
        'shared store: more cache deletions during the outage than remembered; some cached values may be stale until they expire',
      );
    }
    this.pendingKeys.clear();
    this.pendingPrefixes.clear();
    this.pendingOverflow = false;
  }

  private stopProbe(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }
}

/** A shared-store call Redis did not answer within the deadline: treated as an outage (./errors.ts). */
export class StoreDeadlineError extends Error {
  override readonly name = 'StoreDeadlineError';
  constructor(ms: number) {
    super(`no answer from Redis within ${ms} ms (SHARED_STORE_CALL_TIMEOUT_MS)`);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
