import { Arg, Ctx, Directive, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../graphql/response-cache';
import type { Services } from '../services';
import {
  DEFAULT_QUEST_MODE,
  TIME_PERIODS_TEXT,
  notClaimableReason,
  questLifecycle,
  questMode,
  valuesText,
  type CampaignView,
  type NotClaimableReason,
  type QuestClaimPage as QuestClaimPageView,
  type QuestClaimRecord as QuestClaimRecordView,
  type QuestClaimResult,
  type QuestLifecycle,
  type QuestMode,
  type QuestStatus as QuestStatusView,
  type QuestView,
  type TimePeriod,
} from '../services/quests';

// The enum-valued fields stay String (an enum type would change the schema clients hold); the model lists their values.

@ObjectType({ description: 'A quest of a campaign, with its lifecycle and the period running now', simpleResolvers: true })
class Quest implements QuestView {
  @Field(() => String) key!: string;
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => Int) xpReward!: number;
  @Field(() => String, { description: TIME_PERIODS_TEXT }) timePeriod!: TimePeriod;
  @Field(() => [String], { description: `Status modes: ${valuesText(questMode)}` }) modes!: QuestMode[];
  @Field(() => String, { description: 'Progress needed, decimal string' }) target!: string;
  @Field(() => String, { description: valuesText(questLifecycle) }) lifecycle!: QuestLifecycle;
  @Field(() => Boolean) performanceDaily!: boolean;
  @Field(() => String, { description: 'ISO 8601' }) startAt!: string;
  @Field(() => String, { description: 'ISO 8601, exclusive' }) endAt!: string;
  @Field(() => String, { description: 'ISO 8601' }) periodStart!: string;
  @Field(() => String, { description: 'ISO 8601, exclusive' }) periodEnd!: string;
}

@ObjectType({ description: 'A campaign (partner metadata) and its quests', simpleResolvers: true })
class QuestCampaign implements CampaignView {
  @Field(() => String) slug!: string;
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) copyText!: string | null;
  @Field(() => String, { description: 'ISO 8601' }) startAt!: string;
  @Field(() => String, { description: 'ISO 8601, exclusive' }) endAt!: string;
  @Field(() => Boolean, { description: 'true: statuses only, claims are made with the partner' }) managesClaims!: boolean;
  @Field(() => Boolean, { description: 'false: switched off by an operator; every quest of it is inactive' }) enabled!: boolean;
  /** The catalogue's hint: an unhinted list of objects would make the answer uncacheable. */
  @Directive(cacheControl(CACHE_HINTS.questCatalogue))
  @Field(() => [Quest])
  quests!: Quest[];
}

@ObjectType({ description: "A player's status of one quest in the current period", simpleResolvers: true })
class QuestStatus implements QuestStatusView {
  @Field(() => String) campaignSlug!: string;
  @Field(() => String) questKey!: string;
  @Field(() => String) mode!: QuestMode;
  @Field(() => String) player!: string;
  @Field(() => String) timePeriod!: TimePeriod;
  @Field(() => String) periodStart!: string;
  @Field(() => String) periodEnd!: string;
  @Field(() => String) lifecycle!: QuestLifecycle;
  @Field(() => String, { description: 'Decimal string' }) progress!: string;
  @Field(() => String, { description: 'Decimal string' }) target!: string;
  @Field(() => Boolean) completed!: boolean;
  @Field(() => Boolean) claimed!: boolean;
  @Field(() => String, { nullable: true }) claimedAt!: string | null;
  @Field(() => Boolean) claimable!: boolean;
  @Field(() => String, { nullable: true, description: `${valuesText(notClaimableReason)}; null when claimable` })
  reason!: NotClaimableReason | null;
  @Field(() => Int) xpReward!: number;
}

@ObjectType({ description: 'A recorded claim' })
class QuestClaim implements QuestClaimResult {
  @Field(() => String) campaignSlug!: string;
  @Field(() => String) questKey!: string;
  @Field(() => String) player!: string;
  @Field(() => String) timePeriod!: TimePeriod;
  @Field(() => String) periodStart!: string;
  @Field(() => Int) xpReward!: number;
  @Field(() => String, { nullable: true }) txHash!: string | null;
  @Field(() => String) claimedAt!: string;
  @Field(() => String, { description: "The player's XP leaderboard total after the claim" }) totalXp!: string;
}

