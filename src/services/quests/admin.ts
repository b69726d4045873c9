import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { AuditLog, OperatorActor, Tx } from '../operators';
import type { QuestDefinition } from './catalogue';
import { lifecycleOf } from './quest-window';
import { campaignOf, campaignRecordOf, loadCatalogue, questColumns, questOf, type StoredCampaign, type StoredQuest } from './catalogue-store';
import {
  campaignCreateInput,
  campaignSlug,
  campaignUpdateInput,
  questCreateInput,
  questKey,
  questUpdateInput,
  type AdminCampaignView,
  type AdminQuestView,
  type QuestLifecycle,
} from './model';
import type { QuestRef } from './progress';

/**
 * Operators' edits of campaigns and quests (the `/api/admin/campaigns` routes and their GraphQL
 * twins). Every edit names the `version` it was based on and runs, with its audit row, in one
 * transaction that first locks the campaign row: edits of one campaign and its quests take turns,
 * so of two edits based on the same version exactly one applies and the other is 409
 * VERSION_CONFLICT, and the one-performance-quest rule cannot be raced.
 */

/** What an applied edit changed, for the caches and the progress upkeep (run after the commit). */
export interface CatalogueChange {
  campaignSlug: string;
  /** A quest whose stored progress must be recomputed (created, or its evaluator, period or target changed). */
  rebuild?: QuestRef;
}

export interface QuestAdmin {
  list(): Promise<AdminCampaignView[]>;
  createCampaign(actor: OperatorActor, input: unknown, requestId?: string): Promise<{ view: AdminCampaignView; change: CatalogueChange }>;
  updateCampaign(actor: OperatorActor, slug: string, input: unknown, requestId?: string): Promise<{ view: AdminCampaignView; change: CatalogueChange }>;
  createQuest(actor: OperatorActor, slug: string, input: unknown, requestId?: string): Promise<{ view: AdminQuestView; change: CatalogueChange }>;
  updateQuest(actor: OperatorActor, slug: string, key: string, input: unknown, requestId?: string): Promise<{ view: AdminQuestView; change: CatalogueChange }>;
}

interface Deps {
  db: Db;
  /** The operators' audit log; without it (unit setups) every edit is refused. */
  audit?: Pick<AuditLog, 'audited'>;
  clock: () => Date;
}

const slugInput = z.object({ slug: campaignSlug });
const questPathInput = z.object({ slug: campaignSlug, questKey });

/** A quest key from a title: lowercase letters and digits, any other run of characters one dash. */
export function keyFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

function campaignLifecycle(c: StoredCampaign, now: Date): QuestLifecycle {
  if (!c.enabled) return 'inactive';
  if (now < c.startAt) return 'upcoming';
  return now >= c.endAt ? 'expired' : 'active';
}

function questAdminView(q: StoredQuest, campaign: StoredCampaign, hasClaims: boolean, now: Date): AdminQuestView {
  return {
    key: q.key,
    title: q.title,
    description: q.description,
    xpReward: q.xpReward,
    timePeriod: q.timePeriod,
    modes: [...q.modes],
    evaluator: { ...q.evaluator },
    target: q.target.toString(),
    enabled: q.enabled,
    startAt: q.startAt?.toISOString() ?? null,
    endAt: q.endAt?.toISOString() ?? null,
    performanceDaily: q.performanceDaily,
    lifecycle: lifecycleOf(q, campaign, now),
    hasClaims,
    version: q.version,
    updatedAt: q.updatedAt.toISOString(),
  };
}

function campaignAdminView(c: StoredCampaign, quests: AdminQuestView[], now: Date): AdminCampaignView {
  return {
    ...campaignRecordOf(c),
    lifecycle: campaignLifecycle(c, now),
    version: c.version,
    updatedAt: c.updatedAt.toISOString(),
    quests,
  };
}

/** A campaign as its audit rows keep it (its quests are audited by their own edits). */
const withoutQuests = ({ quests: _quests, ...campaign }: AdminCampaignView) => campaign;

const invalid = (path: string, message: string): never => {
  throw new AppError('VALIDATION_FAILED', `${path}: ${message}`, { issues: [{ path, message }] });
};

/** The rules a whole definition keeps (after an edit is merged into it). */
function checkQuest(q: QuestDefinition): void {
  if (q.performanceDaily && q.timePeriod !== 'daily') invalid('/performanceDaily', 'the daily performance quest must have timePeriod daily');
  if (q.startAt && q.endAt && q.startAt >= q.endAt) invalid('/endAt', 'must be after startAt');
}

function requireChange(input: Record<string, unknown>): void {
  if (Object.entries(input).every(([k, v]) => k === 'version' || v === undefined)) invalid('', 'name at least one field to change besides version');
}

const versionConflict = (what: string, current: number, given: number): AppError =>
  new AppError('VERSION_CONFLICT', `${what} is at version ${current}, this edit was based on version ${given}: read it again and reapply the edit`, { currentVersion: current, givenVersion: given });

