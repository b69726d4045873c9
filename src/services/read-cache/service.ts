import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { SharedStore } from '../../store';

/**
 * What cached reads depend on: `chain` is everything the indexer commits (leaderboards, bets,
 * VIP levels), `prices` the price poller's snapshot, `blog` the published posts (bumped after each
 * partner delivery), `quests` the campaigns and quests (bumped by each operator edit),
 * `questProgress` the wallets' stored quest progress and claims (bumped by the progress upkeep and
 * each claim, naming the wallets).
 */
export const CACHED_DOMAINS = ['chain', 'prices', 'blog', 'quests', 'questProgress'] as const;
export type CachedDomain = (typeof CACHED_DOMAINS)[number];

export interface ReadCacheService {
  /** The generation of every domain, folded into each cached response's key (src/graphql/response-cache.ts). */
  generations(): string;
  /**
   * A change was committed in `domain`: no replica serves a response cached before it from now on.
   * `scope` names what changed (keys without spaces or commas, e.g. wallets) for the listeners that
   * keep finer copies; without it, everything in the domain did.
   */
  bump(domain: CachedDomain, scope?: readonly string[]): Promise<void>;
  /**
   * Runs `listener` (in this process) whenever `domain` changes here or on another replica, before
   * the new generation is visible, with the bump's scope (null: everything).
   */
  onBump(domain: CachedDomain, listener: (scope: readonly string[] | null) => void): void;
}

const CHANNEL = 'readcache:bump';
const generationKey = (domain: CachedDomain) => `readcache:gen:${domain}`;
/** Generations outlive any cached response by far; an expired one only makes the next responses miss once. */
const GENERATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Cache generations per domain, kept in the shared store and announced over its pub/sub: a bump
 * replaces the domain's generation, so the keys of every response cached before it are never
 * looked up again (they expire by their max-age), on every replica, in O(1) — no scan and delete.
 */
export async function createReadCacheService(deps: { store: SharedStore; logger?: Logger }): Promise<ReadCacheService> {
  const current = new Map<CachedDomain, string>();
  const listeners = new Map<CachedDomain, ((scope: readonly string[] | null) => void)[]>();
  let key = '';
  const apply = (domain: CachedDomain, generation: string, scope: readonly string[] | null) => {
    if (current.get(domain) === generation) return;
    // Local layers (the leaderboard reads' LRU, the quest status reads) drop their entries before a
    // request can see the new generation, so nothing older is cached under it.
    for (const listener of listeners.get(domain) ?? []) listener(scope);
    current.set(domain, generation);
    key = CACHED_DOMAINS.map((d) => current.get(d) ?? '0').join('.');
  };
  await deps.store.subscribe(CHANNEL, (message) => {
    const [domain, generation, scope] = message.split(' ');
    if ((CACHED_DOMAINS as readonly string[]).includes(domain!) && generation) apply(domain as CachedDomain, generation, scope ? scope.split(',') : null);
  });
  for (const domain of CACHED_DOMAINS) apply(domain, (await deps.store.get(generationKey(domain)).catch(() => null)) ?? '0', null);
  return {
    generations: () => key,
    async bump(domain, scope) {
      const generation = randomUUID().slice(0, 8);
      apply(domain, generation, scope ?? null);
      try {
        await deps.store.set(generationKey(domain), generation, GENERATION_TTL_MS);
        await deps.store.publish(CHANNEL, scope ? `${domain} ${generation} ${scope.join(',')}` : `${domain} ${generation}`);
      } catch (err) {
        // Other replicas then serve their cached responses until those expire (short max-age).
        deps.logger?.warn({ err, domain }, 'read cache: could not announce a new generation');
      }
    },
    onBump(domain, listener) {
      listeners.set(domain, [...(listeners.get(domain) ?? []), listener]);
    },
  };
}
