import { Arg, Ctx, Field, GraphQLISODateTime, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql/context';
import { Authorized } from '../graphql/authorized';
import { operatorActor, walletOf } from '../edge/authorize';
import type { Services } from '../services';
import type { ChatBanRecord, ChatReportRecord, ReportStatus } from '../services/chat';
import { ChatMessageRemoval } from './chat';

@ObjectType({ description: 'A wallet banned from chat writes (messages, reactions, typing)' })
class ChatBan implements ChatBanRecord {
  @Field(() => String) wallet!: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the ban ends; null: until lifted' }) until!: Date | null;
  @Field(() => String, { description: 'Why (not shown to the banned wallet)' }) reason!: string;
  @Field(() => String, { description: 'The banning operator (a wallet, or operator-token)' }) bannedBy!: string;
  @Field(() => GraphQLISODateTime) bannedAt!: Date;
}

@ObjectType()
class ChatBanLift {
  @Field(() => String) wallet!: string;
  @Field(() => Boolean) unbanned!: boolean;
}

@ObjectType({ description: 'A removed message and how many open reports of it were resolved' })
class ChatMessageRemovalResult extends ChatMessageRemoval {
  @Field(() => Int) reportsResolved!: number;
}

@ObjectType({ description: "A player's report of a chat message, with the message" })
class ChatReport implements ChatReportRecord {
  @Field(() => ID) id!: string;
  @Field(() => ID) messageId!: string;
  @Field(() => String) room!: string;
  @Field(() => String, { description: 'The reported message as sent (plain text)' }) messageText!: string;
  @Field(() => String, { description: "The message author's wallet" }) messageAuthor!: string;
  @Field(() => Boolean) messageRemoved!: boolean;
  @Field(() => String, { description: "The reporting player's wallet" }) reporter!: string;
  @Field(() => String) reason!: string;
  @Field(() => String, { description: '`open`, `dismissed` (by an operator) or `removed` (the message was removed)' }) status!: ReportStatus;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => String, { nullable: true }) resolvedBy!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resolvedAt!: Date | null;
  @Field(() => String, { nullable: true, description: "The operator's note when dismissing" }) note!: string | null;
}

@ObjectType()
class ChatReportPage {
  @Field(() => [ChatReport], { description: 'Oldest first (a queue)' }) items!: ChatReport[];
  @Field(() => String, { nullable: true, description: 'Pass as cursor for the next page' }) nextCursor!: string | null;
}

@ObjectType({ description: 'Your report was received' })
class ChatReportReceipt {
  @Field(() => ID) id!: string;
  @Field(() => ID) messageId!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => Boolean, { description: 'false: you had reported this message already (nothing changed)' }) created!: boolean;
}

const toRemoval = (r: { id: string; room: string; removedAt: string; reportsResolved: number }): ChatMessageRemovalResult => ({ ...r, removedAt: new Date(r.removedAt) });

/** Chat moderation (the GraphQL side of /api/admin/chat/… and POST /api/chat/reports). */
@Resolver()
export class ChatModerationResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Mutation(() => ChatMessageRemovalResult, { description: 'Remove a chat message: gone from history, both websocket transports told (operator only)' })
  async deleteChatMessage(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<ChatMessageRemovalResult> {
    return toRemoval(await this.services.chatModeration.remove(operatorActor(ctx), { id }, ctx.requestId));
  }

  @Authorized('operator')
  @Query(() => [ChatBan], { description: 'Wallets banned from chat now, newest first (operator only)' })
  chatBans(): Promise<ChatBan[]> {
    return this.services.chatModeration.bans();
  }

  @Authorized('operator')
  @Mutation(() => ChatBan, { description: 'Ban a wallet from chat writes until `until` (absent: until lifted), on every replica within a second (operator only)' })
  banChatWallet(
    @Ctx() ctx: GraphqlContext,
    @Arg('wallet', () => String) wallet: string,
    @Arg('reason', () => String) reason: string,
    @Arg('until', () => String, { nullable: true, description: 'ISO 8601 date-time in the future; absent: until lifted' }) until?: string | null,
  ): Promise<ChatBan> {
    return this.services.chatModeration.ban(operatorActor(ctx), { wallet, reason, ...(until != null ? { until } : {}) }, ctx.requestId);
  }

  @Authorized('operator')
  @Mutation(() => ChatBanLift, { description: 'Lift a wallet’s chat ban (operator only)' })
  unbanChatWallet(@Ctx() ctx: GraphqlContext, @Arg('wallet', () => String) wallet: string): Promise<ChatBanLift> {
    return this.services.chatModeration.unban(operatorActor(ctx), { wallet }, ctx.requestId);
  }

  @Authorized('operator')
  @Query(() => ChatReportPage, { description: 'Reports of chat messages by status (default open), oldest first (operator only)' })
  chatReports(
    @Arg('status', () => String, { nullable: true, description: '`open` (default), `dismissed` or `removed`' }) status?: string | null,
    @Arg('cursor', () => String, { nullable: true }) cursor?: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
  ): Promise<ChatReportPage> {
    return this.services.chatModeration.reports({ ...(status != null ? { status } : {}), ...(cursor != null ? { cursor } : {}), ...(limit != null ? { limit } : {}) });
  }

  @Authorized('operator')
  @Mutation(() => ChatReport, { description: 'Dismiss an open report; the message stays (operator only)' })
  dismissChatReport(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string, @Arg('note', () => String, { nullable: true }) note?: string | null): Promise<ChatReport> {
    return this.services.chatModeration.dismiss(operatorActor(ctx), { id }, note != null ? { note } : {}, ctx.requestId);
  }

  @Authorized('wallet')
  @Mutation(() => ChatReportReceipt, { description: 'Report a chat message to the operators (once per message; a repeat changes nothing)' })
  reportChatMessage(@Ctx() ctx: GraphqlContext, @Arg('messageId', () => ID) messageId: string, @Arg('reason', () => String) reason: string): Promise<ChatReportReceipt> {
    return this.services.chatModeration.report(walletOf(ctx), { messageId, reason });
  }
}