@ObjectType({ description: 'A claim of the caller\'s history', simpleResolvers: true })
class QuestClaimRecord implements QuestClaimRecordView {
  @Field(() => String) campaignSlug!: string;
  @Field(() => String) questKey!: string;
  @Field(() => String) player!: string;
  @Field(() => String) timePeriod!: TimePeriod;
  @Field(() => String, { description: 'ISO 8601' }) periodStart!: string;
  @Field(() => Int) xpReward!: number;
  @Field(() => String, { nullable: true }) txHash!: string | null;
  @Field(() => String, { description: 'ISO 8601' }) claimedAt!: string;
}

@ObjectType({ description: "A page of the caller's claims, newest first", simpleResolvers: true })
class QuestClaimPage implements QuestClaimPageView {
  @Field(() => [QuestClaimRecord]) claims!: QuestClaimRecord[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

@InputType({ description: 'One check of a batch status request' })
class QuestCheckInput {
  @Field(() => String) questKey!: string;
  @Field(() => String, { nullable: true, description: valuesText(questMode, DEFAULT_QUEST_MODE) }) mode?: string | null;
  @Field(() => String, { nullable: true, description: "Default: the access token's wallet" }) player?: string | null;
}

const orUndefined = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

@Resolver()
export class QuestsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => [QuestCampaign], { description: 'Campaigns and their quests' })
  @Directive(cacheControl(CACHE_HINTS.questCatalogue))
  questCampaigns(@Ctx() ctx: GraphqlContext): Promise<QuestCampaign[]> {
    return this.services.quests.list({ signal: ctx.signal });
  }

  @Query(() => [QuestStatus], { description: "Every quest's status for a player (default: the caller)" })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questStatuses(@Arg('player', () => String, { nullable: true }) player: string | null, @Ctx() ctx: GraphqlContext): Promise<QuestStatus[]> {
    return this.services.quests.defaultStatus({ player: orUndefined(player) }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Query(() => QuestStatus, { description: `Status of one quest (mode: ${valuesText(questMode)})` })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questStatus(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('questKey', () => String) questKey: string,
    @Arg('mode', () => String, { nullable: true }) mode: string | null,
    @Arg('player', () => String, { nullable: true }) player: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestStatus> {
    return this.services.quests.status({ campaignSlug, questKey, mode: orUndefined(mode), player: orUndefined(player) }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Query(() => [QuestStatus], { description: 'Statuses for up to 50 checks of one campaign' })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questBatchStatus(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('checks', () => [QuestCheckInput]) checks: QuestCheckInput[],
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestStatus[]> {
    const plain = checks.map((c) => ({ questKey: c.questKey, mode: orUndefined(c.mode), player: orUndefined(c.player) }));
    return this.services.quests.statusBatch({ campaignSlug, checks: plain }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Query(() => QuestStatus, { description: "Status of the campaign's daily performance quest" })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questPerformanceDailyStatus(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('player', () => String, { nullable: true }) player: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestStatus> {
    return this.services.quests.performanceDaily({ campaignSlug, player: orUndefined(player) }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Authorized('wallet')
  @Query(() => QuestClaimPage, { description: "The caller's own claims, newest first, keyset-paged (access token required)" })
  myQuestClaims(
    @Arg('limit', () => Int, { nullable: true, description: '1–100, default 20' }) limit: number | null,
    @Arg('after', () => String, { nullable: true, description: '`nextCursor` of the previous page' }) after: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestClaimPage> {
    return this.services.quests.claimsHistory(walletOf(ctx), { limit: orUndefined(limit), after: orUndefined(after) }, { signal: ctx.signal });
  }

  @Authorized('wallet')
  @Mutation(() => QuestClaim, { description: "Claim a completed quest for the caller's wallet (access token required); credits its XP once" })
  claimQuest(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('questKey', () => String) questKey: string,
    @Arg('periodStart', () => String, { nullable: true, description: 'ISO 8601 start of the period; default the current one' }) periodStart: string | null,
    @Arg('txHash', () => String, { nullable: true }) txHash: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestClaim> {
    return this.services.quests.claim(walletOf(ctx), { campaignSlug, questKey, periodStart: orUndefined(periodStart), txHash: orUndefined(txHash) });
  }
}
