import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import { BOARDS, type Board } from '../services/leaderboards';

/** XP, BET, WEEKLY_BET, REFERRAL: the registry's boards (src/chain-events/leaderboards.ts) in upper case. */
const LeaderboardBoard = Object.fromEntries(BOARDS.map((b) => [b.toUpperCase(), b])) as { [B in Board as Uppercase<B>]: B };
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
    @Arg('board', () => LeaderboardBoard) board: Board,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('coinType', () => String, { nullable: true }) coinType: string | undefined,
    @Arg('week', () => String, { nullable: true, description: 'YYYY-MM-DD inside the UTC week (weekly board)' }) week: string | undefined,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LeaderboardEntry[]> {
    return this.services.leaderboards.top({ board, limit, coinType: coinType ?? undefined, week: week ?? undefined }, { signal: ctx.signal });
  }

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
}
