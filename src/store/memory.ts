import type { Logger } from 'pino';
import { LocalBus } from './local-bus';
import { toCost, toTtl, type HitResult, type MessageHandler, type SharedStore, type Unsubscribe } from './types';

interface StringEntry {
  type: 'string';
  value: string;
  expiresAt: number;
}

/**
 * members: member → expiry. expiresAt bounds the latest member expiry from above and
 * pruneAt the earliest from below, so pruning runs only when something may have expired.
 */
interface SetEntry {
  type: 'set';
  members: Map<string, number>;
  expiresAt: number;
  pruneAt: number;
}

type Entry = StringEntry | SetEntry;

export interface MemoryStoreOptions {
  logger: Logger;
  /** Budget of entries: each key counts 1 and each set member 1 more. Default 10 000. */
  maxKeys?: number;
  /** How often expired entries are swept. Default 5 000 ms. */
  sweepIntervalMs?: number;
  /** Replicas each keeping their own counts: `hit` results carry a share of 1/replicas. Default 1. */
  replicas?: number;
  now?: () => number;
}

export interface MemoryStore extends SharedStore {
  readonly kind: 'memory';
  /** Entries held (keys plus set members); never above maxKeys. */
  readonly size: number;
  /** Removes expired entries now. */
  sweep(): void;
  /** Drops all keys (subscriptions stay). */
  clear(): void;
  /**
   * Raises the counter at `key` to at least `count`, expiring in `resetMs` (a count seen in
   * Redis, so a later outage continues from it instead of from zero).
   */
  seedCounter(key: string, count: number, resetMs: number): void;
}

const DEFAULT_MAX_KEYS = 10_000;
const DEFAULT_SWEEP_MS = 5_000;

