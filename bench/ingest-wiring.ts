// The services the indexer reports to in the ingest bench, wired as src/services wires them in
// production: one hooks bus, the leaderboard service's invalidation, and (the hooks variant) the
// quests domain's service subscribed to `chainIndexed`, whose progress upkeep really runs.
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Db } from '../src/db/client';
import { createHooks, type Hooks } from '../src/services/hooks';
import { createLeaderboardService } from '../src/services/leaderboards';
import { createQuestService, DEFAULT_CATALOGUE, sourceOf, type Catalogue } from '../src/services/quests';
import { createReadCacheService } from '../src/services/read-cache';
import { createMemoryStore } from '../src/store';

export interface IngestWiring {
  hooks: Hooks;
  leaderboards: { invalidate(): Promise<void> };
  /** Resolves once every hook the indexer's batches fired has stored its work (the quest upkeep settled). */
  settle(): Promise<void>;
  /** What the hooks stored against what they should have (null without subscribers). */
  check(): Promise<{ stored: number; expected: number } | null>;
  close(): Promise<void>;
}

/** The kind the hooks variant's quests read: the default catalogue's daily streak quest. */
export const HOOK_KIND = 'daily_streak_claimed_event';

/** The default catalogue's campaigns with only the quests that read HOOK_KIND from the chain. */
function hookKindCatalogue(): Catalogue {
  return DEFAULT_CATALOGUE.map((c) => ({
    campaign: c.campaign,
    quests: c.quests.filter((q) => {
      const s = sourceOf(q.evaluator);
      return s.from === 'chain' && s.kind === HOOK_KIND;
    }),
  })).filter((c) => c.quests.length > 0);
}

/**
 * Without `quests`, no domain subscribes (the indexer's hooks fire into nothing). With it, the
 * quest service as the quests domain creates it, its catalogue seeded with the default quests that
 * read HOOK_KIND (each committed batch of that kind schedules a progress refresh of its players).
 */
export async function ingestWiring(db: Db, logger: Logger, opts: { quests: boolean }): Promise<IngestWiring> {
  const store = createMemoryStore({ logger });
  const readCache = await createReadCacheService({ store, logger });
  const leaderboards = await createLeaderboardService({ db, store, readCache });
  const hooks = createHooks(logger);
  if (!opts.quests) {
    return { hooks, leaderboards, settle: async () => undefined, check: async () => null, close: () => store.close() };
  }
  const catalogue = hookKindCatalogue();
  const quests = createQuestService({
    db,
    store,
    logger,
    leaderboards,
    registry: new Registry(),
    hooks,
    readCache,
    catalogue,
    lifecycleIntervalMs: 0,
  });
  await quests.start();
  return {
    hooks,
    leaderboards,
    // close() unsubscribes and waits for the upkeep's pending passes; hooks run a tick after the commit, so let them start first.
    settle: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await quests.close();
    },
    // The daily streak quest: one progress row per player and UTC day with a claim.
    check: async () => {
      const [row] = await db.query<{ stored: number; expected: number }>(
        `SELECT (SELECT count(*)::int FROM quest_progress) AS stored,
                (SELECT count(DISTINCT (player, date_trunc('day', timestamp_ms, 'UTC')))::int FROM ${HOOK_KIND}) * $1::int AS expected`,
        [catalogue.reduce((n, c) => n + c.quests.length, 0)],
      );
      return row;
    },
    close: () => store.close(),
  };
}
