import { LRUCache } from 'lru-cache';
import type { StoredCheck, StoredState } from './progress';

/**
 * How long a wallet's stored progress and claims are reused without a change reaching this
 * process: the bound for a lost bus message (Redis away) or a script's direct write
 * (`quests:rebuild --apply`), as the replicated snapshots reload every 5 s.
 */
export const STATUS_CACHE_TTL_MS = 5_000;
/** Wallets whose states are kept (least recently read dropped first); a few quests' states each. */
const MAX_WALLETS = 20_000;

export interface StatusCache {
  /**
   * The stored state of each check, in order: what this process read before (and no change
   * dropped since) from memory, the rest by one `load` of the missing checks.
   */
  read(checks: readonly StoredCheck[], load: (missing: readonly StoredCheck[]) => Promise<StoredState[]>): Promise<StoredState[]>;
  /** These wallets' progress or claims changed: their states are read again (a load under way is not kept). */
  drop(players: Iterable<string>): void;
  /** Everything changed (a quest's progress recomputed, the catalogue edited). */
  clear(): void;
}

/** One wallet's check (the wallet is the outer key). The period start is part of it: a new period is a new key. */
const keyOf = (c: StoredCheck): string => `${c.campaignSlug}\n${c.questKey}\n${c.timePeriod}\n${c.periodStart.getTime()}`;

/**
 * The per-process cache of quest status reads, per wallet. A wallet's entry is dropped when its
 * progress or claims change (the progress upkeep after an indexed batch or a login, a claim: on
 * this replica at once, on the others through the bus), and lives at most the TTL otherwise. A
 * load that a drop overtook answers its request but is not kept: its rows may predate the change
 * (one epoch for all wallets: any drop during a load discards that load's fill, which costs only
 * a later miss). Concurrent misses are not merged across requests: each load carries its own
 * request's abort signal.
 */
export function createStatusCache(opts: { ttlMs?: number; maxWallets?: number } = {}): StatusCache {
  const wallets = new LRUCache<string, Map<string, StoredState>>({ max: opts.maxWallets ?? MAX_WALLETS, ttl: opts.ttlMs ?? STATUS_CACHE_TTL_MS });
  let epoch = 0;

  function keep(player: string, key: string, state: StoredState): void {
    const states = wallets.get(player);
    // An entry's TTL runs from its first fill: later checks of the wallet expire with it.
    if (states) states.set(key, state);
    else wallets.set(player, new Map([[key, state]]));
  }

  return {
    async read(checks, load) {
      const out: StoredState[] = new Array(checks.length);
      const missing: StoredCheck[] = [];
      const missingKeys: string[] = [];
      const missingAt: number[] = [];
      checks.forEach((c, i) => {
        const key = keyOf(c);
        const known = wallets.get(c.player)?.get(key);
        if (known) out[i] = known;
        else {
          missing.push(c);
          missingKeys.push(key);
          missingAt.push(i);
        }
      });
      if (missing.length === 0) return out;
      const started = epoch;
      const states = await load(missing);
      const kept = epoch === started;
      missing.forEach((c, n) => {
        out[missingAt[n]] = states[n];
        if (kept) keep(c.player, missingKeys[n], states[n]);
      });
      return out;
    },
    drop(players) {
      epoch++;
      for (const player of players) wallets.delete(player);
    },
    clear() {
      epoch++;
      wallets.clear();
    },
  };
}