/** Bounded per-process store: LRU eviction over a weight budget, lazy and periodic expiry. */
export function createMemoryStore(opts: MemoryStoreOptions): MemoryStore {
  const maxKeys = Math.max(1, opts.maxKeys ?? DEFAULT_MAX_KEYS);
  const now = opts.now ?? Date.now;
  const share = 1 / Math.max(1, opts.replicas ?? 1);
  const logger = opts.logger;
  /** Insertion order is recency order: touching a key moves it to the end. */
  const entries = new Map<string, Entry>();
  const bus = new LocalBus(logger);
  let weight = 0;
  let warnedFull = false;

  const sweepTimer = setInterval(() => sweep(), opts.sweepIntervalMs ?? DEFAULT_SWEEP_MS);
  sweepTimer.unref();

  function entryWeight(entry: Entry): number {
    return entry.type === 'set' ? 1 + entry.members.size : 1;
  }

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    weight -= entryWeight(entry);
    entries.delete(key);
  }

  /** Live entry (recency refreshed), or undefined when absent or expired. */
  function live(key: string, t: number): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= t) {
      remove(key);
      return undefined;
    }
    if (entry.type === 'set') pruneMembers(entry, t);
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function pruneMembers(entry: SetEntry, t: number): void {
    if (entry.pruneAt > t) return;
    let next = Infinity;
    for (const [member, exp] of entry.members) {
      if (exp <= t) {
        entry.members.delete(member);
        weight -= 1;
      } else if (exp < next) next = exp;
    }
    entry.pruneAt = next;
  }

  function put(key: string, entry: Entry): void {
    remove(key);
    entries.set(key, entry);
    weight += entryWeight(entry);
    enforceBudget(key);
  }

  /** Evicts least recently used keys (never `keep` unless it alone is over budget). */
  function enforceBudget(keep: string): void {
    if (weight <= maxKeys) return;
    if (!warnedFull) {
      warnedFull = true;
      logger.info({ maxKeys }, 'memory store full: evicting least recently used keys');
    }
    for (const [key, entry] of entries) {
      if (weight <= maxKeys) return;
      if (key !== keep) remove(key);
      else if (entry.type === 'set') trimSet(entry);
    }
    const kept = entries.get(keep);
    if (weight > maxKeys && kept?.type === 'set') trimSet(kept);
  }

  /** Drops the members closest to expiry until the set fits the budget. */
  function trimSet(entry: SetEntry): void {
    const excess = weight - maxKeys;
    if (excess <= 0) return;
    const byExpiry = [...entry.members].sort((a, b) => a[1] - b[1]);
    for (const [member] of byExpiry.slice(0, Math.min(excess, entry.members.size))) {
      entry.members.delete(member);
      weight -= 1;
    }
  }

  function sweep(): void {
    const t = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt <= t) remove(key);
      else if (entry.type === 'set') pruneMembers(entry, t);
    }
  }

  function stringEntry(key: string, t: number): StringEntry | undefined {
    const entry = live(key, t);
    if (entry && entry.type !== 'string') throw wrongType(key);
    return entry;
  }

  function setEntry(key: string, t: number): SetEntry | undefined {
    const entry = live(key, t);
    if (entry && entry.type !== 'set') throw wrongType(key);
    return entry;
  }

  async function addMembers(set: string, members: readonly string[], ttlMs: number): Promise<number> {
    const ttl = toTtl(ttlMs);
    const t = now();
    let entry = setEntry(set, t);
    if (!entry) {
      entry = { type: 'set', members: new Map(), expiresAt: t + ttl, pruneAt: t + ttl };
      put(set, entry);
    }
    for (const member of members) {
      if (!entry.members.has(member)) weight += 1;
      entry.members.set(member, t + ttl);
    }
    entry.expiresAt = Math.max(entry.expiresAt, t + ttl);
    entry.pruneAt = Math.min(entry.pruneAt, t + ttl);
    enforceBudget(set);
    return entry.members.size;
  }

  const store: MemoryStore = {
    kind: 'memory',
    active: 'memory',
    get size() {
      return weight;
    },
    sweep,
    clear() {
      entries.clear();
      weight = 0;
    },
    seedCounter(key, count, resetMs) {
      if (!Number.isSafeInteger(count) || count <= 0 || !(resetMs > 0)) return;
      const t = now();
      const entry = live(key, t);
      if (entry && (entry.type !== 'string' || Number(entry.value) >= count)) return;
      put(key, { type: 'string', value: String(count), expiresAt: t + Math.ceil(resetMs) });
    },

    async hit(key: string, windowMs: number, cost = 1): Promise<HitResult> {
      const window = toTtl(windowMs, 'windowMs');
      const add = toCost(cost);
      const t = now();
      const entry = stringEntry(key, t);
      if (!entry) {
        put(key, { type: 'string', value: String(add), expiresAt: t + window });
        return { count: add, resetMs: window, share };
      }
      const current = Number(entry.value);
      if (!Number.isSafeInteger(current)) throw new Error(`value at ${key} is not an integer`);
      entry.value = String(current + add);
      return { count: current + add, resetMs: entry.expiresAt - t, share };
    },

    async acquireLease(key, holder, ttlMs) {
      const ttl = toTtl(ttlMs);
      const t = now();
      const entry = stringEntry(key, t);
      if (entry && entry.value !== holder) return false;
      if (entry) entry.expiresAt = t + ttl;
      else put(key, { type: 'string', value: holder, expiresAt: t + ttl });
      return true;
    },

    async renewLease(key, holder, ttlMs) {
      const ttl = toTtl(ttlMs);
      const t = now();
      const entry = stringEntry(key, t);
      if (!entry || entry.value !== holder) return false;
      entry.expiresAt = t + ttl;
      return true;
    },

    async releaseLease(key, holder) {
      const entry = stringEntry(key, now());
      if (entry?.value === holder) remove(key);
    },

    addMember: (set, member, ttlMs) => addMembers(set, [member], ttlMs),
    addMembers,

    async removeMember(set, member) {
      const t = now();
      const entry = setEntry(set, t);
      if (!entry) return 0;
      if (entry.members.delete(member)) weight -= 1;
      if (entry.members.size === 0) remove(set);
      return entry.members.size;
    },

    async members(set) {
      const entry = setEntry(set, now());
      return entry ? [...entry.members.keys()] : [];
    },

    async get(key) {
      return stringEntry(key, now())?.value ?? null;
    },

    async set(key, value, ttlMs) {
      put(key, { type: 'string', value, expiresAt: now() + toTtl(ttlMs) });
    },

    async del(...keys) {
      for (const key of keys) remove(key);
    },

    async delPrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) remove(key);
    },

    async publish(channel, message) {
      bus.publish(channel, message);
    },

    async subscribe(channel: string, onMessage: MessageHandler): Promise<Unsubscribe> {
      return bus.subscribe(channel, onMessage);
    },

    async close() {
      clearInterval(sweepTimer);
      entries.clear();
      weight = 0;
      bus.clear();
    },
  };
  return store;
}

function wrongType(key: string): Error {
  return new Error(`WRONGTYPE Operation against a key holding the wrong kind of value: ${key}`);
}
