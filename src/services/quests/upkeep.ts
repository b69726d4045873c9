import type { KindKey } from '../../chain-events/kinds';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import { periodEndOf, periodStartOf } from './periods';
import { playerOf, sourceOf } from './evaluators';
import type { QuestMetrics } from './metrics';
import { rebuildQuestProgress, refreshProgress, type ProgressKey, type QuestRef } from './progress';

export interface ProgressUpkeep {
  /** Refreshes the progress a committed batch of chain events can move; resolves once stored. Never throws. */
  afterIndexed(kind: KindKey, events: ReadonlyArray<{ timestampMs: number; data: unknown }>): Promise<void>;
  /** Records the login's UTC day and refreshes the login quests' progress; resolves once stored. Never throws. */
  afterLogin(wallet: string, at: Date): Promise<void>;
  /** Recomputes one quest's whole stored progress (an operator created it or changed what it counts), in turn with the refreshes. Never throws. */
  rebuild(ref: QuestRef): Promise<void>;
  /** Resolves when nothing is pending. */
  settled(): Promise<void>;
}

/**
 * Keeps `quest_progress` current after the facts change, off the emitters' paths. Keys to refresh
 * are coalesced per quest and refreshed by one pass at a time: two refreshes of one key never run
 * at once (an older recomputation finishing last would overwrite a newer one), and a backlog holds
 * distinct keys, not batches.
 */
export function createProgressUpkeep(deps: {
  db: Db;
  /** Every quest now (the stored catalogue, cached per process), by `slug/key` too. */
  quests: () => Promise<{ refs: readonly QuestRef[]; byId: (id: string) => QuestRef | undefined }>;
  metrics: QuestMetrics;
  logger: Logger;
  /** After a pass, the wallets whose stored progress its committed refreshes rewrote; null (every wallet) after a quest's rebuild. */
  changed?: (players: readonly string[] | null) => void;
}): ProgressUpkeep {
  const { db, metrics, logger } = deps;
  const pending = new Map<string, { ref: QuestRef; keys: Map<string, ProgressKey> }>();
  let tail: Promise<void> = Promise.resolve();

  function add(ref: QuestRef, player: string, at: Date): void {
    const id = `${ref.campaignSlug}/${ref.quest.key}`;
    const entry = pending.get(id) ?? { ref, keys: new Map() };
    pending.set(id, entry);
    const periodStart = periodStartOf(ref.quest.timePeriod, at);
    entry.keys.set(`${player} ${periodStart.getTime()}`, { player, periodStart, periodEnd: periodEndOf(ref.quest.timePeriod, periodStart) });
  }

  async function pass(): Promise<void> {
    if (pending.size === 0) return;
    const work = [...pending.entries()];
    pending.clear();
    const stopTimer = metrics.evaluation.startTimer({ operation: 'progress', mode: 'indexed' });
    /** Wallets whose progress a committed refresh of this pass rewrote: announced once, at the end (also when a later quest failed). */
    const rewritten = new Set<string>();
    try {
      // Refreshed with the definitions of now: an operator may have edited a quest since its keys were added.
      const { byId } = await deps.quests();
      for (const [id, { ref, keys }] of work) {
        const now = byId(id);
        if (now && now.quest.timePeriod === ref.quest.timePeriod) {
          await refreshProgress(db, now, [...keys.values()]);
          for (const key of keys.values()) rewritten.add(key.player);
        }
      }
      metrics.progressUpdates.inc({ outcome: 'ok' });
    } catch (err) {
      metrics.progressUpdates.inc({ outcome: 'failed' });
      logger.warn({ err, quests: work.map(([id]) => id) }, 'quest progress upkeep failed; `npm run quests:rebuild -- --apply` repairs it');
    } finally {
      if (rewritten.size > 0) deps.changed?.([...rewritten]);
      stopTimer();
    }
  }

  const schedule = (): Promise<void> => (tail = tail.then(pass));

  /** The quests whose source `matches` (none when the catalogue cannot be read: logged; the rebuild repairs). */
  async function refsReading(matches: (ref: QuestRef) => boolean): Promise<QuestRef[]> {
    try {
      return (await deps.quests()).refs.filter(matches);
    } catch (err) {
      metrics.progressUpdates.inc({ outcome: 'failed' });
      logger.warn({ err }, 'quest progress upkeep could not read the quest catalogue; `npm run quests:rebuild -- --apply` repairs it');
      return [];
    }
  }

  return {
    async afterIndexed(kind, events) {
      for (const ref of await refsReading((r) => { const s = sourceOf(r.quest.evaluator); return s.from === 'chain' && s.kind === kind; })) {
        for (const e of events) {
          const player = playerOf(ref.quest.evaluator, e.data);
          if (player) add(ref, player, new Date(e.timestampMs));
        }
      }
      return schedule();
    },
    async afterLogin(wallet, at) {
      const refs = await refsReading((r) => sourceOf(r.quest.evaluator).from === 'logins');
      if (refs.length === 0) return;
      try {
        await db.query(`INSERT INTO login_day (wallet_address, day) VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date) ON CONFLICT DO NOTHING`, [wallet, at.toISOString()]);
      } catch (err) {
        logger.warn({ err, wallet }, 'recording a login day failed');
        return;
      }
      for (const ref of refs) add(ref, wallet, at);
      await schedule();
    },
    rebuild(ref) {
      const id = `${ref.campaignSlug}/${ref.quest.key}`;
      return (tail = tail.then(async () => {
        try {
          const written = await rebuildQuestProgress(db, ref);
          deps.changed?.(null);
          logger.info({ quest: id, rows: written }, 'quest progress recomputed after an operator change');
        } catch (err) {
          metrics.progressUpdates.inc({ outcome: 'failed' });
          logger.warn({ err, quest: id }, 'recomputing a quest\'s progress failed; `npm run quests:rebuild -- --apply` repairs it');
        }
      }));
    },
    settled: () => schedule(),
  };
}
