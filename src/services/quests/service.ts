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
import type { AuditLog, OperatorActor } from '../operators';
import type { ReadCacheService } from '../read-cache';
import { named } from '../model-names';
import { DEFAULT_CATALOGUE, validateCatalogue, type Catalogue, type QuestDefinition } from './catalogue';
import { periodEndOf, periodStartOf } from './periods';
import { lifecycleOf, questWindow } from './quest-window';
import {
  DEFAULT_QUEST_MODE,
  campaignSlug,
  questKey as questKeyInput,
  questMode,
  valuesText,
  type AdminCampaignView,
  type AdminQuestView,
  type CampaignView,
  type NotClaimableReason,
  type QuestClaimPage,
  type QuestClaimResult,
  type QuestLifecycle,
  type QuestMode,
  type QuestStatus,
  type QuestView,
} from './model';
import { createQuestAdmin, type CatalogueChange } from './admin';
import { createCatalogueCache, type CatalogueSnapshot } from './catalogue-cache';
import { recordClaim } from './claims';
import { readClaimsHistory } from './claims-history';
import { campaignRecordOf, loadCatalogue, readCampaignQuest, type StoredCampaign, type StoredQuest } from './catalogue-store';
import { seedCatalogue, type SeedResult } from './seed';
import { createQuestMetrics } from './metrics';
import { liveProgress, readStored, type ProgressKey } from './progress';
import { createStatusCache } from './status-cache';
import { createProgressUpkeep } from './upkeep';

/** Most checks one batch status request may carry. */
export const MAX_STATUS_CHECKS = 50;
/**
 * How stale a process's copy of the campaigns and quests may get when it missed an edit's
 * announcement (edits announce themselves to every replica at once; the catalogue's own cache hint is 10 s).
 */
const CATALOGUE_READ_TTL_MS = 5_000;

/** The operators' side: campaigns and quests as data, each edit versioned and audited, seen by every replica at once. */
export interface QuestAdminService {
  /** Every campaign with its quests as stored (versions, evaluators, whether claimed). */
  list(): Promise<AdminCampaignView[]>;
  createCampaign(actor: OperatorActor, input: unknown, requestId?: string): Promise<AdminCampaignView>;
  updateCampaign(actor: OperatorActor, slug: string, input: unknown, requestId?: string): Promise<AdminCampaignView>;
  createQuest(actor: OperatorActor, campaignSlug: string, input: unknown, requestId?: string): Promise<AdminQuestView>;
  updateQuest(actor: OperatorActor, campaignSlug: string, questKey: string, input: unknown, requestId?: string): Promise<AdminQuestView>;
}

export interface QuestService {
  /** Seeds the default catalogue when no campaign exists (else its quests missing from the database), logs the lifecycle states, starts the lifecycle watch. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Creates the default catalogue's missing campaigns and quests (idempotent; existing rows are the operators' and stay as they are). */
  seed(): Promise<SeedResult>;
  readonly admin: QuestAdminService;
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
  /** The operators' audit log (every edit is audited); without it the admin side refuses. */
  audit?: Pick<AuditLog, 'audited'>;
  /**
   * The `quests` generation, bumped by an edit (cached responses and every replica's catalogue copy
   * drop at once), and `questProgress`, bumped with the wallets whose progress or claims changed
   * (cached status answers, and those wallets' status reads on every replica, drop at once).
   */
  readCache: Pick<ReadCacheService, 'bump' | 'onBump'>;
  /** Test seam: how long a wallet's cached status reads live without a change announced (default STATUS_CACHE_TTL_MS). */
  statusCacheTtlMs?: number;
}