/** Locks the campaign row for the transaction (edits of one campaign take turns); NOT_FOUND when there is none. */
async function lockCampaign(tx: Tx, slug: string): Promise<StoredCampaign> {
  const locked = await tx.$queryRaw<Array<{ slug: string }>>`SELECT slug FROM campaign WHERE slug = ${slug} FOR UPDATE`;
  const row = locked.length ? await tx.campaign.findUnique({ where: { slug } }) : null;
  if (!row) throw new AppError('NOT_FOUND', `No campaign "${slug}"`, { reason: 'unknown_campaign', campaignSlug: slug });
  return campaignOf(row);
}

async function hasClaims(tx: Tx | Db['prisma'], slug: string, key: string): Promise<boolean> {
  return (await tx.questClaim.findFirst({ where: { campaignSlug: slug, questKey: key }, select: { id: true } })) !== null;
}

async function performanceTaken(tx: Tx, slug: string, exceptKey: string | null): Promise<void> {
  const other = await tx.quest.findFirst({ where: { campaignSlug: slug, performanceDaily: true, ...(exceptKey ? { NOT: { key: exceptKey } } : {}) }, select: { key: true } });
  if (other) throw new AppError('CONFLICT', `Quest "${other.key}" is already the daily performance quest of campaign "${slug}"; switch it off there first`, { reason: 'performance_daily_taken', campaignSlug: slug, questKey: other.key });
}

/** What evaluating the quest depends on: a change of these makes its stored progress stale. */
const countsTheSame = (a: QuestDefinition, b: QuestDefinition) => a.timePeriod === b.timePeriod && a.target === b.target && JSON.stringify(a.evaluator) === JSON.stringify(b.evaluator);

