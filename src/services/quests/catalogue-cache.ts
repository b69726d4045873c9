import type { StoredCampaign, StoredCatalogueEntry, StoredQuest } from './catalogue-store';
import type { QuestRef } from './progress';

/** The stored catalogue as one process reads it, indexed for status reads and the upkeep. */
export interface CatalogueSnapshot {
  /** Campaigns by start, then slug; quests in listing order. */
  entries: readonly StoredCatalogueEntry[];
  bySlug: ReadonlyMap<string, { campaign: StoredCampaign; quests: readonly StoredQuest[]; byKey: ReadonlyMap<string, StoredQuest> }>;
  /** Every quest of every campaign (what the progress upkeep refreshes). */
  refs: readonly QuestRef[];
}

export interface CatalogueCache {
  /** The snapshot, loaded again when older than the TTL or invalidated since (concurrent misses share one load). */
  get(): Promise<CatalogueSnapshot>;
  /** Drops the snapshot, and any load already under way, for the next `get`. */
  invalidate(): void;
}

function snapshotOf(entries: StoredCatalogueEntry[]): CatalogueSnapshot {
  return {
    entries,
    bySlug: new Map(entries.map((e) => [e.campaign.slug, { campaign: e.campaign, quests: e.quests, byKey: new Map(e.quests.map((q) => [q.key, q])) }])),
    refs: entries.flatMap((e) => e.quests.map((quest) => ({ campaignSlug: e.campaign.slug, quest }))),
  };
}

/**
 * The per-process copy of the `campaign` and `quest` tables. An edit invalidates it on every
 * replica at once (the quests service listens to the `quests` read-cache generation); the TTL
 * bounds how stale a replica that missed the announcement can be. A load started before an
 * invalidation is never kept: its rows may predate the change.
 */
export function createCatalogueCache(deps: { load: () => Promise<StoredCatalogueEntry[]>; ttlMs: number }): CatalogueCache {
  let generation = 0;
  let current: { snapshot: CatalogueSnapshot; loadedAt: number; generation: number } | null = null;
  let loading: { promise: Promise<CatalogueSnapshot>; generation: number } | null = null;

  return {
    get() {
      if (current && current.generation === generation && performance.now() - current.loadedAt < deps.ttlMs) return Promise.resolve(current.snapshot);
      if (loading && loading.generation === generation) return loading.promise;
      const started = { generation, at: performance.now() };
      const promise = deps
        .load()
        .then((entries) => {
          const snapshot = snapshotOf(entries);
          if (started.generation === generation) current = { snapshot, loadedAt: started.at, generation: started.generation };
          return snapshot;
        })
        .finally(() => {
          if (loading?.promise === promise) loading = null;
        });
      loading = { promise, generation: started.generation };
      return promise;
    },
    invalidate() {
      generation++;
      current = null;
    },
  };
}
