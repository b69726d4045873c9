import type { Db, QueryOptions } from '../../db/client';
import type { QuestDefinition } from './catalogue';
import { progressOfAll, progressOfKeys } from './evaluators';

/** One player's period of one quest. */
export interface ProgressKey {
  player: string;
  periodStart: Date;
  periodEnd: Date;
}

export interface QuestRef {
  campaignSlug: string;
  quest: QuestDefinition;
}

/** Campaigns and their quests, as the rebuild walks them (the stored catalogue, or the default one). */
export type QuestsByCampaign = ReadonlyArray<{ campaign: { slug: string }; quests: readonly QuestDefinition[] }>;

type Param = (value: unknown) => string;
const paramsOf = (params: unknown[]): Param => (value) => `$${params.push(value)}`;

/** The keys as a relation (player, period_start, period_end). */
function keysRelation(keys: readonly ProgressKey[], p: Param): string {
  return `(SELECT * FROM unnest(${p(keys.map((k) => k.player))}::text[], ${p(keys.map((k) => k.periodStart.toISOString()))}::timestamptz[],
                                ${p(keys.map((k) => k.periodEnd.toISOString()))}::timestamptz[]) WITH ORDINALITY AS u(player, period_start, period_end, i))`;
}

/**
 * Upserts `quest_progress` from a relation of (player, period_start, progress) rows. `completed_at`
 * is set the first time progress reaches the target and kept while it stays there.
 */
function upsertProgress(ref: QuestRef, computed: string, p: Param): string {
  const target = `${p(ref.quest.target.toString())}::numeric`;
  return `INSERT INTO quest_progress AS qp (quest_key, campaign_slug, player_address, time_period, period_start, progress, target, completed_at, updated_at)
          SELECT ${p(ref.quest.key)}, ${p(ref.campaignSlug)}, x.player, ${p(ref.quest.timePeriod)}, x.period_start, x.progress, ${target},
                 CASE WHEN x.progress >= ${target} THEN now() END, now()
            FROM (${computed}) x
          ON CONFLICT (quest_key, campaign_slug, player_address, time_period, period_start) DO UPDATE SET
            progress = EXCLUDED.progress,
            target = EXCLUDED.target,
            completed_at = CASE WHEN EXCLUDED.progress >= EXCLUDED.target THEN coalesce(qp.completed_at, EXCLUDED.completed_at) END,
            updated_at = now()`;
}

/** Recomputes the keys' progress from the event table and stores it (one statement; safe to repeat). */
export async function refreshProgress(db: Pick<Db, 'query'>, ref: QuestRef, keys: readonly ProgressKey[]): Promise<void> {
  if (keys.length === 0) return;
  const params: unknown[] = [];
  const p = paramsOf(params);
  await db.query(upsertProgress(ref, progressOfKeys(ref.quest.evaluator, keysRelation(keys, p), params), p), params);
}

/** Progress of each key computed from the event table now (the `live` mode). */
export async function liveProgress(db: Pick<Db, 'query'>, quest: QuestDefinition, keys: readonly ProgressKey[], opts?: QueryOptions): Promise<string[]> {
  if (keys.length === 0) return [];
  const params: unknown[] = [];
  const p = paramsOf(params);
  const rows = await db.query<{ progress: string }>(
    `SELECT x.progress::text AS progress FROM (${progressOfKeys(quest.evaluator, keysRelation(keys, p), params)}) x ORDER BY x.i`,
    params,
    opts,
  );
  return rows.map((r) => String(r.progress));
}

export interface StoredCheck {
  campaignSlug: string;
  questKey: string;
  timePeriod: string;
  player: string;
  periodStart: Date;
}

export interface StoredState {
  /** null: no progress row (no indexed event of the quest's kind in the period). */
  progress: string | null;
  claimedAt: Date | null;
  txHash: string | null;
}

/** Stored progress and claim of each check, in order: one statement, two index lookups per check. */
export async function readStored(db: Pick<Db, 'query'>, checks: readonly StoredCheck[], opts?: QueryOptions): Promise<StoredState[]> {
  if (checks.length === 0) return [];
  const params: unknown[] = [];
  const p = paramsOf(params);
  const col = <T>(f: (c: StoredCheck) => T) => p(checks.map(f));
  const same = (alias: string, player: string) =>
    `${alias}.quest_key = k.quest_key AND ${alias}.campaign_slug = k.campaign_slug AND ${alias}.${player} = k.player
     AND ${alias}.time_period = k.time_period AND ${alias}.period_start = k.period_start`;
  const rows = await db.query<{ i: number; progress: string | null; claimed_at: Date | string | null; tx_hash: string | null }>(
    `SELECT k.i, qp.progress::text AS progress, qc.claimed_at, qc.tx_hash
       FROM unnest(${p(checks.map((_, i) => i))}::int[], ${col((c) => c.questKey)}::text[], ${col((c) => c.campaignSlug)}::text[],
                   ${col((c) => c.player)}::text[], ${col((c) => c.timePeriod)}::text[], ${col((c) => c.periodStart.toISOString())}::timestamptz[])
            AS k(i, quest_key, campaign_slug, player, time_period, period_start)
       LEFT JOIN quest_progress qp ON ${same('qp', 'player_address')}
       LEFT JOIN quest_claim qc ON ${same('qc', 'player_address')}
      ORDER BY k.i`,
    params,
    opts,
  );
  return rows.map((r) => ({
    progress: r.progress === null ? null : String(r.progress),
    claimedAt: r.claimed_at === null ? null : new Date(r.claimed_at),
    txHash: r.tx_hash,
  }));
}

