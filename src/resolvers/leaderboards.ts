import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import type { Board } from '../services/leaderboards';

enum LeaderboardBoard {
  XP = 'xp',
  BET = 'bet',
  WEEKLY_BET = 'weekly_bet',
  REFERRAL = 'referral',
}
registerEnumType(LeaderboardBoard, { name: 'LeaderboardBoard', description: 'Which indexer-fed leaderboard to read' });

@ObjectType()
class LeaderboardEntry {
  @Field(() => Int) rank!: number;
  @Field(() => String, { description: 'Player address (the referrer on the referral board)' }) player!: string;
  @Field(() => String, { description: 'u64 base units as a decimal string' }) score!: string;
  @Field(() => Int, { nullable: true, description: 'Bets or referrals counted; null for XP' }) count!: number | null;
  @Field(() => String, { nullable: true }) coinType!: string | null;
  @Field(() => Int, { nullable: true }) vipLevel!: number | null;
}

@Resolver()
export class LeaderboardsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => [LeaderboardEntry], { description: 'Top entries of a leaderboard (limit 1–100)' })
  leaderboard(
    @Arg('board', () => LeaderboardBoard) board: LeaderboardBoard,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true, description: 'YYYY-MM-DD inside the UTC week (weekly board)' }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LeaderboardEntry[]> {
    return this.services.leaderboards.top({ board: board as Board, limit, coinType: coinType ?? undefined, week: week ?? undefined }, { signal: ctx.signal });
  }

  @Query(() => LeaderboardEntry, { nullable: true, description: "A player's rank on a leaderboard" })
  leaderboardRank(
    @Arg('board', () => LeaderboardBoard) board: LeaderboardBoard,
    @Arg('player', () => String) player: string,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LeaderboardEntry | null> {
    return this.services.leaderboards.rankOf({ board: board as Board, player, coinType: coinType ?? undefined, week: week ?? undefined }, { signal: ctx.signal });
  }
}
