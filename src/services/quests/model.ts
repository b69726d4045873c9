import { z } from 'zod';
import { EVALUATORS_TEXT, evaluatorKind, questEvaluator } from './evaluators';
import { cacheHinted, named } from '../model-names';
import { TIME_PERIODS_TEXT, timePeriod } from './periods';

/**
 * The quest domain's one model: the TypeScript types, the REST JSON schemas (so the OpenAPI
 * document) and the GraphQL descriptions all come from these declarations.
 */

export { TIME_PERIODS_TEXT, timePeriod, type TimePeriod } from './periods';

/**
 * How a status is computed. `indexed`: from `quest_progress`, kept current by the domain's hook
 * subscribers (one indexed lookup). `live`: recomputed from the sources at request time (for
 * diagnosis: when the two disagree, the upkeep is behind).
 */
export const questMode = named('QuestMode', z.enum(['indexed', 'live']));
export type QuestMode = z.infer<typeof questMode>;
/** The mode of a status request that names none. */
export const DEFAULT_QUEST_MODE: QuestMode = 'indexed';

export const questLifecycle = named(
  'QuestLifecycle',
  z.enum(['active', 'upcoming', 'expired', 'inactive']).describe('A state now: active, upcoming (before its start), expired (from its end), inactive (switched off by an operator)'),
);
export type QuestLifecycle = z.infer<typeof questLifecycle>;

/** Why a quest cannot be claimed now: its lifecycle when not active (in the order they are checked), else these. */
export const notClaimableReason = named('QuestNotClaimableReason', z.enum([...questLifecycle.extract(['inactive', 'upcoming', 'expired']).options, 'claimed', 'incomplete', 'managed_by_partner']));
export type NotClaimableReason = z.infer<typeof notClaimableReason>;

/** `a | b (default) | c`: an enum's values as the GraphQL descriptions of String inputs list them. */
export const valuesText = (e: { options: readonly string[] }, defaultValue?: string): string => e.options.map((v) => (v === defaultValue ? `${v} (default)` : v)).join(' | ');

const iso = z.iso.datetime();
const decimal = z.string().regex(/^\d+$/);

export const questView = named(
  'Quest',
  z
    .object({
      key: z.string(),
      title: z.string(),
      description: z.string(),
      xpReward: z.int(),
      timePeriod: timePeriod.describe(TIME_PERIODS_TEXT),
      modes: z.array(questMode).describe('Status modes the quest answers'),
      target: decimal.describe('Progress needed (a count, base units or a level), decimal string'),
      lifecycle: questLifecycle,
      performanceDaily: z.boolean(),
      /** The quest's window inside its campaign. */
      startAt: iso.describe('ISO 8601'),
      endAt: iso.describe('ISO 8601, exclusive'),
      /** The period running now. */
      periodStart: iso.describe('ISO 8601'),
      periodEnd: iso.describe('ISO 8601, exclusive'),
    })
    .describe('A quest of a campaign, with its lifecycle and the period running now'),
);
export type QuestView = z.infer<typeof questView>;

/**
 * A campaign's own fields as every reader sees them (the public catalogue and the operators'
 * view); each is a column of `campaign` of the same name, and a new one is a line here and in
 * `campaignFields` (what operators may send) below: the stores, views, GraphQL types, OpenAPI
 * document and console form follow.
 */
const campaignRecord = {
  slug: z.string(),
  type: z.string(),
  name: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  copyText: z.string().nullable(),
  startAt: iso.describe('ISO 8601'),
  endAt: iso.describe('ISO 8601, exclusive'),
  managesClaims: z.boolean().describe('true: statuses only; claims are made with the partner (FORBIDDEN here)'),
  enabled: z.boolean().describe('false: switched off by an operator; every quest of it is `inactive`'),
};
/** The names of a campaign's own fields (the columns every view reads). */
export const CAMPAIGN_RECORD_KEYS = Object.keys(campaignRecord) as Array<keyof typeof campaignRecord>;

export const campaignView = named(
  'QuestCampaign',
  z
    .object({
      ...campaignRecord,
      // The catalogue's hint on the list too: an unhinted list of objects would make the answer uncacheable.
      quests: cacheHinted('questCatalogue', z.array(questView)),
    })
    .describe('A campaign (partner metadata) and its quests'),
);
export type CampaignView = z.infer<typeof campaignView>;

