import type { Db } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';
import type { Logger } from '../../observability/logger';
import type { QuestDefinition } from './catalogue';
import { questEvaluator, type QuestEvaluator } from './evaluators';
import { questMode, timePeriod, type QuestMode } from './model';

/**
 * Campaigns and quests as the database holds them (tables `campaign` and `quest`): what status
 * reads, progress upkeep, claims and the rebuild evaluate, and what operators edit.
 */

/** A `campaign` row. */
export interface StoredCampaign {
  slug: string;
  type: string;
  name: string | null;
  title: string | null;
  description: string | null;
  copyText: string | null;
  startAt: Date;
  endAt: Date;
  managesClaims: boolean;
  enabled: boolean;
  version: number;
  updatedAt: Date;
}

/** A `quest` row as a definition (every optional field of QuestDefinition set). */
export interface StoredQuest extends QuestDefinition {
  enabled: boolean;
  performanceDaily: boolean;
  version: number;
  updatedAt: Date;
}

export interface StoredCatalogueEntry {
  campaign: StoredCampaign;
  /** In listing order (`position`, then key). */
  quests: StoredQuest[];
}

type QuestRow = Pick<
  Prisma.QuestGetPayload<object>,
  'key' | 'title' | 'description' | 'xpReward' | 'timePeriod' | 'modes' | 'evaluatorKind' | 'evaluatorParams' | 'enabled' | 'startAt' | 'endAt' | 'performanceDaily' | 'version' | 'updatedAt'
> & { target: { toFixed(digits: number): string } | string };
type CampaignRow = Pick<
  Prisma.CampaignGetPayload<object>,
  'slug' | 'type' | 'name' | 'title' | 'description' | 'copyText' | 'startAt' | 'endAt' | 'managesClaims' | 'enabled' | 'version' | 'updatedAt'
>;

export const campaignOf = (row: CampaignRow): StoredCampaign => ({
  slug: row.slug,
  type: row.type,
  name: row.name,
  title: row.title,
  description: row.description,
  copyText: row.copyText,
  startAt: row.startAt,
  endAt: row.endAt,
  managesClaims: row.managesClaims,
  enabled: row.enabled,
  version: row.version,
  updatedAt: row.updatedAt,
});

/** The row's evaluator, judged by the registry (a row edited by hand into something unknown is null). */
export function evaluatorOf(row: Pick<QuestRow, 'evaluatorKind' | 'evaluatorParams'>): QuestEvaluator | null {
  const params = row.evaluatorParams && typeof row.evaluatorParams === 'object' && !Array.isArray(row.evaluatorParams) ? row.evaluatorParams : {};
  const parsed = questEvaluator.safeParse({ ...params, kind: row.evaluatorKind });
  return parsed.success ? parsed.data : null;
}

/** A quest row as a definition; null when the row does not describe a quest this code can evaluate (logged by the caller). */
export function questOf(row: QuestRow): StoredQuest | null {
  const evaluator = evaluatorOf(row);
  const period = timePeriod.safeParse(row.timePeriod);
  const modes = row.modes.filter((m): m is QuestMode => questMode.safeParse(m).success);
  if (!evaluator || !period.success || modes.length === 0) return null;
  return {
    key: row.key,
    title: row.title,
    description: row.description,
    xpReward: row.xpReward,
    timePeriod: period.data,
    modes,
    evaluator,
    target: BigInt(typeof row.target === 'string' ? row.target : row.target.toFixed(0)),
    enabled: row.enabled,
    ...(row.startAt ? { startAt: row.startAt } : {}),
    ...(row.endAt ? { endAt: row.endAt } : {}),
    performanceDaily: row.performanceDaily,
    version: row.version,
    updatedAt: row.updatedAt,
  };
}

/** The columns of a definition (insert or update). */
export function questColumns(q: QuestDefinition) {
  const { kind, ...params } = q.evaluator;
  return {
    title: q.title,
    description: q.description,
    xpReward: q.xpReward,
    timePeriod: q.timePeriod,
    modes: [...q.modes],
    evaluatorKind: kind,
    evaluatorParams: params as Prisma.InputJsonObject,
    target: q.target.toString(),
    enabled: q.enabled !== false,
    startAt: q.startAt ?? null,
    endAt: q.endAt ?? null,
    performanceDaily: q.performanceDaily === true,
  };
}

