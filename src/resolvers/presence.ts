import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Broadcast } from '../graphql/broadcast';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import type { PresenceView } from '../services/chat';
import { roomSubscription } from './chat';

@ObjectType({ description: 'Distinct users (a wallet, or an anonymous connection) present, across every replica' })
class Presence {
  @Field(() => String) room!: string;
  @Field(() => Int, { description: 'Users in the room' }) online!: number;
  @Field(() => Int, { description: 'Users connected to the gateway' }) total!: number;
}

@Resolver()
export class PresenceResolver {
  constructor(private readonly services: Services) {}

  @Query(() => Presence, { description: 'Presence in a room and in total (cached for a fraction of a second)' })
  presence(@Arg('room', () => String) room: string, @Ctx() _ctx: GraphqlContext): Promise<PresenceView> {
    return this.services.presence.counts(this.services.chat.room({ room }));
  }

  @Broadcast()
  @Subscription(() => Presence, {
    name: 'presence',
    subscribe: roomSubscription('presence', true),
    description: "A room's presence whenever it changes; the connection counts as present in the room meanwhile",
  })
  presenceChanges(@Root() event: { presence: PresenceView }, @Arg('room', () => String) _room: string): Presence {
    return event.presence;
  }
}
