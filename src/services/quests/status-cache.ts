import { LRUCache } from 'lru-cache';
import type { StoredCheck, StoredState } from './progress';

/**
 * How long a wallet's stored progress and claims are reused without a change reaching this
 * process: the bound for a lost announcement (Redis away) or a script's direct write
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
const sameQuestPeriod = (a: StoredCheck, b: StoredCheck): boolean =>
  a.questKey === b.questKey && a.campaignSlug === b.campaignSlug && a.timePeriod === b.timePeriod && a.periodStart.getTime() === b.periodStart.getTime();

/**
 * The per-process cache of quest status reads, per wallet. A wallet's entry is dropped when its
 * progress or claims change (the progress upkeep after an indexed batch or a login, a claim: on
 * this replica at once, on the others through the `questProgress` read-cache bump), and lives at most the TTL otherwise. A
 * load that a drop overtook answers its request but is not kept: its rows may predate the change
 * (one epoch for all wallets: any drop during a load discards that load's fill, which costs only
 * a later miss). Concurrent misses are not merged across requests: each load carries its own
 * request's abort signal.
 */
export function createStatusCache(opts: { ttlMs?: number; maxWallets?: number } = {}): StatusCache {
  const ttlMs = opts.ttlMs ?? STATUS_CACHE_TTL_MS;
  // The expiry is checked here, once per read (lru-cache's own TTL costs a clock read and a check per lookup).
  const wallets = new LRUCache<string, { expiresAt: number; states: Map<string, StoredState> }>({ max: opts.maxWallets ?? MAX_WALLETS });
  let epoch = 0;

  /** The wallet's states while they are fresh. */
  function statesOf(player: string, now: number): Map<string, StoredState> | undefined {
    const entry = wallets.get(player);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.states;
    wallets.delete(player);
    return undefined;
  }

  function keep(player: string, key: string, state: StoredState, now: number): void {
    const states = statesOf(player, now);
    // An entry's TTL runs from its first fill: later checks of the wallet expire with it.
    if (states) states.set(key, state);
    else wallets.set(player, { expiresAt: now + ttlMs, states: new Map([[key, state]]) });
  }

  return {
    async read(checks, load) {
      const out: StoredState[] = new Array(checks.length);
      const missing: StoredCheck[] = [];
      const missingKeys: string[] = [];
      const missingAt: number[] = [];
      const now = performance.now();
      // A batch usually checks one or a few quests: each quest's part of the key is built once.
      let lastQuest: StoredCheck | undefined;
      let lastKey = '';
      checks.forEach((c, i) => {
        if (!lastQuest || !sameQuestPeriod(c, lastQuest)) [lastQuest, lastKey] = [c, keyOf(c)];
        const key = lastKey;
        const known = statesOf(c.player, now)?.get(key);
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
      const filledAt = performance.now();
      missing.forEach((c, n) => {
        out[missingAt[n]] = states[n];
        if (kept) keep(c.player, missingKeys[n], states[n], filledAt);
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
