import { z } from 'zod';

/**
 * The quest domain's one model: the TypeScript types, the REST JSON schemas (so the OpenAPI
 * document) and the GraphQL descriptions all come from these declarations.
 */

/** UTC periods: days start 00:00 UTC, weeks Monday 00:00 UTC, a one-off quest has one period. */
export const timePeriod = z.enum(['once', 'daily', 'weekly']);
export type TimePeriod = z.infer<typeof timePeriod>;
const PERIOD_STARTS: Record<TimePeriod, string> = { once: '', daily: ' (00:00 UTC)', weekly: ' (Monday 00:00 UTC)' };
/** `once | daily (00:00 UTC) | weekly (Monday 00:00 UTC)` */
export const TIME_PERIODS_TEXT = timePeriod.options.map((p) => `${p}${PERIOD_STARTS[p]}`).join(' | ');

/**
 * How a status is computed. `indexed`: from `quest_progress`, kept current by the domain's hook
 * subscribers (one indexed lookup). `live`: recomputed from the sources at request time (for
 * diagnosis: when the two disagree, the upkeep is behind).
 */
export const questMode = z.enum(['indexed', 'live']);
export type QuestMode = z.infer<typeof questMode>;
/** The mode of a status request that names none. */
export const DEFAULT_QUEST_MODE: QuestMode = 'indexed';

export const questLifecycle = z.enum(['active', 'upcoming', 'expired', 'inactive']);
export type QuestLifecycle = z.infer<typeof questLifecycle>;

/** Why a quest cannot be claimed now: its lifecycle when not active (in the order they are checked), else these. */
export const notClaimableReason = z.enum([...questLifecycle.extract(['inactive', 'upcoming', 'expired']).options, 'claimed', 'incomplete', 'managed_by_partner']);
export type NotClaimableReason = z.infer<typeof notClaimableReason>;

/** `a | b (default) | c`: an enum's values as the GraphQL descriptions list them (those fields stay String). */
export const valuesText = (e: { options: readonly string[] }, defaultValue?: string): string => e.options.map((v) => (v === defaultValue ? `${v} (default)` : v)).join(' | ');

const iso = z.iso.datetime();
const decimal = z.string().regex(/^\d+$/);

export const questView = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  xpReward: z.int(),
  timePeriod,
  modes: z.array(questMode),
  /** Progress needed (a count, base units or a level). */
  target: decimal,
  lifecycle: questLifecycle,
  performanceDaily: z.boolean(),
  /** The quest's window inside its campaign (end exclusive). */
  startAt: iso,
  endAt: iso,
  /** The period running now (end exclusive). */
  periodStart: iso,
  periodEnd: iso,
});
export type QuestView = z.infer<typeof questView>;

export const campaignView = z.object({
  slug: z.string(),
  type: z.string(),
  name: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  copyText: z.string().nullable(),
  startAt: iso,
  endAt: iso,
  managesClaims: z.boolean().describe('true: statuses only; claims are made with the partner (FORBIDDEN here)'),
  quests: z.array(questView),
});
export type CampaignView = z.infer<typeof campaignView>;

export const questStatus = z.object({
  campaignSlug: z.string(),
  questKey: z.string(),
  mode: questMode,
  player: z.string(),
  timePeriod,
  periodStart: iso.describe('UTC start of the current period (days 00:00 UTC, weeks Monday 00:00 UTC, one-off quests the epoch)'),
  periodEnd: iso.describe('Exclusive end of the period'),
  lifecycle: questLifecycle,
  progress: decimal.describe('Count, base units (wagered) or level, as a decimal string'),
  target: decimal,
  completed: z.boolean(),
  claimed: z.boolean(),
  claimedAt: iso.nullable(),
  claimable: z.boolean(),
  reason: notClaimableReason.nullable().describe('Why the quest cannot be claimed now; null when it can'),
  xpReward: z.int(),
});
export type QuestStatus = z.infer<typeof questStatus>;

export const questClaimResult = z.object({
  campaignSlug: z.string(),
  questKey: z.string(),
  player: z.string(),
  timePeriod,
  periodStart: iso,
  xpReward: z.int(),
  txHash: z.string().nullable(),
  claimedAt: iso,
  totalXp: decimal.describe("The player's XP leaderboard total after the claim"),
});
export type QuestClaimResult = z.infer<typeof questClaimResult>;

/** One claim of a player's history (the claim as recorded, without the board total of that moment). */
export const questClaimRecord = questClaimResult.omit({ totalXp: true });
export type QuestClaimRecord = z.infer<typeof questClaimRecord>;

/** Most claims one history page holds. */
export const MAX_CLAIMS_PAGE = 100;

/** The history request: page size and the cursor of the previous page. */
export const claimsHistoryQuery = z.object({
  limit: z.int().min(1).max(MAX_CLAIMS_PAGE).default(20).describe(`Claims per page, 1–${MAX_CLAIMS_PAGE} (default 20)`),
  after: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page'),
});

/** A page of the caller's claims, newest first. */
export const questClaimPage = z.object({
  claims: z.array(questClaimRecord),
  nextCursor: z.string().nullable().describe('Pass as `after` for the next (older) page; null on the last page'),
});
export type QuestClaimPage = z.infer<typeof questClaimPage>;