export interface ProgressDifference {
  campaignSlug: string;
  questKey: string;
  player: string;
  periodStart: string;
  /** Recomputed from the event tables; null when the stored row has no events behind it. */
  expected: { progress: string; target: string } | null;
  /** Stored; null when the row is missing. */
  stored: { progress: string; target: string } | null;
}

const recomputed = (ref: QuestRef, params: unknown[]): string => progressOfAll(ref.quest.evaluator, ref.quest.timePeriod, params);

/** Recomputes every quest's progress from the event tables and lists where `quest_progress` differs (one statement per quest). */
export async function diffProgress(db: Pick<Db, 'query'>, catalogue: QuestsByCampaign): Promise<ProgressDifference[]> {
  const out: ProgressDifference[] = [];
  for (const { campaign, quests } of catalogue) {
    for (const quest of quests) {
      const ref = { campaignSlug: campaign.slug, quest };
      const params: unknown[] = [];
      const p = paramsOf(params);
      const c = recomputed(ref, params);
      const target = p(quest.target.toString());
      const rows = await db.query<{ player: string; period_start: Date | string; c_progress: string | null; c_target: string | null; s_progress: string | null; s_target: string | null }>(
        `WITH c AS (${c}),
              s AS (SELECT player_address AS player, period_start, progress, target FROM quest_progress
                     WHERE quest_key = ${p(quest.key)} AND campaign_slug = ${p(campaign.slug)} AND time_period = ${p(quest.timePeriod)})
         SELECT coalesce(c.player, s.player) AS player, coalesce(c.period_start, s.period_start) AS period_start,
                c.progress::text AS c_progress, CASE WHEN c.player IS NOT NULL THEN ${target}::text END AS c_target,
                s.progress::text AS s_progress, s.target::text AS s_target
           FROM c FULL OUTER JOIN s ON s.player = c.player AND s.period_start = c.period_start
          WHERE c.player IS NULL OR s.player IS NULL OR c.progress <> s.progress OR s.target <> ${target}::numeric
          ORDER BY 1, 2`,
        params,
      );
      for (const r of rows) {
        out.push({
          campaignSlug: campaign.slug,
          questKey: quest.key,
          player: r.player,
          periodStart: new Date(r.period_start).toISOString(),
          expected: r.c_progress === null ? null : { progress: r.c_progress, target: String(r.c_target) },
          stored: r.s_progress === null ? null : { progress: r.s_progress, target: String(r.s_target) },
        });
      }
    }
  }
  return out;
}

type RawTx = Pick<Parameters<Parameters<Db['prisma']['$transaction']>[0]>[0], '$executeRawUnsafe'>;

/**
 * Replaces one quest's `quest_progress` rows with the recomputed ones: upserts what the events
 * produce, deletes what they no longer do (and rows of another period, left by a period change).
 */
async function rebuildOne(tx: RawTx, ref: QuestRef): Promise<number> {
  const upsertParams: unknown[] = [];
  const up = paramsOf(upsertParams);
  const written = await tx.$executeRawUnsafe(upsertProgress(ref, recomputed(ref, upsertParams), up), ...upsertParams);
  const delParams: unknown[] = [];
  const dp = paramsOf(delParams);
  await tx.$executeRawUnsafe(
    `DELETE FROM quest_progress qp
      WHERE qp.quest_key = ${dp(ref.quest.key)} AND qp.campaign_slug = ${dp(ref.campaignSlug)}
        AND (qp.time_period <> ${dp(ref.quest.timePeriod)}
             OR NOT EXISTS (SELECT 1 FROM (${recomputed(ref, delParams)}) c WHERE c.player = qp.player_address AND c.period_start = qp.period_start))`,
    ...delParams,
  );
  return written;
}

/** Replaces `quest_progress` with the recomputed rows, in one transaction (rows the events no longer produce are deleted). */
export async function applyProgressRebuild(db: Pick<Db, 'prisma'>, catalogue: QuestsByCampaign): Promise<number> {
  return db.prisma.$transaction(async (tx) => {
    let written = 0;
    for (const { campaign, quests } of catalogue) {
      for (const quest of quests) written += await rebuildOne(tx, { campaignSlug: campaign.slug, quest });
    }
    return written;
  });
}

/** Recomputes one quest's stored progress from the event tables (after an operator created it or changed what it counts), in one transaction. */
export async function rebuildQuestProgress(db: Pick<Db, 'prisma'>, ref: QuestRef): Promise<number> {
  return db.prisma.$transaction((tx) => rebuildOne(tx, ref), { maxWait: 10_000, timeout: 120_000 });
}