export const questStatus = named(
  'QuestStatus',
  z.object({
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
}).describe("A player's status of one quest in the current period"),
);
export type QuestStatus = z.infer<typeof questStatus>;

export const questClaimResult = named(
  'QuestClaim',
  z.object({
  campaignSlug: z.string(),
  questKey: z.string(),
  player: z.string(),
  timePeriod,
  periodStart: iso.describe('ISO 8601'),
  xpReward: z.int(),
  txHash: z.string().nullable(),
  claimedAt: iso.describe('ISO 8601'),
  totalXp: decimal.describe("The player's XP leaderboard total after the claim"),
}).describe('A recorded claim'),
);
export type QuestClaimResult = z.infer<typeof questClaimResult>;

/** One claim of a player's history (the claim as recorded, without the board total of that moment). */
export const questClaimRecord = named('QuestClaimRecord', questClaimResult.omit({ totalXp: true }).describe("A claim of the caller's history"));
export type QuestClaimRecord = z.infer<typeof questClaimRecord>;

/** Most claims one history page holds. */
export const MAX_CLAIMS_PAGE = 100;

/** The history request: page size and the cursor of the previous page. */
export const claimsHistoryQuery = z.object({
  limit: z.int().min(1).max(MAX_CLAIMS_PAGE).default(20).describe(`Claims per page, 1–${MAX_CLAIMS_PAGE} (default 20)`),
  after: z.string().min(1).max(200).optional().describe('`nextCursor` of the previous page'),
});

/** A page of the caller's claims, newest first. */
export const questClaimPage = named(
  'QuestClaimPage',
  z
    .object({
      claims: z.array(questClaimRecord),
      nextCursor: z.string().nullable().describe('Pass as `after` for the next (older) page; null on the last page'),
    })
    .describe("A page of the caller's claims, newest first"),
);
export type QuestClaimPage = z.infer<typeof questClaimPage>;

// ───────────── operators: campaigns and quests as data (/api/admin/campaigns) ─────────────

/** Campaign slugs: what the URLs and claims name a campaign by. */
export const campaignSlug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1–64 lowercase letters, digits, dashes or underscores');
/** Quest keys: lowercase letters, digits and dashes (so never `performance_daily`). */
export const questKey = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1–64 lowercase letters, digits or dashes, starting with a letter or digit');
/** The version an edit was based on (the `version` of the row as last read). */
const version = z.int().min(1).describe('The `version` of the row this edit is based on; a stale one is 409 VERSION_CONFLICT');
const instant = z.iso.datetime({ offset: true }).transform((v) => new Date(v));
const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().max(max).nullable();
/** Progress needed, as a decimal string or an integer (base units may exceed 2^53: send a string). */
const target = z
  .union([z.string().regex(/^[1-9]\d{0,39}$/, 'must be a positive integer (decimal string)'), z.int().min(1)])
  .transform((v) => BigInt(v))
  .describe('Progress needed: a count, base units of the coin (`wagered`) or a level; a positive integer, as a decimal string or a number');
const xpReward = z.int().min(1).max(1_000_000_000);
const modes = z
  .array(questMode)
  .min(1)
  .transform((m) => [...new Set(m)])
  .describe(`Status modes the quest answers: ${questMode.options.join(', ')}`);
const evaluator = questEvaluator.describe(`What the quest counts: \`kind\` and its parameters. ${EVALUATORS_TEXT}`);

const campaignFields = {
  type: text(64).describe('e.g. `platform`, `partner`'),
  name: optionalText(200),
  title: optionalText(200),
  description: optionalText(4000),
  copyText: optionalText(4000),
  startAt: instant.describe('ISO 8601; quests are active from here'),
  endAt: instant.describe('ISO 8601, exclusive; after the start'),
  managesClaims: z.boolean().describe('true: statuses only; claims are made with the partner'),
  enabled: z.boolean().describe('false: switched off; every quest of it is `inactive`'),
};

/** A shape whose fields that take null may also be left out (stored as null). */
const absentAsNull = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.safeParse(null).success ? v.optional() : v])) as {
    [K in keyof S]: null extends z.input<S[K]> ? z.ZodOptional<S[K]> : S[K];
  };

/** A new campaign (`POST /api/admin/campaigns`): its quests are added one by one after it. */
export const campaignCreateInput = z
  .object({
    slug: campaignSlug.describe('The campaign\'s identity in URLs and claims; cannot change'),
    ...absentAsNull(campaignFields),
    managesClaims: campaignFields.managesClaims.default(false),
    enabled: campaignFields.enabled.default(true),
  })
  .strict()
  .describe('A new campaign; its quests are added one by one after it');

