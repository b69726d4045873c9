import type { Db } from '../../db/client';
import type { Prisma } from '../../generated/prisma/client';
import type { Logger } from '../../observability/logger';
import type { QuestDefinition } from './catalogue';
import { questEvaluator, type QuestEvaluator } from './evaluators';
import { CAMPAIGN_RECORD_KEYS, questMode, timePeriod, type CampaignView, type QuestMode } from './model';

/**
 * Campaigns and quests as the database holds them (tables `campaign` and `quest`): what status
 * reads, progress upkeep, claims and the rebuild evaluate, and what operators edit.
 */

/** A `campaign` row (what operators edit; its own fields are the model's `CAMPAIGN_RECORD_KEYS`). */
export type StoredCampaign = Omit<Prisma.CampaignGetPayload<object>, 'id' | 'createdAt'>;

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
/** A campaign row as read (with its quests, or more, when a query includes them): the stored campaign. */
export const campaignOf = ({ id: _id, createdAt: _createdAt, quests: _quests, ...campaign }: Prisma.CampaignGetPayload<object> & { quests?: unknown }): StoredCampaign => campaign;

/** A stored campaign's own fields as every view writes them (times as ISO 8601). */
export function campaignRecordOf(c: StoredCampaign): Omit<CampaignView, 'quests'> {
  return Object.fromEntries(CAMPAIGN_RECORD_KEYS.map((k) => [k, c[k] instanceof Date ? c[k].toISOString() : c[k]])) as Omit<CampaignView, 'quests'>;
}

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

/**
 * A campaign and one of its quests as stored right now (what a claim pays by): null without the
 * campaign; `quest` null without the quest (or one that does not parse).
 */
export async function readCampaignQuest(db: Pick<Db, 'prisma'>, slug: string, key: string): Promise<{ campaign: StoredCampaign; quest: StoredQuest | null } | null> {
  const row = await db.prisma.campaign.findUnique({ where: { slug }, include: { quests: { where: { key } } } });
  if (!row) return null;
  const [questRow] = row.quests;
  return { campaign: campaignOf(row), quest: questRow ? questOf(questRow) : null };
}
