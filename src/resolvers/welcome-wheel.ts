import { Ctx, Field, Float, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { walletOf } from '../edge/authorize';
import type { Services } from '../services';
import type { WheelSpin } from '../services/welcome-wheel';

@ObjectType()
class WelcomeWheelSegment {
  @Field(() => Int, { description: 'Whole reward units as paid (capped at maxReward)' }) reward!: number;
  @Field(() => Float) chancePercent!: number;
}

@ObjectType()
class WelcomeWheelTable {
  @Field(() => Int) maxReward!: number;
  @Field(() => [WelcomeWheelSegment]) segments!: WelcomeWheelSegment[];
}

@ObjectType()
class WelcomeWheelPayout {
  @Field(() => String, {
    description: 'pending (not sent yet, or waiting for its next attempt) → submitted → confirmed (txDigest) | failed; cancelled by an operator. paid is no longer answered.',
  })
  status!: WheelSpin['payout']['status'];
  @Field(() => String, { nullable: true, description: 'The payout transaction, once it executed' }) txDigest!: string | null;
  @Field(() => Int, { description: 'Attempts so far (transient failures are retried automatically)' }) attempts!: number;
  @Field(() => String, { nullable: true, description: 'ISO 8601: when a payout waiting after a transient failure is tried again' }) nextAttemptAt!: string | null;
}

@ObjectType({ description: "A wallet's one welcome-wheel spin" })
class WelcomeWheelSpin implements WheelSpin {
  @Field(() => String) wallet!: string;
  @Field(() => Int, { description: 'Index into welcomeWheel.segments' }) segment!: number;
  @Field(() => Int) reward!: number;
  @Field(() => WelcomeWheelPayout) payout!: WelcomeWheelPayout;
  @Field(() => String, { description: 'ISO 8601' }) spunAt!: string;
}

@Resolver()
export class WelcomeWheelResolver {
  constructor(private readonly services: Services) {}

  @Query(() => WelcomeWheelTable, { description: 'The reward table and the cap' })
  welcomeWheel(): WelcomeWheelTable {
    return this.services.welcomeWheel.table();
  }

  @Authorized('wallet')
  @Query(() => WelcomeWheelSpin, { nullable: true, description: "The caller's spin, null before it spun (needs the access token)" })
  myWelcomeWheelSpin(@Ctx() ctx: GraphqlContext): Promise<WelcomeWheelSpin | null> {
    return this.services.welcomeWheel.spinOf(walletOf(ctx));
  }

  @Authorized('wallet')
  @Mutation(() => WelcomeWheelSpin, { description: "Spin once per wallet; later calls return the first spin's result" })
  spinWelcomeWheel(@Ctx() ctx: GraphqlContext): Promise<WelcomeWheelSpin> {
    return this.services.welcomeWheel.spin(walletOf(ctx));
  }
}
