import { AppError } from '../../errors';
import type { Db } from '../../db/client';
import type { Bus, BusStream, SharedStore } from '../../store';
import { enforceRate } from '../../store/rate-limit';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import type { Config } from '../../config';
import type { ChatPlatformRelay } from '../../providers/chat-platform';
import { CHAT_LIMITS, GLOBAL_ROOM, historyInput, reactInput, roomInput, sendInput } from './input';
import type { ChatBanCheck } from './moderation';
import { roomChannel, type ChatCaller, type ChatMessageView, type ChatReactionView, type RoomEvent, type TypingView } from './room-events';

export { CHAT_LIMITS, GLOBAL_ROOM, ROOM_PATTERN } from './input';

export interface ChatHistoryPage {
  items: ChatMessageView[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface ChatService {
  send(caller: ChatCaller, input: unknown): Promise<ChatMessageView>;
  /** Idempotent per (message, wallet, emoji): a repeat broadcasts nothing. */
  react(caller: ChatCaller, input: unknown): Promise<ChatReactionView>;
  /** Debounced per wallet and room; `broadcast` says whether this one went out. */
  typing(caller: ChatCaller, input: unknown): Promise<{ room: string; broadcast: boolean }>;
  /** Newest first, paged by cursor; removed messages are left out. */
  history(input: unknown): Promise<ChatHistoryPage>;
  /** The validated room name of `{ room }` (joins, subscriptions). */
  room(input: unknown): string;
  /** A bounded stream of one kind of event in a room (GraphQL subscriptions). */
  stream<K extends RoomEvent['type']>(room: string, type: K, onEnd?: () => void): BusStream<Extract<RoomEvent, { type: K }>>;
  /** Every event of a room, for a transport that fans out itself (Socket.IO rooms). */
  listen(room: string, listener: (event: RoomEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ChatServiceDeps {
  db: Db;
  store: SharedStore;
  bus: Bus;
  logger: Logger;
  /** The chat platform relay; null when not configured. */
  relay: ChatPlatformRelay | null;
  /** Per-wallet rate limits (CHAT.* settings). */
  limits: Config['chat'];
  /** Operator bans (src/services/chat/moderation.ts), checked in memory before every write. */
  bans: ChatBanCheck;
}

type ChatMessageRow = { id: bigint; room: string; author: string; text: string; createdAt: Date; deletedAt?: Date | null };

/** A message as sent (no reactions yet): the send's answer and its broadcast. */
const viewOf = (row: ChatMessageRow): ChatMessageView => ({ id: String(row.id), room: row.room, author: row.author, text: row.text, createdAt: row.createdAt.toISOString(), reactions: [] });

/** Rooms, messages and reactions (PostgreSQL), typing (debounced in the shared store), broadcast once per event. */
export function createChatService(deps: ChatServiceDeps): ChatService {
  const { db, store, bus, logger, limits } = deps;

  function writer(caller: ChatCaller): string {
    if (caller.transport !== 'websocket') {
      throw new AppError('WEBSOCKET_ONLY', 'Chat messages, reactions and typing are sent over a websocket (graphql-ws or Socket.IO at /socket.io/), not over HTTP');
    }
    if (!caller.wallet) throw new AppError('UNAUTHENTICATED', 'Sending needs a verified wallet: connect with an access token');
    deps.bans.assertMayWrite(caller.wallet);
    return caller.wallet;
  }

  async function throttle(bucket: string, wallet: string, max: number): Promise<void> {
    await enforceRate(store, `chat:${bucket}:${wallet}`, { max, windowMs: limits.windowMs }, {
      scope: `chat-${bucket}`,
      message: (charge) => `Too many chat ${bucket}: limit is ${charge.limit} per ${limits.windowMs / 1000} s per wallet`,
    });
  }

  async function broadcast(room: string, event: RoomEvent): Promise<void> {
    try {
      await bus.publish(roomChannel(room), event);
    } catch (err) {
      logger.error({ err, room, type: event.type }, 'chat broadcast failed');
    }
  }

  /**
   * Posts (author, clientId) once across replicas. The insert and the rate-limit charge share a
   * transaction: a concurrent repeat's insert waits on the unique index until the first commits
   * (then it inserts nothing and reads the first row) or rolls back when refused (then it posts
   * itself). So only the message that is stored is charged; a repeat is neither charged nor
   * broadcast.
   */
  async function postOnce(author: string, clientId: string, data: { room: string; author: string; text: string }): Promise<{ row: ChatMessageRow; first: boolean }> {
    const key = { author_clientId: { author, clientId } };
    const earlier = await db.prisma.chatMessage.findUnique({ where: key });
    if (earlier) return { row: earlier, first: false };
    const inserted = await db.prisma.$transaction(async (tx) => {
      const [row] = await tx.chatMessage.createManyAndReturn({ data: [{ ...data, clientId }], skipDuplicates: true });
      if (row) await throttle('messages', author, limits.messagesPerWindow);
      return row;
    });
    if (inserted) return { row: inserted, first: true };
    return { row: await db.prisma.chatMessage.findUniqueOrThrow({ where: key }), first: false };
  }

  return {
    async send(caller, raw) {
      const wallet = writer(caller);
      const input = parseInput(sendInput, raw);
      const data = { room: input.room, author: wallet, text: input.text };
      let row: ChatMessageRow;
      if (input.clientId === undefined) {
        await throttle('messages', wallet, limits.messagesPerWindow);
        row = await db.prisma.chatMessage.create({ data });
      } else {
        const sent = await postOnce(wallet, input.clientId, data);
        if (!sent.first) {
          // a retry of a message an operator removed since: the message is not handed back
          if (sent.row.deletedAt) throw new AppError('CONFLICT', 'This clientId names a message an operator removed', { clientId: input.clientId });
          return viewOf(sent.row);
        }
        row = sent.row;
      }
      const message = viewOf(row);
      await broadcast(row.room, { type: 'message', message });
      if (row.room === GLOBAL_ROOM) deps.relay?.relay(message);
      return message;
    },

    async react(caller, raw) {
      const wallet = writer(caller);
      const input = parseInput(reactInput, raw);
      await throttle('reactions', wallet, limits.reactionsPerWindow);
      const messageId = BigInt(input.messageId);
      const target = await db.prisma.chatMessage.findFirst({ where: { id: messageId, deletedAt: null }, select: { room: true } });
      if (!target) throw new AppError('NOT_FOUND', `No chat message ${input.messageId}`);
      const { count: added } = await db.prisma.chatReaction.createMany({ data: [{ messageId, wallet, emoji: input.emoji }], skipDuplicates: true });
      const count = await db.prisma.chatReaction.count({ where: { messageId, emoji: input.emoji } });
      const reaction: ChatReactionView = { messageId: input.messageId, room: target.room, emoji: input.emoji, user: wallet, count };
      if (added) await broadcast(target.room, { type: 'reaction', reaction });
      return reaction;
    },

    async typing(caller, raw) {
      const wallet = writer(caller);
      const { room } = parseInput(roomInput, raw);
      const hit = await store.hit(`chat:typing:${room}:${wallet}`, limits.typingDebounceMs);
      const first = hit.count === 1;
      if (first) {
        const typing: TypingView = { room, user: wallet, at: new Date().toISOString() };
        await broadcast(room, { type: 'typing', typing });
      }
      return { room, broadcast: first };
    },

    async history(raw) {
      const input = parseInput(historyInput, raw);
      const limit = input.limit ?? CHAT_LIMITS.historyDefaultLimit;
      const rows = await db.prisma.chatMessage.findMany({
        where: { room: input.room, deletedAt: null, ...(input.cursor ? { id: { lt: BigInt(input.cursor) } } : {}) },
        orderBy: { id: 'desc' },
        take: limit + 1,
      });
      const page = rows.slice(0, limit);
      const counts = page.length
        ? await db.prisma.chatReaction.groupBy({ by: ['messageId', 'emoji'], where: { messageId: { in: page.map((r) => r.id) } }, _count: { _all: true } })
        : [];
      const reactionsOf = new Map<bigint, Array<{ emoji: string; count: number }>>();
      for (const c of counts) reactionsOf.set(c.messageId, [...(reactionsOf.get(c.messageId) ?? []), { emoji: c.emoji, count: c._count._all }]);
      const items = page.map((r) => ({
        id: String(r.id),
        room: r.room,
        author: r.author,
        text: r.text,
        createdAt: r.createdAt.toISOString(),
        reactions: (reactionsOf.get(r.id) ?? []).sort((a, b) => b.count - a.count || a.emoji.localeCompare(b.emoji)),
      }));
      return { items, nextCursor: rows.length > limit ? String(page[page.length - 1].id) : null };
    },

    room: (raw) => parseInput(roomInput, raw).room,

    stream(room, type, onEnd) {
      type Selected = Extract<RoomEvent, { type: typeof type }>;
      return bus.stream(roomChannel(room), { select: (e): Selected | undefined => (e.type === type ? (e as Selected) : undefined), onEnd });
    },

    listen: (room, listener) => bus.listen(roomChannel(room), listener),

    async close() {
      await deps.relay?.close();
    },
  };
}
