import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Registry } from 'prom-client';
import type { KindKey } from '../../chain-events/kinds';
import type { Db, QueryOptions } from '../../db/client';
import { AppError, type ErrorCode } from '../../errors';
import { suiAddress } from '../../input/sui-address';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import type { SharedStore } from '../../store';
import type { Hooks } from '../hooks';
import { chargeRate, isOverLimit, rateLimited } from '../../store/rate-limit';
import type { LeaderboardService } from '../leaderboards';
import {
  DEFAULT_CATALOGUE,
  lifecycleOf,
  periodEndOf,
  periodStartOf,
  questWindow,
  validateCatalogue,
  type Catalogue,
  type QuestDefinition,
} from './catalogue';
import { DEFAULT_QUEST_MODE, questMode, type CampaignView, type NotClaimableReason, type QuestClaimPage, type QuestClaimResult, type QuestLifecycle, type QuestMode, type QuestStatus, type QuestView } from './model';
import { recordClaim } from './claims';
import { readClaimsHistory } from './claims-history';
import { seedCampaigns } from './seed';
import { createQuestMetrics } from './metrics';
import { liveProgress, readStored, type ProgressKey } from './progress';
import { createProgressUpkeep } from './upkeep';

/** Most checks one batch status request may carry. */
export const MAX_STATUS_CHECKS = 50;
/** How stale a campaign row a status read may use (operators edit campaigns in the database; the catalogue's own cache hint is 10 s). */
const CAMPAIGN_READ_TTL_MS = 5_000;

export interface QuestService {
  /** Seeds the default catalogue when no campaign exists, logs the lifecycle states, starts the lifecycle watch. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Creates the catalogue's missing campaigns (idempotent; existing rows are the operators' and stay as they are). */
  seed(): Promise<{ created: string[] }>;
  list(opts?: QueryOptions): Promise<CampaignView[]>;
  /** Statuses of every quest of every campaign for a player, `indexed` mode (the default lookup). */
  defaultStatus(input: unknown, viewer: string | null, opts?: QueryOptions): Promise<QuestStatus[]>;
  /** Statuses of every quest of one campaign for a player (`mode` default `indexed`); unknown campaign → NOT_FOUND. */
  campaignStatus(input: unknown, viewer: string | null, opts?: QueryOptions): Promise<QuestStatus[]>;
  status(input: unknown, viewer: string | null, opts?: QueryOptions): Promise<QuestStatus>;
  statusBatch(input: unknown, viewer: string | null, opts?: QueryOptions): Promise<QuestStatus[]>;
  performanceDaily(input: unknown, viewer: string | null, opts?: QueryOptions): Promise<QuestStatus>;
  claim(wallet: string, input: unknown): Promise<QuestClaimResult>;
  /** The wallet's own claims, newest first, one keyset page (`{ limit?, after? }`). */
  claimsHistory(wallet: string, input: unknown, opts?: QueryOptions): Promise<QuestClaimPage>;
  /** Recomputes the progress a committed batch of chain events can move (the `chainIndexed` subscriber); resolves once stored. Never throws. */
  afterIndexed(kind: KindKey, events: ReadonlyArray<{ timestampMs: number; data: unknown }>): Promise<void>;
  /** The per-wallet claim bucket (shared across replicas, REST and GraphQL alike). */
  readonly claimLimit: { max: number; windowMs: number };
}

export interface QuestServiceDeps {
  db: Db;
  store: Pick<SharedStore, 'hit'>;
  logger: Logger;
  leaderboards: Pick<LeaderboardService, 'invalidate'>;
  /** The process registry (/metrics); omitted in unit setups. */
  registry?: Registry;
  /** Test seam: the service's clock (period boundaries, lifecycle). */
  now?: () => Date;
  catalogue?: Catalogue;
  /** Claims per wallet per window. Default 10 per 60 s. */
  claimLimit?: { max: number; windowMs: number };
  /** How often lifecycle changes are looked for without traffic. Default 60 s; 0 disables. */
  lifecycleIntervalMs?: number;
  /** Where progress upkeep subscribes (chain batches, logins); without it only `afterIndexed` calls move indexed progress. */
  hooks?: Pick<Hooks, 'on'>;
}