/** An edit of a campaign (`PATCH /api/admin/campaigns/{slug}`): the fields to change and the version they were based on. */
export const campaignUpdateInput = z
  .object({ version, ...Object.fromEntries(Object.entries(campaignFields).map(([k, v]) => [k, v.optional()])) } as {
    version: typeof version;
  } & { [K in keyof typeof campaignFields]: z.ZodOptional<(typeof campaignFields)[K]> })
  .strict()
  .describe('An edit of a campaign: the fields to change and the version it is based on');

const questFields = {
  title: text(200),
  description: z.string().max(4000),
  xpReward,
  timePeriod,
  modes,
  evaluator,
  target,
  enabled: z.boolean().describe('false: listed `inactive`, never claimable'),
  startAt: instant.nullable().describe('Optional start inside the campaign (ISO 8601); null: the campaign\'s'),
  endAt: instant.nullable().describe('Optional exclusive end inside the campaign (ISO 8601); null: the campaign\'s'),
  performanceDaily: z.boolean().describe('The campaign\'s one daily performance quest (must be `daily`)'),
};

/** A new quest of a campaign (`POST /api/admin/campaigns/{slug}/quests`). */
export const questCreateInput = z
  .object({
    key: questKey.optional().describe('The quest\'s identity in URLs, progress and claims; cannot change. Default: the title in lowercase, runs of other characters as one dash'),
    ...questFields,
    description: questFields.description.default(''),
    modes: questFields.modes.default([...questMode.options]),
    enabled: questFields.enabled.default(true),
    startAt: questFields.startAt.optional(),
    endAt: questFields.endAt.optional(),
    performanceDaily: questFields.performanceDaily.default(false),
  })
  .strict()
  .describe('A new quest of a campaign');

/** An edit of a quest (`PATCH /api/admin/campaigns/{slug}/quests/{questKey}`): the fields to change and the version they were based on. */
export const questUpdateInput = z
  .object({ version, ...Object.fromEntries(Object.entries(questFields).map(([k, v]) => [k, v.optional()])) } as {
    version: typeof version;
  } & { [K in keyof typeof questFields]: z.ZodOptional<(typeof questFields)[K]> })
  .strict()
  .describe('An edit of a quest: the fields to change and the version it is based on');

/** A quest as operators see and edit it. */
export const adminQuestView = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  xpReward: z.int(),
  timePeriod,
  modes: z.array(questMode),
  evaluator: named('QuestEvaluatorSpec', z.object({ kind: evaluatorKind, coinType: z.string().optional().describe('Coin filter (a Move type), for the kinds that take one') }), {
    description: `What the quest counts. ${EVALUATORS_TEXT}`,
  }).describe(`What the quest counts. ${EVALUATORS_TEXT}`),
  target: decimal,
  enabled: z.boolean(),
  startAt: iso.nullable().describe('Its own start inside the campaign; null: the campaign\'s'),
  endAt: iso.nullable().describe('Its own exclusive end inside the campaign; null: the campaign\'s'),
  performanceDaily: z.boolean(),
  lifecycle: questLifecycle,
  hasClaims: z.boolean().describe('true: claimed at least once; its evaluator and period can no longer change'),
  version: z.int().describe('Send it back with the next edit'),
  updatedAt: iso,
}).describe('A quest as operators see and edit it');
export type AdminQuestView = z.infer<typeof adminQuestView>;

/** A campaign as operators see and edit it, with its quests. */
export const adminCampaignView = z.object({
  ...campaignRecord,
  lifecycle: questLifecycle.describe('The campaign\'s own state: inactive (switched off), upcoming, active or expired'),
  version: z.int().describe('Send it back with the next edit'),
  updatedAt: iso,
  quests: z.array(adminQuestView),
}).describe('A campaign as operators see and edit it, with its quests');
export type AdminCampaignView = z.infer<typeof adminCampaignView>;

// The GraphQL types these models become (src/graphql/zod-types.ts).
named('CampaignCreateInput', campaignCreateInput);
named('CampaignUpdateInput', campaignUpdateInput);
named('QuestCreateInput', questCreateInput);
named('QuestUpdateInput', questUpdateInput);
named('AdminQuest', adminQuestView);
named('AdminCampaign', adminCampaignView);
