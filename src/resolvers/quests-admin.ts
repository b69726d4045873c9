import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { operatorActor } from '../edge/authorize';
import type { Services } from '../services';
import {
  EVALUATORS_TEXT,
  TIME_PERIODS_TEXT,
  questLifecycle,
  questMode,
  valuesText,
  type AdminCampaignView,
  type AdminQuestView,
  type EvaluatorKind,
  type QuestLifecycle,
  type QuestMode,
  type TimePeriod,
} from '../services/quests';

// The GraphQL side of /api/admin/campaigns: the same service calls, so the same refusals and audit rows.
// Enum-valued fields are String, as on the public quest types; the service judges every input.

@ObjectType({ description: `What a quest counts: an evaluator kind of the registry and its parameters. ${EVALUATORS_TEXT}` })
class QuestEvaluatorSpec {
  @Field(() => String) kind!: EvaluatorKind;
  @Field(() => String, { nullable: true, description: 'Coin filter (a Move type), for the kinds that take one' }) coinType?: string;
}

@ObjectType({ description: 'A quest as operators see and edit it', simpleResolvers: true })
class AdminQuest implements AdminQuestView {
  @Field(() => String) key!: string;
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
  @Field(() => Int) xpReward!: number;
  @Field(() => String, { description: TIME_PERIODS_TEXT }) timePeriod!: TimePeriod;
  @Field(() => [String], { description: `Status modes: ${valuesText(questMode)}` }) modes!: QuestMode[];
  @Field(() => QuestEvaluatorSpec) evaluator!: QuestEvaluatorSpec;
  @Field(() => String, { description: 'Progress needed, decimal string' }) target!: string;
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => String, { nullable: true, description: "ISO 8601; null: the campaign's start" }) startAt!: string | null;
  @Field(() => String, { nullable: true, description: "ISO 8601, exclusive; null: the campaign's end" }) endAt!: string | null;
  @Field(() => Boolean) performanceDaily!: boolean;
  @Field(() => String, { description: valuesText(questLifecycle) }) lifecycle!: QuestLifecycle;
  @Field(() => Boolean, { description: 'Claimed at least once: its evaluator and period can no longer change' }) hasClaims!: boolean;
  @Field(() => Int, { description: 'Send it back with the next edit' }) version!: number;
  @Field(() => String, { description: 'ISO 8601' }) updatedAt!: string;
}

@ObjectType({ description: 'A campaign as operators see and edit it, with its quests', simpleResolvers: true })
class AdminCampaign implements AdminCampaignView {
  @Field(() => String) slug!: string;
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) copyText!: string | null;
  @Field(() => String, { description: 'ISO 8601' }) startAt!: string;
  @Field(() => String, { description: 'ISO 8601, exclusive' }) endAt!: string;
  @Field(() => Boolean) managesClaims!: boolean;
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => String, { description: valuesText(questLifecycle) }) lifecycle!: QuestLifecycle;
  @Field(() => Int, { description: 'Send it back with the next edit' }) version!: number;
  @Field(() => String, { description: 'ISO 8601' }) updatedAt!: string;
  @Field(() => [AdminQuest]) quests!: AdminQuest[];
}

@InputType({ description: 'An evaluator kind and its parameters' })
class QuestEvaluatorInput {
  @Field(() => String, { description: `One of: ${EVALUATORS_TEXT}` }) kind!: string;
  @Field(() => String, { nullable: true }) coinType?: string | null;
}

@InputType({ description: 'A new campaign; its quests are added one by one after it' })
class CampaignCreateInput {
  @Field(() => String, { description: 'Identity in URLs and claims; cannot change' }) slug!: string;
  @Field(() => String) type!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) copyText?: string | null;
  @Field(() => String, { description: 'ISO 8601' }) startAt!: string;
  @Field(() => String, { description: 'ISO 8601, exclusive' }) endAt!: string;
  @Field(() => Boolean, { nullable: true, description: 'Default false' }) managesClaims?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true' }) enabled?: boolean | null;
}

@InputType({ description: 'An edit of a campaign: the fields to change and the version it is based on' })
class CampaignUpdateInput {
  @Field(() => Int, { description: 'The version this edit is based on (VERSION_CONFLICT when stale)' }) version!: number;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) copyText?: string | null;
  @Field(() => String, { nullable: true }) startAt?: string | null;
  @Field(() => String, { nullable: true }) endAt?: string | null;
  @Field(() => Boolean, { nullable: true }) managesClaims?: boolean | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