const slug = campaignSlug;
const questKey = questKeyInput;
const address = suiAddress();
const mode = questMode.default(DEFAULT_QUEST_MODE);
const player = address.optional().describe('Sui address; default: the access token’s wallet');
/** Whose statuses: a player, or the caller. */
export const playerInput = z.object({ player });
const statusInput = z.object({ campaignSlug: slug, mode, questKey, player });
/** How one campaign's statuses are read (the campaign comes from the path). */
export const campaignStatusQuery = z.object({ player, mode: questMode.optional().describe(valuesText(questMode, DEFAULT_QUEST_MODE)) });
const campaignStatusInput = campaignStatusQuery.extend({ campaignSlug: slug, mode });
/** One check of a batch status request. */
export const questCheck = named('QuestCheckInput', z.object({ questKey, mode, player }).strict().describe('One check of a batch status request'));
/** The batch status request's body (the campaign comes from the path). */
export const statusBatchBody = z.object({
  checks: z.array(questCheck).min(1).max(MAX_STATUS_CHECKS, `at most ${MAX_STATUS_CHECKS} checks per request`),
});
const batchInput = statusBatchBody.extend({ campaignSlug: slug });
const performanceInput = playerInput.extend({ campaignSlug: slug });
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

export function createQuestService(deps: QuestServiceDeps): QuestService {
  const catalogue = deps.catalogue ?? DEFAULT_CATALOGUE;
  validateCatalogue(catalogue);
  const clock = deps.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'quests' });
  const metrics = createQuestMetrics(deps.registry);
  const claimLimit = deps.claimLimit ?? { max: 10, windowMs: 60_000 };
  const lifecycleSeen = new Map<string, QuestLifecycle>();
  let lifecycleTimer: NodeJS.Timeout | null = null;

  /** Status reads, the list and the upkeep read the stored catalogue through this copy; a claim reads its rows fresh. */
  const cache = createCatalogueCache({ load: () => loadCatalogue(deps.db, logger), ttlMs: CATALOGUE_READ_TTL_MS });
  /** Status reads' stored progress and claims per wallet (./status-cache.ts), dropped by `walletsChanged`, by other replicas' announcements and by an edit. */
  const statusCache = createStatusCache({ ttlMs: deps.statusCacheTtlMs });
  // An edit on any replica bumps `quests`: these copies drop before a response cached under the new generation can be built from them.
  deps.readCache.onBump('quests', () => {
    cache.invalidate();
    statusCache.clear();
  });
  // A wallet's progress or claims changed on some replica: its status reads here are read again (null: every wallet's).
  deps.readCache.onBump('questProgress', (players) => (players ? statusCache.drop(players) : statusCache.clear()));

  /**
   * After a progress or claim write committed here: the `questProgress` bump drops the cached
   * statuses of `players` (null: all) here at once and on the other replicas when they hear of it,
   * each before it can cache an answer under the new generation. A lost announcement shows within
   * the status cache's TTL and the answers' max-age.
   */
  function walletsChanged(players: readonly string[] | null): void {
    if (players?.length === 0) return;
    void deps.readCache.bump('questProgress', players ?? undefined);
  }

  const upkeep = createProgressUpkeep({
    db: deps.db,
    quests: async () => {
      const snapshot = await cache.get();
      return {
        refs: snapshot.refs,
        byId: (id) => {
          const cut = id.indexOf('/');
          const quest = snapshot.bySlug.get(id.slice(0, cut))?.byKey.get(id.slice(cut + 1));
          return quest ? { campaignSlug: id.slice(0, cut), quest } : undefined;
        },
      };
    },
    metrics,
    logger,
    changed: walletsChanged,
  });
  const unsubscribe = [
    deps.hooks?.on('chainIndexed', ({ kind, events }) => upkeep.afterIndexed(kind, events)),
    deps.hooks?.on('walletLoggedIn', ({ wallet, at }) => upkeep.afterLogin(wallet, at)),
  ];

  function refuse(reason: string, code: ErrorCode, message: string, details?: Record<string, unknown>): never {
    metrics.refusals.inc({ reason });
    logger.debug({ reason, code, ...details }, 'quest claim refused');
    throw new AppError(code, message, { reason, ...details });
  }

  const unknownCampaign = (campaignSlug: string) => new AppError('NOT_FOUND', `No campaign "${campaignSlug}"`, { reason: 'unknown_campaign', campaignSlug });
  const unknownQuest = (campaignSlug: string, key: string) => new AppError('NOT_FOUND', `No quest "${key}" in campaign "${campaignSlug}"`, { reason: 'unknown_quest', campaignSlug, questKey: key });

  /** A campaign and its quests from the process's copy (at most CATALOGUE_READ_TTL_MS old, dropped at once by an edit). */
  async function loadCampaign(campaignSlug: string): Promise<NonNullable<ReturnType<CatalogueSnapshot['bySlug']['get']>>> {
    const entry = (await cache.get()).bySlug.get(campaignSlug);
    if (!entry) throw unknownCampaign(campaignSlug);
    return entry;
  }

  function findQuest(entry: { campaign: StoredCampaign; byKey: ReadonlyMap<string, StoredQuest> }, key: string): StoredQuest {
    const quest = entry.byKey.get(key);
    if (!quest) throw unknownQuest(entry.campaign.slug, key);
    return quest;
  }

  /** The campaign and the quest as stored right now (a claim pays by the definition of the moment). */
  async function readFresh(campaignSlug: string, key: string): Promise<{ campaign: StoredCampaign; quest: StoredQuest }> {
    const found = await readCampaignQuest(deps.db, campaignSlug, key);
    if (!found) throw unknownCampaign(campaignSlug);
    if (!found.quest) throw unknownQuest(campaignSlug, key);
    return { campaign: found.campaign, quest: found.quest };
  }

  /** Logs each quest whose lifecycle state differs from the last one this process saw, with its campaign. */
  function observeLifecycle(entries: ReadonlyArray<{ campaign: StoredCampaign; quests: readonly QuestDefinition[] }>, now: Date): void {
    for (const { campaign, quests } of entries) {
      for (const quest of quests) {
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

  const observeAll = async () => observeLifecycle((await cache.get()).entries, clock());

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

  /** What every check of one quest shares in one evaluation: its period now, its lifecycle, its target. */
  interface QuestNow {
    periodStart: Date;
    periodEnd: Date;
    periodStartText: string;
    periodEndText: string;
    lifecycle: QuestLifecycle;
    target: string;
  }

  async function evaluate(entry: { campaign: StoredCampaign; quests: readonly QuestDefinition[] }, checks: readonly Check[], operation: string, opts?: QueryOptions): Promise<QuestStatus[]> {
    const { campaign } = entry;
    const now = clock();
    observeLifecycle([entry], now);
    for (const c of checks) {
      if (!c.quest.modes.includes(c.mode)) throw new AppError('VALIDATION_FAILED', `Quest "${c.quest.key}" supports modes ${c.quest.modes.join(', ')}`, { issues: [{ path: '/mode', message: `one of ${c.quest.modes.join(', ')}` }] });
    }
    // A batch usually checks a few quests for many wallets: each quest's period, lifecycle and texts once.
    const byQuest = new Map<QuestDefinition, QuestNow>();
    const perCheck = checks.map((c) => {
      let q = byQuest.get(c.quest);
      if (!q) {
        const start = periodStartOf(c.quest.timePeriod, now);
        const end = periodEndOf(c.quest.timePeriod, start);
        q = { periodStart: start, periodEnd: end, periodStartText: start.toISOString(), periodEndText: end.toISOString(), lifecycle: lifecycleOf(c.quest, campaign, now), target: c.quest.target.toString() };
        byQuest.set(c.quest, q);
      }
      return q;
    });
    const stopTimer = metrics.evaluation.startTimer({ operation, mode: checks.every((c) => c.mode === 'indexed') ? 'indexed' : 'live' });
    try {
      const stored = await statusCache.read(
        checks.map((c, i) => ({ campaignSlug: campaign.slug, questKey: c.quest.key, timePeriod: c.quest.timePeriod, player: c.player, periodStart: perCheck[i].periodStart })),
        (missing) => readStored(deps.db, missing, opts),
      );
      const progress = stored.map((s) => s.progress ?? '0');
      // `live`: the same evaluator over the event tables, one statement per distinct quest.
      const liveByQuest = new Map<QuestDefinition, number[]>();
      checks.forEach((c, i) => c.mode === 'live' && liveByQuest.set(c.quest, [...(liveByQuest.get(c.quest) ?? []), i]));
      await Promise.all(
        [...liveByQuest].map(async ([quest, indexes]) => {
          const keys: ProgressKey[] = indexes.map((i) => ({ player: checks[i].player, periodStart: perCheck[i].periodStart, periodEnd: perCheck[i].periodEnd }));
          const values = await liveProgress(deps.db, quest, keys, opts);
          indexes.forEach((i, n) => (progress[i] = values[n]));
        }),
      );
      return checks.map((c, i) => {
        const { lifecycle } = perCheck[i];
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
          periodStart: perCheck[i].periodStartText,
          periodEnd: perCheck[i].periodEndText,
          lifecycle,
          progress: progress[i],
          target: perCheck[i].target,
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

  function questView(quest: QuestDefinition, campaign: StoredCampaign, now: Date): QuestView {
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

  async function throttle(wallet: string): Promise<void> {
    const charge = await chargeRate(deps.store, `quest-claim:wallet:${wallet}`, claimLimit);
    if (!isOverLimit(charge)) return;
    const refusal = rateLimited(`Too many quest claims: limit is ${charge.limit} per ${claimLimit.windowMs / 1000} s per wallet`, 'quest-claim', charge.resetMs);
    refuse('throttled', refusal.code, refusal.message, refusal.details);
  }

  const seed = (opts?: { campaigns?: boolean }): Promise<SeedResult> => seedCatalogue(deps.db, catalogue, opts);

  const questAdmin = createQuestAdmin({ db: deps.db, audit: deps.audit, clock });

  /**
   * After an edit's commit: this replica's copy drops at once; the `quests` bump drops every other
   * replica's copy and every cached response (through the shared store's pub/sub, each replica's
   * listener running before the new generation is used); the edited quest's stored progress is
   * recomputed off the request (in turn with the upkeep's refreshes); lifecycle changes are logged.
   */
  async function changed(change: CatalogueChange): Promise<void> {
    cache.invalidate();
    await deps.readCache.bump('quests');
    if (change.rebuild) void upkeep.rebuild(change.rebuild);
    try {
      const entry = (await cache.get()).bySlug.get(change.campaignSlug);
      if (entry) observeLifecycle([entry], clock());
    } catch (err) {
      logger.warn({ err }, 'quest lifecycle check after an edit failed');
    }
  }

  const admin: QuestAdminService = {
    list: () => questAdmin.list(),
    async createCampaign(actor, input, requestId) {
      const { view, change } = await questAdmin.createCampaign(actor, input, requestId);
      await changed(change);
      return view;
    },
    async updateCampaign(actor, slug, input, requestId) {
      const { view, change } = await questAdmin.updateCampaign(actor, slug, input, requestId);
      await changed(change);
      return view;
    },
    async createQuest(actor, campaignSlug, input, requestId) {
      const { view, change } = await questAdmin.createQuest(actor, campaignSlug, input, requestId);
      await changed(change);
      return view;
    },
    async updateQuest(actor, campaignSlug, key, input, requestId) {
      const { view, change } = await questAdmin.updateQuest(actor, campaignSlug, key, input, requestId);
      await changed(change);
      return view;
    },
  };

  return {
    claimLimit,
    seed: () => seed(),
    admin,
    async start() {
      if ((await deps.db.prisma.campaign.count()) === 0) {
        const created = await seed();
        logger.info({ campaigns: created.campaigns, quests: created.quests.length }, 'quests: the catalogue was empty; seeded the default campaigns');
      } else {
        // A default quest the database lacks (new in this release, or the first start with quests as data) joins its campaign; nothing existing changes.
        const created = await seed({ campaigns: false });
        if (created.quests.length) logger.info({ quests: created.quests }, 'quests: added the default quests missing from the database');
      }
      await observeAll();
      const every = deps.lifecycleIntervalMs ?? 60_000;
      if (every > 0) {
        lifecycleTimer = setInterval(() => {
          observeAll().catch((err: unknown) => logger.warn({ err }, 'quest lifecycle check failed'));
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
      const { entries } = await cache.get();
      const now = clock();
      observeLifecycle(entries, now);
      return entries.map(({ campaign: c, quests }) => ({ ...campaignRecordOf(c), quests: quests.map((q) => questView(q, c, now)) }));
    },
    async defaultStatus(raw, viewer, opts) {
      const player = playerOr(parseInput(playerInput, raw ?? {}).player, viewer);
      const out: QuestStatus[] = [];
      for (const entry of (await cache.get()).entries) {
        if (entry.quests.length) out.push(...(await evaluate(entry, entry.quests.map((quest) => ({ quest, mode: 'indexed' as const, player })), 'default_status', opts)));
      }
      return out;
    },
    async campaignStatus(raw, viewer, opts) {
      const input = parseInput(campaignStatusInput, raw);
      const entry = await loadCampaign(input.campaignSlug);
      const player = playerOr(input.player, viewer);
      return entry.quests.length ? evaluate(entry, entry.quests.map((quest) => ({ quest, mode: input.mode, player })), 'campaign_status', opts) : [];
    },
    async status(raw, viewer, opts) {
      const input = parseInput(statusInput, raw);
      const entry = await loadCampaign(input.campaignSlug);
      const quest = findQuest(entry, input.questKey);
      const [status] = await evaluate(entry, [{ quest, mode: input.mode, player: playerOr(input.player, viewer) }], 'status', opts);
      return status;
    },
    async statusBatch(raw, viewer, opts) {
      const input = parseInput(batchInput, raw);
      const entry = await loadCampaign(input.campaignSlug);
      const checks = input.checks.map((c) => ({ quest: findQuest(entry, c.questKey), mode: c.mode, player: playerOr(c.player, viewer) }));
      return evaluate(entry, checks, 'batch_status', opts);
    },
    async performanceDaily(raw, viewer, opts) {
      const input = parseInput(performanceInput, raw);
      const entry = await loadCampaign(input.campaignSlug);
      const quest = entry.quests.find((q) => q.performanceDaily);
      if (!quest) throw new AppError('NOT_FOUND', `Campaign "${entry.campaign.slug}" has no daily performance quest`, { reason: 'unknown_quest', campaignSlug: entry.campaign.slug });
      const [status] = await evaluate(entry, [{ quest, mode: 'indexed', player: playerOr(input.player, viewer) }], 'performance_daily', opts);
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
        let campaign: StoredCampaign;
        let quest: StoredQuest;
        try {
          ({ campaign, quest } = await readFresh(input.campaignSlug, input.questKey));
        } catch (err) {
          metrics.refusals.inc({ reason: String((err as AppError).details?.reason ?? 'unknown') });
          throw err;
        }
        const now = clock();
        observeLifecycle([{ campaign, quests: [quest] }], now);
        const where = { campaignSlug: campaign.slug, questKey: quest.key };
        const window = questWindow(quest, campaign);
        const lifecycle = lifecycleOf(quest, campaign, now);
        if (lifecycle === 'inactive') refuse('inactive', 'CLAIM_PERIOD_INVALID', campaign.enabled ? `Quest "${quest.key}" is not enabled` : `Campaign "${campaign.slug}" is switched off`, where);
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

        walletsChanged([wallet]);
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
