/**
 * The shared store: counters, leases, member sets, a small cache and pub/sub that every
 * replica sees when Redis is configured, and that fall back to bounded per-process state
 * when it is not (or while it is unreachable).
 */

export type StoreBackend = 'redis' | 'memory';

export interface HitResult {
  /** Count in the current window, including this hit. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /**
   * Fraction of a limit this process may grant against `count`: 1 when the count is shared by
   * every replica, 1/replicas when it is only this process's (a Redis outage, or a memory store
   * with a configured replica count).
   */
  share: number;
}

export type MessageHandler = (message: string) => void;
export type Unsubscribe = () => Promise<void>;

export interface SharedStore {
  /** The configured backend. */
  readonly kind: StoreBackend;
  /** The backend serving operations right now ('memory' while Redis is unreachable). */
  readonly active: StoreBackend;

  /** Fixed-window counter: adds `cost` (default 1); the first hit of a window sets its expiry. */
  hit(key: string, windowMs: number, cost?: number): Promise<HitResult>;

  /** Takes the lease when free or already held by `holder` (then extends it). */
  acquireLease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends the lease only while `holder` still holds it. */
  renewLease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Frees the lease only if `holder` holds it. */
  releaseLease(key: string, holder: string): Promise<void>;

  /** Adds (or refreshes) a member with its own expiry; returns the live member count. */
  addMember(set: string, member: string, ttlMs: number): Promise<number>;
  /** Adds (or refreshes) many members with one expiry in one operation (heartbeats); returns the live member count. */
  addMembers(set: string, members: readonly string[], ttlMs: number): Promise<number>;
  /** Removes a member; returns the live member count. */
  removeMember(set: string, member: string): Promise<number>;
  /** Live members, in no particular order. */
  members(set: string): Promise<string[]>;

  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Deletes every key starting with `prefix` (cache invalidation; not for hot paths). */
  delPrefix(prefix: string): Promise<void>;

  /** Delivers `message` to every subscriber of `channel`, in this and other replicas. */
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; the result unsubscribes. */
  subscribe(channel: string, onMessage: MessageHandler): Promise<Unsubscribe>;

  close(): Promise<void>;
}

/** Milliseconds as a positive integer, as Redis expects them. */
export function toTtl(ms: number, what = 'ttlMs'): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`${what} must be a positive number, got ${ms}`);
  return Math.ceil(ms);
}

export function toCost(cost: number): number {
  if (!Number.isSafeInteger(cost) || cost < 0) throw new RangeError(`cost must be a non-negative integer, got ${cost}`);
  return cost;
}
