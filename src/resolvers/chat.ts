import { Arg, Field, GraphQLISODateTime, ID, Int, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Broadcast } from '../graphql/broadcast';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import { graphqlTypeOf } from '../graphql/zod-types';
import { chatMessageModel, chatReactionModel, type ChatMessageView, type ChatReactionView, type ChatRemovalView, type RoomEvent, type TypingView } from '../services/chat';

/** The message type built from the chat domain's model (src/services/chat/model.ts), shared with sendChatMessage. */
const ChatMessage = graphqlTypeOf(chatMessageModel, 'output').type() as new () => ChatMessageView;

@ObjectType({ description: 'A message an operator removed: drop it from what you show (history no longer returns it)' })
export class ChatMessageRemoval {
  @Field(() => ID) id!: string;
  @Field(() => String) room!: string;
  @Field(() => GraphQLISODateTime) removedAt!: Date;
}

@ObjectType({ description: 'A page of chat history, newest first' })
class ChatMessagePage {
  @Field(() => [ChatMessage]) items!: ChatMessageView[];
  @Field(() => String, { nullable: true, description: 'Pass as `cursor` for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

const ChatReaction = graphqlTypeOf(chatReactionModel, 'output').type() as new () => ChatReactionView;

@ObjectType({ description: 'A user is typing in a room (debounced: at most one per user and room every few seconds)' })
class Typing {
  @Field(() => String) room!: string;
  @Field(() => String) user!: string;
  @Field(() => GraphQLISODateTime) at!: Date;
}



/**
 * A room's events of one kind for a graphql-ws subscription. Subscribing to a room's messages puts
 * the connection in that room's presence until the subscription ends.
 */
export function roomSubscription(type: RoomEvent['type'], joinsPresence: boolean) {
  return async ({ args, context }: { args: Record<string, unknown>; context: GraphqlContext }) => {
    const { chat, presence } = context.services;
    const room = chat.room({ room: args.room });
    const connId = joinsPresence ? context.connectionId : undefined;
    const stream = chat.stream(room, type, connId ? () => void presence.leave(connId, room).catch(() => undefined) : undefined);
    await stream.ready;
    if (connId) await presence.join(connId, room);
    return stream;
  };
}

/** Chat over GraphQL: history over any transport; sending, reacting and typing only over graphql-ws (WEBSOCKET_ONLY over HTTP). */
@Resolver()
export class ChatResolver {
  constructor(private readonly services: Services) {}

  @Query(() => ChatMessagePage, { description: 'History of a room, newest first, paged by cursor' })
  async chatHistory(
    @Arg('room', () => String) room: string,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
  ): Promise<ChatMessagePage> {
    const page = await this.services.chat.history({ room, ...(cursor != null ? { cursor } : {}), ...(limit != null ? { limit } : {}) });
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Broadcast()
  @Subscription(() => ChatMessage, { subscribe: roomSubscription('message', true), description: "A room's new messages; the connection counts as present in the room meanwhile" })
  chatMessages(@Root() event: { message: ChatMessageView }, @Arg('room', () => String) _room: string): ChatMessageView {
    return event.message;
  }

  @Broadcast()
  @Subscription(() => ChatMessageRemoval, { subscribe: roomSubscription('removed', false), description: "A room's messages removed by an operator" })
  chatMessageRemoved(@Root() event: { removed: ChatRemovalView }, @Arg('room', () => String) _room: string): ChatMessageRemoval {
    return { ...event.removed, removedAt: new Date(event.removed.removedAt) };
  }

  @Broadcast()
  @Subscription(() => ChatReaction, { subscribe: roomSubscription('reaction', false), description: "Reactions added to a room's messages" })
  chatReactions(@Root() event: { reaction: ChatReactionView }, @Arg('room', () => String) _room: string): ChatReactionView {
    return event.reaction;
  }

  @Broadcast()
  @Subscription(() => Typing, { subscribe: roomSubscription('typing', false), description: 'Who is typing in a room' })
  typing(@Root() event: { typing: TypingView }, @Arg('room', () => String) _room: string): Typing {
    return { ...event.typing, at: new Date(event.typing.at) };
  }
}