const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1–64 lowercase letters, digits, dashes or underscores');
const questKey = slug;
const address = suiAddress();
const mode = questMode.default(DEFAULT_QUEST_MODE);
const playerInput = z.object({ player: address.optional() });
const statusInput = z.object({ campaignSlug: slug, mode, questKey, player: address.optional() });
const campaignStatusInput = z.object({ campaignSlug: slug, mode, player: address.optional() });
/** The batch status request's body (the campaign comes from the path). */
export const statusBatchBody = z.object({
  checks: z
    .array(z.object({ questKey, mode, player: address.optional() }).strict())
    .min(1)
    .max(MAX_STATUS_CHECKS, `at most ${MAX_STATUS_CHECKS} checks per request`),
});
const batchInput = statusBatchBody.extend({ campaignSlug: slug });
const performanceInput = z.object({ campaignSlug: slug, player: address.optional() });
/** The claim request's body (campaign and quest come from the path). */
export const claimBody = z
  .object({
    periodStart: z.iso.datetime({ offset: true }).optional().describe('UTC start of the period claimed (ISO 8601); default: the current period'),
    txHash: z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 transaction digest')
      .optional()
      .describe('Optional Sui transaction digest recorded with the claim'),
  })
  .strict();
const claimInput = claimBody.extend({ campaignSlug: slug, questKey });

/** What a status request and a claim read about the campaign (the `campaign` row). */
interface CampaignRow {
  slug: string;
  type: string;
  name: string | null;
  title: string | null;
  description: string | null;
  copyText: string | null;
  startAt: Date;
  endAt: Date;
  managesClaims: boolean;
}

