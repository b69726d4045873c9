import type { KindKey } from '../../chain-events/kinds';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import { periodEndOf, periodStartOf, type Catalogue } from './catalogue';
import { playerOf, sourceOf } from './evaluators';
import type { QuestMetrics } from './metrics';
import { refreshProgress, type ProgressKey, type QuestRef } from './progress';

export interface ProgressUpkeep {
  /** Refreshes the progress a committed batch of chain events can move; resolves once stored. Never throws. */
  afterIndexed(kind: KindKey, events: ReadonlyArray<{ timestampMs: number; data: unknown }>): Promise<void>;
  /** Records the login's UTC day and refreshes the login quests' progress; resolves once stored. Never throws. */
  afterLogin(wallet: string, at: Date): Promise<void>;
  /** Resolves when nothing is pending. */
  settled(): Promise<void>;
}

/**
 * Keeps `quest_progress` current after the facts change, off the emitters' paths. Keys to refresh
 * are coalesced per quest and refreshed by one pass at a time: two refreshes of one key never run
 * at once (an older recomputation finishing last would overwrite a newer one), and a backlog holds
 * distinct keys, not batches.
 */
export function createProgressUpkeep(deps: { db: Db; catalogue: Catalogue; metrics: QuestMetrics; logger: Logger }): ProgressUpkeep {
  const { db, catalogue, metrics, logger } = deps;
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
    const work = [...pending.values()];
    pending.clear();
    const stopTimer = metrics.evaluation.startTimer({ operation: 'progress', mode: 'indexed' });
    try {
      for (const { ref, keys } of work) await refreshProgress(db, ref, [...keys.values()]);
      metrics.progressUpdates.inc({ outcome: 'ok' });
    } catch (err) {
      metrics.progressUpdates.inc({ outcome: 'failed' });
      logger.warn({ err, quests: work.map((w) => w.ref.quest.key) }, 'quest progress upkeep failed; `npm run quests:rebuild -- --apply` repairs it');
    } finally {
      stopTimer();
    }
  }

  const schedule = (): Promise<void> => (tail = tail.then(pass));

  const allRefs: QuestRef[] = catalogue.flatMap(({ campaign, quests }) => quests.map((quest) => ({ campaignSlug: campaign.slug, quest })));
  const refsReading = (matches: (ref: QuestRef) => boolean): QuestRef[] => allRefs.filter(matches);

  return {
    afterIndexed(kind, events) {
      for (const ref of refsReading((r) => { const s = sourceOf(r.quest.evaluator); return s.from === 'chain' && s.kind === kind; })) {
        for (const e of events) {
          const player = playerOf(ref.quest.evaluator, e.data);
          if (player) add(ref, player, new Date(e.timestampMs));
        }
      }
      return schedule();
    },
    async afterLogin(wallet, at) {
      const refs = refsReading((r) => sourceOf(r.quest.evaluator).from === 'logins');
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
    settled: () => schedule(),
  };
}
