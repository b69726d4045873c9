import { Arg, Ctx, Directive, Field, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../services/cache-hints';
import { graphqlTypeOf } from '../graphql/zod-types';
import type { Services } from '../services';
import {
  DEFAULT_QUEST_MODE,
  campaignView,
  questClaimPage,
  questClaimResult,
  questMode,
  questStatus,
  valuesText,
  type CampaignView,
  type QuestClaimPage,
  type QuestClaimResult,
  type QuestStatus,
} from '../services/quests';

// The answers' GraphQL types are built from the domain's models (src/graphql/zod-types.ts).
const campaignsType = graphqlTypeOf(z.array(campaignView), 'output');
const statusType = graphqlTypeOf(questStatus, 'output');
const statusesType = graphqlTypeOf(z.array(questStatus), 'output');
const claimType = graphqlTypeOf(questClaimResult, 'output');
const claimPageType = graphqlTypeOf(questClaimPage, 'output');

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

  @Query(campaignsType.type, { nullable: campaignsType.nullable, description: 'Campaigns and their quests' })
  @Directive(cacheControl(CACHE_HINTS.questCatalogue))
  questCampaigns(@Ctx() ctx: GraphqlContext): Promise<CampaignView[]> {
    return this.services.quests.list({ signal: ctx.signal });
  }

  @Query(statusesType.type, { nullable: statusesType.nullable, description: "Every quest's status for a player (default: the caller)" })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questStatuses(@Arg('player', () => String, { nullable: true }) player: string | null, @Ctx() ctx: GraphqlContext): Promise<QuestStatus[]> {
    return this.services.quests.defaultStatus({ player: orUndefined(player) }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Query(statusType.type, { nullable: statusType.nullable, description: `Status of one quest (mode: ${valuesText(questMode)})` })
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

  @Query(statusesType.type, { nullable: statusesType.nullable, description: 'Statuses for up to 50 checks of one campaign' })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questBatchStatus(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('checks', () => [QuestCheckInput]) checks: QuestCheckInput[],
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestStatus[]> {
    const plain = checks.map((c) => ({ questKey: c.questKey, mode: orUndefined(c.mode), player: orUndefined(c.player) }));
    return this.services.quests.statusBatch({ campaignSlug, checks: plain }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Query(statusType.type, { nullable: statusType.nullable, description: "Status of the campaign's daily performance quest" })
  @Directive(cacheControl(CACHE_HINTS.questStatus))
  questPerformanceDailyStatus(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('player', () => String, { nullable: true }) player: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestStatus> {
    return this.services.quests.performanceDaily({ campaignSlug, player: orUndefined(player) }, ctx.auth?.wallet ?? null, { signal: ctx.signal });
  }

  @Authorized('wallet')
  @Query(claimPageType.type, { nullable: claimPageType.nullable, description: "The caller's own claims, newest first, keyset-paged (access token required)" })
  myQuestClaims(
    @Arg('limit', () => Int, { nullable: true, description: '1–100, default 20' }) limit: number | null,
    @Arg('after', () => String, { nullable: true, description: '`nextCursor` of the previous page' }) after: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestClaimPage> {
    return this.services.quests.claimsHistory(walletOf(ctx), { limit: orUndefined(limit), after: orUndefined(after) }, { signal: ctx.signal });
  }

  @Authorized('wallet')
  @Mutation(claimType.type, { nullable: claimType.nullable, description: "Claim a completed quest for the caller's wallet (access token required); credits its XP once" })
  claimQuest(
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('questKey', () => String) questKey: string,
    @Arg('periodStart', () => String, { nullable: true, description: 'ISO 8601 start of the period; default the current one' }) periodStart: string | null,
    @Arg('txHash', () => String, { nullable: true }) txHash: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<QuestClaimResult> {
    return this.services.quests.claim(walletOf(ctx), { campaignSlug, questKey, periodStart: orUndefined(periodStart), txHash: orUndefined(txHash) });
  }
}
