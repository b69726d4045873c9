import { Arg, Ctx, Directive, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { cacheControl } from '../graphql/cache-policy';
import { CACHE_HINTS } from '../graphql/response-cache';
import type { Services } from '../services';
import { leaderboardBoard, type Board } from '../services/leaderboards';
import { BetActivity } from './analytics';
import { loadersOf } from './loaders';
import { modelEnum } from './model-enum';
import { PlayerProfile } from './users';

/** XP, BET, WEEKLY_BET, REFERRAL: the registry's boards (src/chain-events/leaderboards.ts) in upper case. */
const LeaderboardBoard = modelEnum(leaderboardBoard, { name: 'LeaderboardBoard', description: 'Which indexer-fed leaderboard to read' });

@ObjectType({ simpleResolvers: true })
class LeaderboardEntry {
  @Field(() => Int) rank!: number;
  @Field(() => String, { description: 'Player address (the referrer on the referral board)' }) player!: string;
  @Field(() => String, { description: 'u64 base units as a decimal string' }) score!: string;
  @Field(() => Int, { nullable: true, description: 'Bets or referrals counted; null for XP' }) count!: number | null;
  @Field(() => String, { nullable: true }) coinType!: string | null;
  @Field(() => Int, { nullable: true }) vipLevel!: number | null;
  @Field(() => String, { description: 'Pass as `after` for the entries that follow this one' }) cursor!: string;
}

@Resolver()
export class LeaderboardsResolver {
  constructor(private readonly services: Services) {}

  @Directive(cacheControl(CACHE_HINTS.leaderboards))
  @Query(() => [LeaderboardEntry], { description: 'Top entries of a leaderboard (limit 1–100)' })
  leaderboard(
    @Arg('board', () => LeaderboardBoard) board: Board,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true, description: 'YYYY-MM-DD inside the UTC week (weekly board)' }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
    @Arg('after', () => String, { nullable: true, description: 'The `cursor` of the last entry read: the page starts after it' }) after?: string | null,
  ): Promise<LeaderboardEntry[]> {
    return this.services.leaderboards.top({ board, limit, coinType: coinType ?? undefined, week: week ?? undefined, after: after ?? undefined }, { signal: ctx.signal });
  }

  @Directive(cacheControl(CACHE_HINTS.leaderboards))
  @Query(() => LeaderboardEntry, { nullable: true, description: "A player's rank on a leaderboard" })
  leaderboardRank(
    @Arg('board', () => LeaderboardBoard) board: Board,
    @Arg('player', () => String) player: string,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LeaderboardEntry | null> {
    return this.services.leaderboards.rankOf({ board, player, coinType: coinType ?? undefined, week: week ?? undefined }, { signal: ctx.signal });
  }

  @Directive(cacheControl(CACHE_HINTS.leaderboards))
  @Query(() => [LeaderboardEntry], { description: "A player's entry with up to `count` entries above and below it (empty when not on the board)" })
  leaderboardNeighbours(
    @Arg('board', () => LeaderboardBoard) board: Board,
    @Arg('player', () => String) player: string,
    @Arg('count', () => Int, { defaultValue: 5, description: '0–50 on each side' }) count: number,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LeaderboardEntry[]> {
    return this.services.leaderboards.neighbours({ board, player, count, coinType: coinType ?? undefined, week: week ?? undefined }, { signal: ctx.signal });
  }
}

/** Per-row details of a leaderboard, each level batched per operation (resolvers/loaders.ts). */
@Resolver(() => LeaderboardEntry)
export class LeaderboardEntryResolver {
  @Directive(cacheControl(CACHE_HINTS.leaderboards))
  @FieldResolver(() => [BetActivity], { description: "The player's newest bets (limit 1–100), all coins" })
  recentBets(@Root() entry: LeaderboardEntry, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: GraphqlContext): Promise<BetActivity[]> {
    return loadersOf(ctx).recentBets(limit).load(entry.player);
  }

  @FieldResolver(() => PlayerProfile, { nullable: true, description: "The player's public profile; null without one" })
  profile(@Root() entry: LeaderboardEntry, @Ctx() ctx: GraphqlContext): Promise<PlayerProfile | null> {
    return loadersOf(ctx).profile.load(entry.player);
  }
}
