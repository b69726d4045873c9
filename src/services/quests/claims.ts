import type { Db } from '../../db/client';
import type { QuestDefinition } from './catalogue';
import { progressOfKeys } from './evaluators';

export interface ClaimRecord {
  campaignSlug: string;
  quest: QuestDefinition;
  player: string;
  periodStart: Date;
  periodEnd: Date;
  txHash: string | null;
}

export type ClaimOutcome =
  | { outcome: 'claimed'; id: string; claimedAt: Date; progress: string; totalXp: string }
  | { outcome: 'incomplete'; progress: string }
  | { outcome: 'duplicate'; progress: string };

/**
 * The claim as one statement, so one transaction: evaluate the quest from the event table, insert
 * the claim under the five-field unique index (ON CONFLICT DO NOTHING: a concurrent identical
 * claim waits for this one and then inserts nothing), and credit the reward to the XP board only
 * when the claim row was inserted. The board's rank-bucket triggers run inside the same statement.
 */
export async function recordClaim(db: Pick<Db, 'query'>, c: ClaimRecord): Promise<ClaimOutcome> {
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  const keys = `(SELECT ${p(c.player)}::text AS player, ${p(c.periodStart.toISOString())}::timestamptz AS period_start, ${p(c.periodEnd.toISOString())}::timestamptz AS period_end)`;
  const evaluated = progressOfKeys(c.quest.evaluator, keys, params);
  const reward = `${p(c.quest.xpReward)}::int`;
  const rows = await db.query<{ progress: string; id: string | null; claimed_at: Date | string | null; total_xp: string | null }>(
    `WITH ev AS (${evaluated}),
     ins AS (
       INSERT INTO quest_claim (quest_key, campaign_slug, player_address, time_period, period_start, xp_reward, tx_hash)
       SELECT ${p(c.quest.key)}, ${p(c.campaignSlug)}, ev.player, ${p(c.quest.timePeriod)}, ev.period_start, ${reward}, ${p(c.txHash)}::text
         FROM ev WHERE ev.progress >= ${p(c.quest.target.toString())}::numeric
       ON CONFLICT (quest_key, campaign_slug, player_address, time_period, period_start) DO NOTHING
       RETURNING id, claimed_at, xp_reward, player_address
     ),
     xp AS (
       INSERT INTO xp_leaderboard AS lb (player, total_xp, vip_level, chain_xp, quest_xp, updated_at)
       SELECT ins.player_address, ins.xp_reward, 0, 0, ins.xp_reward, now() FROM ins
       ON CONFLICT (player) DO UPDATE SET total_xp = lb.total_xp + EXCLUDED.quest_xp, quest_xp = lb.quest_xp + EXCLUDED.quest_xp, updated_at = now()
       RETURNING total_xp
     )
     SELECT (SELECT progress::text FROM ev) AS progress, (SELECT id::text FROM ins) AS id,
            (SELECT claimed_at FROM ins) AS claimed_at, (SELECT total_xp::text FROM xp) AS total_xp`,
    params,
  );
  const row = rows[0];
  const progress = String(row.progress);
  if (row.id !== null) return { outcome: 'claimed', id: row.id, claimedAt: new Date(row.claimed_at!), progress, totalXp: String(row.total_xp) };
  return BigInt(progress) >= c.quest.target ? { outcome: 'duplicate', progress } : { outcome: 'incomplete', progress };
}
