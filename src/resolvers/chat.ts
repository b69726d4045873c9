import { Arg, Ctx, Field, GraphQLISODateTime, ID, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Broadcast } from '../graphql/broadcast';
import type { GraphqlContext } from '../graphql/context';
import type { Services } from '../services';
import type { ChatCaller, ChatMessageView, ChatReactionView, ChatRemovalView, RoomEvent, TypingView } from '../services/chat';

@ObjectType({ description: 'How many users reacted to a message with one emoji' })
class ReactionCount {
  @Field(() => String) emoji!: string;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'A chat message. `text` is plain text as sent: render it as text, never as HTML.' })
class ChatMessage {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: '`global` or `game:<id>`' }) room!: string;
  @Field(() => String, { description: "The author's wallet" }) author!: string;
  @Field(() => String) text!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => [ReactionCount]) reactions!: ReactionCount[];
}

@ObjectType({ description: 'A message an operator removed: drop it from what you show (history no longer returns it)' })
export class ChatMessageRemoval {
  @Field(() => ID) id!: string;
  @Field(() => String) room!: string;
  @Field(() => GraphQLISODateTime) removedAt!: Date;
}

@ObjectType({ description: 'A page of chat history, newest first' })
class ChatMessagePage {
  @Field(() => [ChatMessage]) items!: ChatMessage[];
  @Field(() => String, { nullable: true, description: 'Pass as `cursor` for the next (older) page; null on the last page' }) nextCursor!: string | null;
}

@ObjectType({ description: 'A reaction added to a message' })
class ChatReaction {
  @Field(() => ID) messageId!: string;
  @Field(() => String) room!: string;
  @Field(() => String) emoji!: string;
  @Field(() => String, { description: 'The reacting wallet' }) user!: string;
  @Field(() => Int, { description: 'Reactions with this emoji on the message, this one included' }) count!: number;
}

@ObjectType({ description: 'A user is typing in a room (debounced: at most one per user and room every few seconds)' })
class Typing {
  @Field(() => String) room!: string;
  @Field(() => String) user!: string;
  @Field(() => GraphQLISODateTime) at!: Date;
}

@ObjectType({ description: 'The answer to sendTyping' })
class TypingReceipt {
  @Field(() => String) room!: string;
  @Field(() => Boolean, { description: 'false: absorbed by the debounce (a broadcast for this user and room went out moments ago)' }) broadcast!: boolean;
}

const callerOf = (ctx: GraphqlContext): ChatCaller => ({ wallet: ctx.auth?.wallet ?? null, transport: ctx.transport === 'ws' ? 'websocket' : 'http' });
const toMessage = (m: ChatMessageView): ChatMessage => ({ ...m, createdAt: new Date(m.createdAt) });

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
    return { items: page.items.map(toMessage), nextCursor: page.nextCursor };
  }

  @Mutation(() => ChatMessage, { description: 'Sends a message (graphql-ws only; a verified wallet)' })
  async sendChatMessage(
    @Arg('room', () => String) room: string,
    @Arg('text', () => String) text: string,
    @Ctx() ctx: GraphqlContext,
    @Arg('clientId', () => String, {
      nullable: true,
      description: 'Your id for this message (a UUID; unique per sender for at least 24 h): a retry with the same id returns the first message and posts nothing',
    })
    clientId?: string | null,
  ): Promise<ChatMessage> {
    return toMessage(await this.services.chat.send(callerOf(ctx), { room, text, ...(clientId != null ? { clientId } : {}) }));
  }

  @Mutation(() => ChatReaction, { description: 'Reacts to a message with one emoji (graphql-ws only); repeating it changes nothing' })
  reactToMessage(@Arg('messageId', () => ID) messageId: string, @Arg('emoji', () => String) emoji: string, @Ctx() ctx: GraphqlContext): Promise<ChatReactionView> {
    return this.services.chat.react(callerOf(ctx), { messageId, emoji });
  }

  @Mutation(() => TypingReceipt, { description: 'Says the caller is typing in a room (graphql-ws only); debounced per user and room' })
  sendTyping(@Arg('room', () => String) room: string, @Ctx() ctx: GraphqlContext): Promise<TypingReceipt> {
    return this.services.chat.typing(callerOf(ctx), { room });
  }

  @Broadcast()
  @Subscription(() => ChatMessage, { subscribe: roomSubscription('message', true), description: "A room's new messages; the connection counts as present in the room meanwhile" })
  chatMessages(@Root() event: { message: ChatMessageView }, @Arg('room', () => String) _room: string): ChatMessage {
    return toMessage(event.message);
  }

  @Broadcast()
  @Subscription(() => ChatMessageRemoval, { subscribe: roomSubscription('removed', false), description: "A room's messages removed by an operator" })
  chatMessageRemoved(@Root() event: { removed: ChatRemovalView }, @Arg('room', () => String) _room: string): ChatMessageRemoval {
    return { ...event.removed, removedAt: new Date(event.removed.removedAt) };
  }

  @Broadcast()
  @Subscription(() => ChatReaction, { subscribe: roomSubscription('reaction', false), description: "Reactions added to a room's messages" })
  chatReactions(@Root() event: { reaction: ChatReactionView }, @Arg('room', () => String) _room: string): ChatReaction {
    return event.reaction;
  }

  @Broadcast()
  @Subscription(() => Typing, { subscribe: roomSubscription('typing', false), description: 'Who is typing in a room' })
  typing(@Root() event: { typing: TypingView }, @Arg('room', () => String) _room: string): Typing {
    return { ...event.typing, at: new Date(event.typing.at) };
  }
}
