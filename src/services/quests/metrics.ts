import { Counter, Histogram, type Registry } from 'prom-client';

export interface QuestMetrics {
  claims: Counter<'campaign' | 'quest'>;
  refusals: Counter<'reason'>;
  evaluation: Histogram<'operation' | 'mode'>;
  progressUpdates: Counter<'outcome'>;
}

/** The quest series, in the process registry (served at /metrics); a private registry when none is given. */
export function createQuestMetrics(registry?: Registry): QuestMetrics {
  const registers = registry ? [registry] : [];
  return {
    claims: new Counter({ name: 'quest_claims_total', help: 'Quest claims recorded (XP credited), by campaign and quest', labelNames: ['campaign', 'quest'], registers }),
    refusals: new Counter({
      name: 'quest_claim_refusals_total',
      help: 'Quest claims refused, by reason (duplicate, incomplete, not_started, closed, inactive, unknown_quest, unknown_campaign, managed_by_partner, throttled, invalid_input)',
      labelNames: ['reason'],
      registers,
    }),
    evaluation: new Histogram({
      name: 'quest_evaluation_duration_seconds',
      help: 'Time to evaluate quest statuses and claims, by operation (status, batch, claim, progress) and mode (indexed, live)',
      labelNames: ['operation', 'mode'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    progressUpdates: new Counter({ name: 'quest_progress_updates_total', help: 'Post-commit quest progress refreshes, by outcome (ok, failed)', labelNames: ['outcome'], registers }),
  };
}