export function createQuestService(deps: QuestServiceDeps): QuestService {
  const catalogue = deps.catalogue ?? DEFAULT_CATALOGUE;
  validateCatalogue(catalogue);
  const clock = deps.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'quests' });
  const metrics = createQuestMetrics(deps.registry);
  const claimLimit = deps.claimLimit ?? { max: 10, windowMs: 60_000 };
  const questsOf = new Map(catalogue.map((c) => [c.campaign.slug, new Map(c.quests.map((q) => [q.key, q]))]));
  const lifecycleSeen = new Map<string, QuestLifecycle>();
  let lifecycleTimer: NodeJS.Timeout | null = null;
  const upkeep = createProgressUpkeep({ db: deps.db, catalogue, metrics, logger });
  const unsubscribe = [
    deps.hooks?.on('chainIndexed', ({ kind, events }) => upkeep.afterIndexed(kind, events)),
    deps.hooks?.on('walletLoggedIn', ({ wallet, at }) => upkeep.afterLogin(wallet, at)),
  ];

  function refuse(reason: string, code: ErrorCode, message: string, details?: Record<string, unknown>): never {
    metrics.refusals.inc({ reason });
    logger.debug({ reason, code, ...details }, 'quest claim refused');
    throw new AppError(code, message, { reason, ...details });
  }

  /**
   * Status reads take a campaign row at most CAMPAIGN_READ_TTL_MS old (concurrent misses share one
   * query, unknown slugs are remembered too); a claim always reads it fresh.
   */
  const readCampaign = (slug: string): Promise<CampaignRow | null> => deps.db.prisma.campaign.findUnique({ where: { slug } });
  const campaignRows = new LRUCache<string, { row: CampaignRow | null }>({
    max: 1000,
    ttl: CAMPAIGN_READ_TTL_MS,
    fetchMethod: async (slug) => ({ row: await readCampaign(slug) }),
  });

  async function loadCampaign(campaignSlug: string, opts: { fresh?: boolean } = {}): Promise<CampaignRow> {
    const row = opts.fresh ? await readCampaign(campaignSlug) : (await campaignRows.fetch(campaignSlug))!.row;
    if (!row) throw new AppError('NOT_FOUND', `No campaign "${campaignSlug}"`, { reason: 'unknown_campaign', campaignSlug });
    return row;
  }

  function findQuest(campaignSlug: string, key: string): QuestDefinition {
    const quest = questsOf.get(campaignSlug)?.get(key);
    if (!quest) throw new AppError('NOT_FOUND', `No quest "${key}" in campaign "${campaignSlug}"`, { reason: 'unknown_quest', campaignSlug, questKey: key });
    return quest;
  }

  /** Logs each quest whose lifecycle state differs from the last one this process saw, with its campaign. */
  function observeLifecycle(campaigns: readonly CampaignRow[], now: Date): void {
    for (const campaign of campaigns) {
      for (const quest of questsOf.get(campaign.slug)?.values() ?? []) {
        const id = `${campaign.slug}/${quest.key}`;
        const state = lifecycleOf(quest, campaign, now);
        const previous = lifecycleSeen.get(id);
        if (previous === state) continue;
        lifecycleSeen.set(id, state);
        logger.info(
          {
            campaign: { slug: campaign.slug, type: campaign.type, startAt: campaign.startAt.toISOString(), endAt: campaign.endAt.toISOString(), managesClaims: campaign.managesClaims },
            quest: quest.key,
            lifecycle: state,
            previous: previous ?? null,
          },
          `quest ${id} is ${state}`,
        );
      }
    }
  }

  const playerOr = (player: string | undefined, viewer: string | null): string => {
    const chosen = player ?? viewer;
    if (!chosen) throw new AppError('VALIDATION_FAILED', 'player is required without an access token', { issues: [{ path: '/player', message: 'required without an access token' }] });
    return chosen;
  };

  interface Check {
    quest: QuestDefinition;
    mode: QuestMode;
    player: string;
  }

  async function evaluate(campaign: CampaignRow, checks: readonly Check[], operation: string, opts?: QueryOptions): Promise<QuestStatus[]> {
    const now = clock();
    observeLifecycle([campaign], now);
    for (const c of checks) {
      if (!c.quest.modes.includes(c.mode)) throw new AppError('VALIDATION_FAILED', `Quest "${c.quest.key}" supports modes ${c.quest.modes.join(', ')}`, { issues: [{ path: '/mode', message: `one of ${c.quest.modes.join(', ')}` }] });
    }
    const periods = checks.map((c) => {
      const start = periodStartOf(c.quest.timePeriod, now);
      return { start, end: periodEndOf(c.quest.timePeriod, start) };
    });
    const stopTimer = metrics.evaluation.startTimer({ operation, mode: checks.every((c) => c.mode === 'indexed') ? 'indexed' : 'live' });
    try {
      const stored = await readStored(
        deps.db,
        checks.map((c, i) => ({ campaignSlug: campaign.slug, questKey: c.quest.key, timePeriod: c.quest.timePeriod, player: c.player, periodStart: periods[i].start })),
        opts,
      );
      const progress = stored.map((s) => s.progress ?? '0');
      // `live`: the same evaluator over the event tables, one statement per distinct quest.
      const liveByQuest = new Map<QuestDefinition, number[]>();
      checks.forEach((c, i) => c.mode === 'live' && liveByQuest.set(c.quest, [...(liveByQuest.get(c.quest) ?? []), i]));
      await Promise.all(
        [...liveByQuest].map(async ([quest, indexes]) => {
          const keys: ProgressKey[] = indexes.map((i) => ({ player: checks[i].player, periodStart: periods[i].start, periodEnd: periods[i].end }));
          const values = await liveProgress(deps.db, quest, keys, opts);
          indexes.forEach((i, n) => (progress[i] = values[n]));
        }),
      );
      return checks.map((c, i) => {
        const lifecycle = lifecycleOf(c.quest, campaign, now);
        const completed = BigInt(progress[i]) >= c.quest.target;
        const claimed = stored[i].claimedAt !== null;
        const reason: NotClaimableReason | null =
          lifecycle !== 'active' ? lifecycle : claimed ? 'claimed' : !completed ? 'incomplete' : campaign.managesClaims ? 'managed_by_partner' : null;
        return {
          campaignSlug: campaign.slug,
          questKey: c.quest.key,
          mode: c.mode,
          player: c.player,
          timePeriod: c.quest.timePeriod,
          periodStart: periods[i].start.toISOString(),
          periodEnd: periods[i].end.toISOString(),
          lifecycle,
          progress: progress[i],
          target: c.quest.target.toString(),
          completed,
          claimed,
          claimedAt: stored[i].claimedAt?.toISOString() ?? null,
          claimable: reason === null,
          reason,
          xpReward: c.quest.xpReward,
        };
      });
    } finally {
      stopTimer();
    }
  }

  function questView(quest: QuestDefinition, campaign: CampaignRow, now: Date): QuestView {
    const window = questWindow(quest, campaign);
    const periodStart = periodStartOf(quest.timePeriod, now);
    return {
      key: quest.key,
      title: quest.title,
      description: quest.description,
      xpReward: quest.xpReward,
      timePeriod: quest.timePeriod,
      modes: [...quest.modes],
      target: quest.target.toString(),
      lifecycle: lifecycleOf(quest, campaign, now),
      performanceDaily: quest.performanceDaily === true,
      startAt: window.startAt.toISOString(),
      endAt: window.endAt.toISOString(),
      periodStart: periodStart.toISOString(),
      periodEnd: periodEndOf(quest.timePeriod, periodStart).toISOString(),
    };
  }

  async function allCampaigns(): Promise<CampaignRow[]> {
    return deps.db.prisma.campaign.findMany({ orderBy: [{ startAt: 'asc' }, { slug: 'asc' }] });
  }

  async function throttle(wallet: string): Promise<void> {
    const charge = await chargeRate(deps.store, `quest-claim:wallet:${wallet}`, claimLimit);
    if (!isOverLimit(charge)) return;
    const refusal = rateLimited(`Too many quest claims: limit is ${charge.limit} per ${claimLimit.windowMs / 1000} s per wallet`, 'quest-claim', charge.resetMs);
    refuse('throttled', refusal.code, refusal.message, refusal.details);
  }

  const seed = async (): Promise<{ created: string[] }> => ({ created: await seedCampaigns(deps.db, catalogue) });

  return {
    claimLimit,
    seed,
    async start() {
      if ((await deps.db.prisma.campaign.count()) === 0) {
        const { created } = await seed();
        logger.info({ campaigns: created }, 'quests: the catalogue was empty; seeded the default campaigns');
      }
      observeLifecycle(await allCampaigns(), clock());
      const every = deps.lifecycleIntervalMs ?? 60_000;
      if (every > 0) {
        lifecycleTimer = setInterval(() => {
          allCampaigns()
            .then((rows) => observeLifecycle(rows, clock()))
            .catch((err: unknown) => logger.warn({ err }, 'quest lifecycle check failed'));
        }, every);
        lifecycleTimer.unref();
      }
    },
    async close() {
      if (lifecycleTimer) clearInterval(lifecycleTimer);
      lifecycleTimer = null;
      unsubscribe.forEach((off) => off?.());
      await upkeep.settled();
    },
    async list() {
      const campaigns = await allCampaigns();
      const now = clock();
      observeLifecycle(campaigns, now);
      return campaigns.map((c) => ({
        slug: c.slug,
        type: c.type,
        name: c.name,
        title: c.title,
        description: c.description,
        copyText: c.copyText,
        startAt: c.startAt.toISOString(),
        endAt: c.endAt.toISOString(),
        managesClaims: c.managesClaims,
        quests: [...(questsOf.get(c.slug)?.values() ?? [])].map((q) => questView(q, c, now)),
      }));
    },
    async defaultStatus(raw, viewer, opts) {
      const player = playerOr(parseInput(playerInput, raw ?? {}).player, viewer);
      const out: QuestStatus[] = [];
      for (const campaign of await allCampaigns()) {
        const quests = [...(questsOf.get(campaign.slug)?.values() ?? [])];
        if (quests.length) out.push(...(await evaluate(campaign, quests.map((quest) => ({ quest, mode: 'indexed' as const, player })), 'default_status', opts)));
      }
      return out;
    },
    async campaignStatus(raw, viewer, opts) {
      const input = parseInput(campaignStatusInput, raw);
      const campaign = await loadCampaign(input.campaignSlug);
      const player = playerOr(input.player, viewer);
      const quests = [...(questsOf.get(campaign.slug)?.values() ?? [])];
      return quests.length ? evaluate(campaign, quests.map((quest) => ({ quest, mode: input.mode, player })), 'campaign_status', opts) : [];
    },
    async status(raw, viewer, opts) {
      const input = parseInput(statusInput, raw);
      const campaign = await loadCampaign(input.campaignSlug);
      const quest = findQuest(campaign.slug, input.questKey);
      const [status] = await evaluate(campaign, [{ quest, mode: input.mode, player: playerOr(input.player, viewer) }], 'status', opts);
      return status;
    },
    async statusBatch(raw, viewer, opts) {
      const input = parseInput(batchInput, raw);
      const campaign = await loadCampaign(input.campaignSlug);
      const checks = input.checks.map((c) => ({ quest: findQuest(campaign.slug, c.questKey), mode: c.mode, player: playerOr(c.player, viewer) }));
      return evaluate(campaign, checks, 'batch_status', opts);
    },
    async performanceDaily(raw, viewer, opts) {
      const input = parseInput(performanceInput, raw);
      const campaign = await loadCampaign(input.campaignSlug);
      const quest = [...(questsOf.get(campaign.slug)?.values() ?? [])].find((q) => q.performanceDaily);
      if (!quest) throw new AppError('NOT_FOUND', `Campaign "${campaign.slug}" has no daily performance quest`, { reason: 'unknown_quest', campaignSlug: campaign.slug });
      const [status] = await evaluate(campaign, [{ quest, mode: 'indexed', player: playerOr(input.player, viewer) }], 'performance_daily', opts);
      return status;
    },
    claimsHistory: (wallet, raw, opts) => readClaimsHistory(deps.db, wallet, raw, opts),
    async claim(wallet, raw) {
      const stopTimer = metrics.evaluation.startTimer({ operation: 'claim', mode: 'live' });
      try {
        let input: z.output<typeof claimInput>;
        try {
          input = parseInput(claimInput, raw);
        } catch (err) {
          metrics.refusals.inc({ reason: 'invalid_input' });
          throw err;
        }
        await throttle(wallet);
        let campaign: CampaignRow;
        let quest: QuestDefinition;
        try {
          campaign = await loadCampaign(input.campaignSlug, { fresh: true });
          quest = findQuest(campaign.slug, input.questKey);
        } catch (err) {
          metrics.refusals.inc({ reason: String((err as AppError).details?.reason ?? 'unknown') });
          throw err;
        }
        const now = clock();
        observeLifecycle([campaign], now);
        const where = { campaignSlug: campaign.slug, questKey: quest.key };
        const window = questWindow(quest, campaign);
        const lifecycle = lifecycleOf(quest, campaign, now);
        if (lifecycle === 'inactive') refuse('inactive', 'CLAIM_PERIOD_INVALID', `Quest "${quest.key}" is not enabled`, where);
        if (lifecycle === 'upcoming') refuse('not_started', 'CLAIM_PERIOD_INVALID', `Quest "${quest.key}" starts at ${window.startAt.toISOString()}`, { ...where, startAt: window.startAt.toISOString() });
        if (lifecycle === 'expired') refuse('closed', 'CLAIM_PERIOD_INVALID', `Quest "${quest.key}" ended at ${window.endAt.toISOString()}`, { ...where, endAt: window.endAt.toISOString() });
        if (campaign.managesClaims) refuse('managed_by_partner', 'FORBIDDEN', `Claims of campaign "${campaign.slug}" are made with its partner, not here`, where);

        const current = periodStartOf(quest.timePeriod, now);
        const requested = input.periodStart ? new Date(input.periodStart) : current;
        if (periodStartOf(quest.timePeriod, requested).getTime() !== requested.getTime()) {
          refuse('invalid_input', 'VALIDATION_FAILED', `periodStart must be the start of a ${quest.timePeriod} period (UTC)`, {
            ...where,
            issues: [{ path: '/periodStart', message: `the current period starts at ${current.toISOString()}` }],
          });
        }
        const periodEnd = periodEndOf(quest.timePeriod, requested);
        const period = { periodStart: requested.toISOString(), periodEnd: periodEnd.toISOString(), currentPeriodStart: current.toISOString() };
        if (requested < current) refuse('closed', 'CLAIM_PERIOD_INVALID', `The period starting ${period.periodStart} closed at ${period.periodEnd}`, { ...where, ...period });
        if (requested > current) refuse('not_started', 'CLAIM_PERIOD_INVALID', `The period starting ${period.periodStart} has not started`, { ...where, ...period });

        const outcome = await recordClaim(deps.db, { campaignSlug: campaign.slug, quest, player: wallet, periodStart: requested, periodEnd, txHash: input.txHash ?? null });
        if (outcome.outcome === 'incomplete') {
          refuse('incomplete', 'QUEST_INCOMPLETE', `Quest "${quest.key}" is not complete: ${outcome.progress} of ${quest.target}`, { ...where, progress: outcome.progress, target: quest.target.toString() });
        }
        if (outcome.outcome === 'duplicate') refuse('duplicate', 'DUPLICATE_CLAIM', `Quest "${quest.key}" was already claimed for the period starting ${period.periodStart}`, { ...where, periodStart: period.periodStart });

        metrics.claims.inc({ campaign: campaign.slug, quest: quest.key });
        logger.info({ ...where, player: wallet, periodStart: period.periodStart, xpReward: quest.xpReward, totalXp: outcome.totalXp }, 'quest claimed');
        deps.leaderboards.invalidate().catch((err: unknown) => logger.warn({ err }, 'leaderboard cache invalidation after a claim failed'));
        return {
          campaignSlug: campaign.slug,
          questKey: quest.key,
          player: wallet,
          timePeriod: quest.timePeriod,
          periodStart: period.periodStart,
          xpReward: quest.xpReward,
          txHash: input.txHash ?? null,
          claimedAt: outcome.claimedAt.toISOString(),
          totalXp: outcome.totalXp,
        };
      } finally {
        stopTimer();
      }
    },
    afterIndexed: upkeep.afterIndexed,
  };
}