@InputType({ description: 'A new quest of a campaign' })
class QuestCreateInput {
  @Field(() => String, { nullable: true, description: 'Identity in URLs, progress and claims; cannot change. Default: from the title' }) key?: string | null;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Int) xpReward!: number;
  @Field(() => String, { description: TIME_PERIODS_TEXT }) timePeriod!: string;
  @Field(() => [String], { nullable: true, description: `Default: ${questMode.options.join(', ')}` }) modes?: string[] | null;
  @Field(() => QuestEvaluatorInput) evaluator!: QuestEvaluatorInput;
  @Field(() => String, { description: 'Progress needed, a positive integer as a decimal string' }) target!: string;
  @Field(() => Boolean, { nullable: true, description: 'Default true' }) enabled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) startAt?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601, exclusive' }) endAt?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Default false' }) performanceDaily?: boolean | null;
}

@InputType({ description: 'An edit of a quest: the fields to change and the version it is based on' })
class QuestUpdateInput {
  @Field(() => Int, { description: 'The version this edit is based on (VERSION_CONFLICT when stale)' }) version!: number;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Int, { nullable: true }) xpReward?: number | null;
  @Field(() => String, { nullable: true }) timePeriod?: string | null;
  @Field(() => [String], { nullable: true }) modes?: string[] | null;
  @Field(() => QuestEvaluatorInput, { nullable: true }) evaluator?: QuestEvaluatorInput | null;
  @Field(() => String, { nullable: true }) target?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => String, { nullable: true, description: "ISO 8601; null: the campaign's start" }) startAt?: string | null;
  @Field(() => String, { nullable: true, description: "ISO 8601, exclusive; null: the campaign's end" }) endAt?: string | null;
  @Field(() => Boolean, { nullable: true }) performanceDaily?: boolean | null;
}

/** GraphQL input objects as plain JSON: absent fields left out (an explicit null stays null), as a REST body would carry them. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, plain(v)]));
}

/** Campaigns and quests as data (operator only): the GraphQL side of /api/admin/campaigns. */
@Resolver()
export class QuestsAdminResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Query(() => [AdminCampaign], { description: 'Every campaign with its quests as stored: versions, evaluators, whether claimed (operator only)' })
  adminCampaigns(): Promise<AdminCampaign[]> {
    return this.services.quests.admin.list();
  }

  @Authorized('operator')
  @Mutation(() => AdminCampaign, { description: 'Create a campaign (operator only; audited); every replica shows it within seconds' })
  createCampaign(@Ctx() ctx: GraphqlContext, @Arg('input', () => CampaignCreateInput) input: CampaignCreateInput): Promise<AdminCampaign> {
    return this.services.quests.admin.createCampaign(operatorActor(ctx), plain(input), ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => AdminCampaign, { description: 'Edit, schedule or switch a campaign on or off, based on its version (operator only; audited; VERSION_CONFLICT when stale)' })
  updateCampaign(@Ctx() ctx: GraphqlContext, @Arg('slug', () => String) slug: string, @Arg('input', () => CampaignUpdateInput) input: CampaignUpdateInput): Promise<AdminCampaign> {
    return this.services.quests.admin.updateCampaign(operatorActor(ctx), slug, plain(input), ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => AdminQuest, { description: 'Add a quest to a campaign (operator only; audited)' })
  createCampaignQuest(
    @Ctx() ctx: GraphqlContext,
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('input', () => QuestCreateInput) input: QuestCreateInput,
  ): Promise<AdminQuest> {
    return this.services.quests.admin.createQuest(operatorActor(ctx), campaignSlug, plain(input), ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => AdminQuest, { description: 'Edit, schedule or switch a quest on or off, based on its version (operator only; audited; VERSION_CONFLICT when stale)' })
  updateCampaignQuest(
    @Ctx() ctx: GraphqlContext,
    @Arg('campaignSlug', () => String) campaignSlug: string,
    @Arg('questKey', () => String) questKey: string,
    @Arg('input', () => QuestUpdateInput) input: QuestUpdateInput,
  ): Promise<AdminQuest> {
    return this.services.quests.admin.updateQuest(operatorActor(ctx), campaignSlug, questKey, plain(input), ctx.requestId);
  }
}