/** Every campaign (by start, then slug) with its quests; rows that do not parse are left out and logged. */
export async function loadCatalogue(db: Pick<Db, 'prisma'>, logger?: Pick<Logger, 'warn'>): Promise<StoredCatalogueEntry[]> {
  const rows = await db.prisma.campaign.findMany({
    orderBy: [{ startAt: 'asc' }, { slug: 'asc' }],
    include: { quests: { orderBy: [{ position: 'asc' }, { key: 'asc' }] } },
  });
  return rows.map((row) => ({
    campaign: campaignOf(row),
    quests: row.quests.flatMap((q) => {
      const quest = questOf(q);
      if (!quest) logger?.warn({ campaign: row.slug, quest: q.key, evaluator: q.evaluatorKind, timePeriod: q.timePeriod }, 'quests: a stored quest does not parse (unknown evaluator, parameters or period); left out');
      return quest ? [quest] : [];
    }),
  }));
}

const QUEST_COLUMNS = `q.key, q.title, q.description, q.xp_reward AS "xpReward", q.time_period AS "timePeriod", q.modes, q.evaluator_kind AS "evaluatorKind",
  q.evaluator_params AS "evaluatorParams", q.target::text AS target, q.enabled AS "questEnabled", q.start_at AS "questStartAt", q.end_at AS "questEndAt",
  q.performance_daily AS "performanceDaily", q.version AS "questVersion", q.updated_at AS "questUpdatedAt"`;
const CAMPAIGN_COLUMNS = `c.slug, c.type, c.name, c.title AS "campaignTitle", c.description AS "campaignDescription", c.copy_text AS "copyText",
  c.start_at AS "startAt", c.end_at AS "endAt", c.manages_claims AS "managesClaims", c.enabled, c.version, c.updated_at AS "updatedAt"`;

type JoinedRow = Omit<CampaignRow, 'title' | 'description'> & { campaignTitle: string | null; campaignDescription: string | null } & Partial<
    Omit<QuestRow, 'enabled' | 'startAt' | 'endAt' | 'version' | 'updatedAt'>
  > & { questEnabled: boolean | null; questStartAt: Date | null; questEndAt: Date | null; questVersion: number | null; questUpdatedAt: Date | null };

/**
 * A campaign and one of its quests as stored right now, in one statement (what a claim pays by):
 * null without the campaign; `quest` null without the quest (or one that does not parse).
 */
export async function readCampaignQuest(db: Pick<Db, 'query'>, slug: string, key: string): Promise<{ campaign: StoredCampaign; quest: StoredQuest | null } | null> {
  const [row] = await db.query<JoinedRow>(`SELECT ${CAMPAIGN_COLUMNS}, ${QUEST_COLUMNS} FROM campaign c LEFT JOIN quest q ON q.campaign_slug = c.slug AND q.key = $2 WHERE c.slug = $1`, [slug, key]);
  if (!row) return null;
  const campaign = campaignOf({ ...row, title: row.campaignTitle, description: row.campaignDescription, startAt: new Date(row.startAt), endAt: new Date(row.endAt), updatedAt: new Date(row.updatedAt) });
  if (row.key == null) return { campaign, quest: null };
  const quest = questOf({
    key: row.key,
    title: row.title!,
    description: row.description!,
    xpReward: Number(row.xpReward),
    timePeriod: row.timePeriod!,
    modes: row.modes ?? [],
    evaluatorKind: row.evaluatorKind!,
    evaluatorParams: row.evaluatorParams ?? {},
    target: String(row.target),
    enabled: row.questEnabled === true,
    startAt: row.questStartAt ? new Date(row.questStartAt) : null,
    endAt: row.questEndAt ? new Date(row.questEndAt) : null,
    performanceDaily: row.performanceDaily === true,
    version: Number(row.questVersion),
    updatedAt: new Date(row.questUpdatedAt!),
  });
  return { campaign, quest };
}