export function createQuestAdmin(deps: Deps): QuestAdmin {
  const { db, clock } = deps;

  function audited<T>(entry: { actor: OperatorActor; action: string; target: string; requestId?: string }, change: (tx: Tx) => Promise<{ before?: unknown; after?: unknown; result: T }>): Promise<T> {
    if (!deps.audit) throw new AppError('INTERNAL', 'quest administration needs the audit log');
    return deps.audit.audited(entry, change);
  }

  async function claimedKeys(): Promise<Set<string>> {
    const rows = await db.query<{ campaign_slug: string; key: string }>(
      `SELECT q.campaign_slug, q.key FROM quest q WHERE EXISTS (SELECT 1 FROM quest_claim c WHERE c.campaign_slug = q.campaign_slug AND c.quest_key = q.key)`,
    );
    return new Set(rows.map((r) => `${r.campaign_slug}/${r.key}`));
  }

  return {
    async list() {
      const [entries, claimed] = await Promise.all([loadCatalogue(db), claimedKeys()]);
      const now = clock();
      return entries.map(({ campaign, quests }) => campaignAdminView(campaign, quests.map((q) => questAdminView(q, campaign, claimed.has(`${campaign.slug}/${q.key}`), now)), now));
    },

    async createCampaign(actor, raw, requestId) {
      const input = parseInput(campaignCreateInput, raw);
      if (input.startAt >= input.endAt) invalid('/endAt', 'must be after startAt');
      const view = await audited({ actor, action: 'campaigns.create', target: input.slug, requestId }, async (tx) => {
        const [created] = await tx.campaign.createManyAndReturn({ data: input, skipDuplicates: true });
        if (!created) throw new AppError('CONFLICT', `Campaign "${input.slug}" exists; edit it with PATCH`, { reason: 'campaign_exists', campaignSlug: input.slug });
        const after = campaignAdminView(campaignOf(created), [], clock());
        return { before: null, after: withoutQuests(after), result: after };
      });
      return { view, change: { campaignSlug: view.slug } };
    },

    async updateCampaign(actor, slugRaw, raw, requestId) {
      const { slug } = parseInput(slugInput, { slug: slugRaw });
      const input = parseInput(campaignUpdateInput, raw);
      requireChange(input);
      const view = await audited({ actor, action: 'campaigns.update', target: slug, requestId }, async (tx) => {
        const current = await lockCampaign(tx, slug);
        if (current.version !== input.version) throw versionConflict(`Campaign "${slug}"`, current.version, input.version);
        const { version, ...fields } = input;
        const startAt = fields.startAt ?? current.startAt;
        const endAt = fields.endAt ?? current.endAt;
        if (startAt >= endAt) invalid(fields.endAt ? '/endAt' : '/startAt', fields.endAt ? 'must be after startAt' : "must be before the campaign's endAt");
        const updated = await tx.campaign.updateManyAndReturn({ where: { slug, version }, data: { ...fields, version: { increment: 1 } } });
        if (updated.length !== 1) throw versionConflict(`Campaign "${slug}"`, current.version + 1, input.version);
        const now = clock();
        const quests = (await tx.quest.findMany({ where: { campaignSlug: slug }, orderBy: [{ position: 'asc' }, { key: 'asc' }] })).flatMap((r) => {
          const q = questOf(r);
          return q ? [q] : [];
        });
        const claimed = await Promise.all(quests.map((q) => hasClaims(tx, slug, q.key)));
        const campaign = campaignOf(updated[0]!);
        const after = campaignAdminView(campaign, quests.map((q, i) => questAdminView(q, campaign, claimed[i]!, now)), now);
        return { before: withoutQuests(campaignAdminView(current, [], now)), after: withoutQuests(after), result: after };
      });
      return { view, change: { campaignSlug: slug } };
    },

    async createQuest(actor, slugRaw, raw, requestId) {
      const { slug } = parseInput(slugInput, { slug: slugRaw });
      const input = parseInput(questCreateInput, raw);
      const key = input.key ?? keyFromTitle(input.title);
      if (!questKey.safeParse(key).success) invalid('/key', 'the title gives no usable key: send one (lowercase letters, digits and dashes)');
      const definition: QuestDefinition = { ...input, key, startAt: input.startAt ?? undefined, endAt: input.endAt ?? undefined };
      checkQuest(definition);
      const target = `${slug}/${key}`;
      const result = await audited({ actor, action: 'quests.create', target, requestId }, async (tx) => {
        const campaign = await lockCampaign(tx, slug);
        if (await tx.quest.findUnique({ where: { campaignSlug_key: { campaignSlug: slug, key } }, select: { id: true } })) {
          throw new AppError('CONFLICT', `Campaign "${slug}" has a quest "${key}" already${input.key ? '' : ' (the key comes from the title: send another key)'}`, { reason: 'quest_exists', campaignSlug: slug, questKey: key });
        }
        if (definition.performanceDaily) await performanceTaken(tx, slug, null);
        const last = await tx.quest.aggregate({ where: { campaignSlug: slug }, _max: { position: true } });
        const row = await tx.quest.create({ data: { campaignSlug: slug, key, position: (last._max.position ?? -1) + 1, ...questColumns(definition) } });
        const quest = questOf(row)!;
        const after = questAdminView(quest, campaign, false, clock());
        return { before: null, after, result: { view: after, quest } };
      });
      return { view: result.view, change: { campaignSlug: slug, rebuild: { campaignSlug: slug, quest: result.quest } } };
    },

    async updateQuest(actor, slugRaw, keyRaw, raw, requestId) {
      const { slug, questKey: key } = parseInput(questPathInput, { slug: slugRaw, questKey: keyRaw });
      const input = parseInput(questUpdateInput, raw);
      requireChange(input);
      const result = await audited({ actor, action: 'quests.update', target: `${slug}/${key}`, requestId }, async (tx) => {
        const campaign = await lockCampaign(tx, slug);
        const row = await tx.quest.findUnique({ where: { campaignSlug_key: { campaignSlug: slug, key } } });
        const current = row ? questOf(row) : null;
        if (!row || !current) throw new AppError('NOT_FOUND', `No quest "${key}" in campaign "${slug}"`, { reason: 'unknown_quest', campaignSlug: slug, questKey: key });
        if (current.version !== input.version) throw versionConflict(`Quest "${slug}/${key}"`, current.version, input.version);
        const { version, startAt, endAt, ...fields } = input;
        const merged: QuestDefinition = {
          ...current,
          ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
          startAt: startAt === undefined ? current.startAt : (startAt ?? undefined),
          endAt: endAt === undefined ? current.endAt : (endAt ?? undefined),
        };
        checkQuest(merged);
        const claimed = await hasClaims(tx, slug, key);
        const frozen = [
          ...(merged.timePeriod !== current.timePeriod ? ['timePeriod'] : []),
          ...(JSON.stringify(merged.evaluator) !== JSON.stringify(current.evaluator) ? ['evaluator'] : []),
        ];
        if (claimed && frozen.length) {
          throw new AppError('CONFLICT', `Quest "${slug}/${key}" has claims: its ${frozen.join(' and ')} can no longer change (create a new quest instead)`, {
            reason: 'quest_has_claims',
            campaignSlug: slug,
            questKey: key,
            fields: frozen,
          });
        }
        if (merged.performanceDaily && !current.performanceDaily) await performanceTaken(tx, slug, key);
        const updated = await tx.quest.updateManyAndReturn({ where: { id: row.id, version }, data: { ...questColumns(merged), version: { increment: 1 } } });
        if (updated.length !== 1) throw versionConflict(`Quest "${slug}/${key}"`, current.version + 1, version);
        const quest = questOf(updated[0]!)!;
        const now = clock();
        const after = questAdminView(quest, campaign, claimed, now);
        return { before: questAdminView(current, campaign, claimed, now), after, result: { view: after, quest, stale: !countsTheSame(current, merged) } };
      });
      return { view: result.view, change: { campaignSlug: slug, ...(result.stale ? { rebuild: { campaignSlug: slug, quest: result.quest } } : {}) } };
    },
  };
}
