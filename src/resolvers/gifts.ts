import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import type { GiftDelivery as GiftDeliveryView, GiftRemaining as GiftRemainingView } from '../services/gifts';

@ObjectType()
class GiftDelivery {
  @Field(() => String) project!: string;
  @Field(() => String) url!: string;
  @Field(() => String) deliveredAt!: string;
}

@ObjectType()
class GiftCounter {
  @Field(() => Int) limit!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => Int) remaining!: number;
}

@ObjectType()
class GiftWindow {
  @Field(() => String) startsAt!: string;
  @Field(() => String) endsAt!: string;
}

@ObjectType()
class GiftRemaining {
  @Field(() => String) project!: string;
  @Field(() => GiftWindow, { nullable: true, description: 'The delivery window open now' }) window!: GiftWindow | null;
  @Field(() => GiftCounter) projectQuota!: GiftCounter;
  @Field(() => GiftCounter, { description: "The calling IP's quota for this project" }) ipQuota!: GiftCounter;
}

const clientOf = (ctx: GraphqlContext) => ({ ip: ctx.ip, wallet: ctx.auth?.wallet ?? null });

@Resolver()
export class GiftsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => GiftRemaining, { description: "Today's remaining gifts of the project and of the calling IP" })
  giftRemaining(@Arg('project', () => String) project: string, @Ctx() ctx: GraphqlContext): Promise<GiftRemainingView> {
    return this.services.gifts.remaining({ project }, clientOf(ctx));
  }

  @Mutation(() => GiftDelivery, { description: 'One gift URL of the project (same rules and codes as GET /api/gift/get)' })
  claimGift(@Arg('project', () => String) project: string, @Ctx() ctx: GraphqlContext): Promise<GiftDeliveryView> {
    return this.services.gifts.claim({ project }, clientOf(ctx));
  }
}
