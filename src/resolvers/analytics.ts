import { Arg, Ctx, Field, FieldResolver, Float, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import { loadersOf } from './loaders';
import { PlayerProfile } from './users';
import type { BetActivity as BetActivityView, BetPage as BetPageView, LiveActives as LiveActivesView } from '../services/analytics';

@ObjectType({ description: "The analytics property's realtime active users (cached 30 s)" })
class LiveActives implements LiveActivesView {
  @Field(() => Int, { description: 'Users active in the last 30 minutes' }) activeUsers!: number;
  @Field(() => String, { description: 'ISO 8601: when the analytics service was asked' }) fetchedAt!: string;
  @Field(() => Int) ageSeconds!: number;
}

@ObjectType({ description: 'One indexed bet (bet_result_event)', simpleResolvers: true })
export class BetActivity implements BetActivityView {
  @Field(() => String, { description: "This row's position: pass it as `cursor` for the rows after it" }) cursor!: string;
  @Field(() => String) txDigest!: string;
  @Field(() => Int) eventSeq!: number;
  @Field(() => String, { description: "ISO 8601, the checkpoint's time" }) timestamp!: string;
  @Field(() => String) player!: string;
  @Field(() => String) gameId!: string;
  @Field(() => String) coinType!: string;
  @Field(() => String, { description: 'u64 base units as a decimal string' }) stake!: string;
  @Field(() => String, { description: 'u64 base units as a decimal string' }) payout!: string;
  @Field(() => Boolean) won!: boolean;
}

@ObjectType({ description: 'A page of an activity feed, newest first', simpleResolvers: true })
class BetPage implements BetPageView {
  @Field(() => [BetActivity]) items!: BetActivity[];
  @Field(() => String, { nullable: true, description: 'null on the last page' }) nextCursor!: string | null;
}

/** Drops absent arguments so the service's defaults apply (GraphQL null = not given). */
const given = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));

/** Live actives and the activity feeds; the operator cache routes are REST-only (their token is not an access token). */
@Resolver()
export class AnalyticsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => LiveActives, { description: 'Users active in the last 30 minutes (SERVICE_UNAVAILABLE without an analytics property)' })
  liveActives(@Ctx() ctx: GraphqlContext): Promise<LiveActives> {
    return this.services.analytics.liveActives({ signal: ctx.signal });
  }

  @Query(() => BetPage, { description: 'Newest indexed bets first (limit 1–100, default 20)' })
  recentBets(
    @Arg('limit', () => Int, { nullable: true }) limit: number | undefined,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | undefined,
    @Arg('player', () => String, { nullable: true }) player: string | undefined,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<BetPage> {
    return this.services.analytics.recentBets(given({ limit, cursor, player, coinType }), { signal: ctx.signal });
  }

  @Query(() => BetPage, { description: 'Newest won bets paying at least minMultiplier × stake (default 2)' })
  bigWins(
    @Arg('limit', () => Int, { nullable: true }) limit: number | undefined,
    @Arg('cursor', () => String, { nullable: true }) cursor: string | undefined,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('minMultiplier', () => Float, { nullable: true }) minMultiplier: number | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<BetPage> {
    return this.services.analytics.bigWins(given({ limit, cursor, coinType, minMultiplier }), { signal: ctx.signal });
  }
}

/** A bet's player profile, batched per operation (resolvers/loaders.ts). */
@Resolver(() => BetActivity)
export class BetActivityResolver {
  @FieldResolver(() => PlayerProfile, { nullable: true, description: "The player's public profile; null without one" })
  profile(@Root() bet: BetActivity, @Ctx() ctx: GraphqlContext): Promise<PlayerProfile | null> {
    return loadersOf(ctx).profile.load(bet.player);
  }
}
