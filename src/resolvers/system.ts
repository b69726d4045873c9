import { Field, Float, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Broadcast } from '../graphql/broadcast';
import { GraphQLISODateTime } from 'type-graphql';
import { activityChannel, type ActivityMessage } from '../services/activity';
import type { Services } from '../services';

@ObjectType({ description: 'Liveness of the API process' })
class ServerStatus {
  @Field(() => String) status!: string;
  @Field(() => String) network!: string;
  @Field(() => String) version!: string;
  @Field(() => Float) uptimeSeconds!: number;
}

@ObjectType({ description: 'A game activity item broadcast to subscribers' })
class Activity {
  @Field(() => String) kind!: string;
  @Field(() => String) player!: string;
  @Field(() => String) summary!: string;
  @Field(() => GraphQLISODateTime) at!: Date;
}

@Resolver()
export class SystemResolver {
  constructor(private readonly services: Services) {}

  @Query(() => ServerStatus, { description: 'Liveness only: no database or chain checks' })
  serverStatus(): ServerStatus {
    return this.services.system.info();
  }

  @Broadcast()
  @Subscription(() => Activity, { topics: activityChannel.name, description: 'Game activity feed, from every replica' })
  activity(@Root() event: ActivityMessage): Activity {
    return { ...event, at: new Date(event.at) };
  }
}
