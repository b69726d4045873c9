import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import { createReplicatedSnapshot, defineChannel, type Bus, type SharedStore } from '../../store';
import { enforceRate } from '../../store/rate-limit';
import { actorName, type AuditLog, type OperatorActor } from '../operators';
import {
  banInput,
  banWalletInput,
  dismissBody,
  messageIdInput,
  reportIdInput,
  reportInput,
  reportsPageInput,
  type ChatBanRecord,
  type ChatReportReceipt,
  type ChatReportRecord,
  type ReportStatus,
} from './moderation-model';
import { roomChannel, type ChatRemovalView } from './room-events';

/** Published after a ban or unban: every replica reloads its ban set (the 1 s promise rests on this). */
const bansChanged = defineChannel<{ wallet: string }>('chat:bans:changed');


/** What the chat service asks before a write: throws CHAT_BANNED for a banned wallet (no query: an in-memory set). */
export interface ChatBanCheck {
  assertMayWrite(wallet: string): void;
}

interface Deps {
  db: Db;
  store: SharedStore;
  bus: Bus;
  logger: Logger;
  audit: AuditLog;
  /** CHAT.* settings (the report limit and its window). */
  limits: Config['chat'];
  now?: () => Date;
}

type BanRow = { wallet: string; until: Date | null; reason: string; bannedBy: string; bannedAt: Date; liftedAt: Date | null };

const toBan = (row: BanRow): ChatBanRecord => ({ wallet: row.wallet, until: row.until, reason: row.reason, bannedBy: row.bannedBy, bannedAt: row.bannedAt });

/**
 * Chat moderation: operators remove messages, ban wallets from chat writes and work the players'
 * report queue; every operator action is audited in its own transaction.
 *
 * Bans are checked on every send, reaction and typing without a query: each replica holds the
 * active bans in memory, reloaded at once on this replica after a change, on the others through the
 * bus within milliseconds, and every 5 s regardless (so a replica that missed a message, the bus
 * being away, still catches up). An expired ban stops counting at its `until` on every replica
 * without any message.
 */
export function createChatModeration(deps: Deps) {
  const { db, store, bus, logger, audit, limits } = deps;
  const now = deps.now ?? (() => new Date());
  const isActive = (ban: { until: Date | null; liftedAt: Date | null }, at = now()) => ban.liftedAt === null && (ban.until === null || ban.until > at);
  const activeWhere = () => ({ liftedAt: null, OR: [{ until: null }, { until: { gt: now() } }] });

  const active = createReplicatedSnapshot({
    name: 'chat moderation',
    bus,
    channel: bansChanged,
    logger,
    initial: new Map<string, { until: Date | null }>(),
    load: async () => new Map((await db.prisma.chatBan.findMany({ where: activeWhere(), select: { wallet: true, until: true } })).map((r) => [r.wallet, { until: r.until }])),
  });

  const toReport = (row: {
    id: bigint;
    messageId: bigint;
    reporter: string;
    reason: string;
    status: string;
    createdAt: Date;
    resolvedBy: string | null;
    resolvedAt: Date | null;
    note: string | null;
    message: { room: string; text: string; author: string; deletedAt: Date | null };
  }): ChatReportRecord => ({
    id: String(row.id),
    messageId: String(row.messageId),
    room: row.message.room,
    messageText: row.message.text,
    messageAuthor: row.message.author,
    messageRemoved: row.message.deletedAt !== null,
    reporter: row.reporter,
    reason: row.reason,
    status: row.status as ReportStatus,
    createdAt: row.createdAt,
    resolvedBy: row.resolvedBy,
    resolvedAt: row.resolvedAt,
    note: row.note,
  });
  const withMessage = { message: { select: { room: true, text: true, author: true, deletedAt: true } } } as const;

  return {
    assertMayWrite(wallet: string): void {
      const ban = active.get().get(wallet);
      if (!ban || (ban.until !== null && ban.until <= now())) return;
      const until = ban.until?.toISOString() ?? null;
      throw new AppError('CHAT_BANNED', until ? `This wallet may not write in chat until ${until}` : 'This wallet may not write in chat until an operator lifts the ban', { until });
    },

    start: () => active.start(),
    close: () => active.close(),

    /** Active bans, newest first. */
    async bans(): Promise<ChatBanRecord[]> {
      const rows = await db.prisma.chatBan.findMany({ where: activeWhere(), orderBy: { bannedAt: 'desc' } });
      return rows.map(toBan);
    },

    /** Bans a wallet from chat writes until `until` (null: until lifted); banning a banned wallet replaces its ban. */
    async ban(actor: OperatorActor, input: unknown, requestId?: string): Promise<ChatBanRecord> {
      const { wallet, until, reason } = parseInput(banInput, input);
      const at = now();
      const untilDate = until ? new Date(until) : null;
      if (untilDate && untilDate <= at) throw new AppError('VALIDATION_FAILED', '/until: until must be in the future', { issues: [{ path: '/until', message: 'until must be in the future' }] });
      const row = await audit.audited({ actor, action: 'chat.ban', target: wallet, requestId }, async (tx) => {
        const earlier = await tx.chatBan.findUnique({ where: { wallet } });
        const fields = { until: untilDate, reason, bannedBy: actorName(actor), bannedAt: at, liftedAt: null, liftedBy: null };
        const after = await tx.chatBan.upsert({ where: { wallet }, create: { wallet, ...fields }, update: fields });
        return { before: earlier && isActive(earlier, at) ? toBan(earlier) : null, after: toBan(after), result: after };
      });
      await active.changed({ wallet });
      return toBan(row);
    },

    /** Lifts a wallet's active ban at once, on every replica within a second (404 when it has none). */
    async unban(actor: OperatorActor, input: unknown, requestId?: string): Promise<{ wallet: string; unbanned: boolean }> {
      const { wallet } = parseInput(banWalletInput, input);
      await audit.audited({ actor, action: 'chat.unban', target: wallet, requestId }, async (tx) => {
        const before = await tx.chatBan.findUnique({ where: { wallet } });
        // conditional on the ban still being active: of two concurrent unbans, one lifts it, the other finds none
        const lifted = await tx.chatBan.updateMany({ where: { wallet, ...activeWhere() }, data: { liftedAt: now(), liftedBy: actorName(actor) } });
        if (!before || lifted.count === 0) throw new AppError('NOT_FOUND', 'This wallet is not banned from chat', { wallet });
        const after = await tx.chatBan.findUniqueOrThrow({ where: { wallet } });
        return { before: toBan(before), after: { ...toBan(after), liftedAt: after.liftedAt, liftedBy: after.liftedBy }, result: true };
      });
      await active.changed({ wallet });
      return { wallet, unbanned: true };
    },

    /**
     * Removes a message: soft-deleted (who and when kept), never shown in history again, its
     * reactions deleted and its open reports resolved, in one audited transaction; then both
     * websocket transports are told (`chat:removed`, `chatMessageRemoved`). 404 for a message that
     * does not exist or was removed already.
     */
    async remove(actor: OperatorActor, input: unknown, requestId?: string): Promise<ChatRemovalView & { reportsResolved: number }> {
      const { id } = parseInput(messageIdInput, input);
      const messageId = BigInt(id);
      const removedAt = now();
      const by = actorName(actor);
      const result = await audit.audited({ actor, action: 'chat.remove', target: id, requestId }, async (tx) => {
        const marked = await tx.chatMessage.updateMany({ where: { id: messageId, deletedAt: null }, data: { deletedAt: removedAt, deletedBy: by } });
        if (marked.count === 0) throw new AppError('NOT_FOUND', `No chat message ${id}`, { id });
        const message = await tx.chatMessage.findUniqueOrThrow({ where: { id: messageId } });
        const reactions = await tx.chatReaction.deleteMany({ where: { messageId } });
        const reports = await tx.chatReport.updateMany({ where: { messageId, status: 'open' }, data: { status: 'removed', resolvedBy: by, resolvedAt: removedAt } });
        const shown = { id, room: message.room, author: message.author, text: message.text, createdAt: message.createdAt };
        return {
          before: { ...shown, reactions: reactions.count, openReports: reports.count },
          after: { ...shown, deletedAt: removedAt, deletedBy: by },
          result: { id, room: message.room, removedAt: removedAt.toISOString(), reportsResolved: reports.count },
        };
      });
      const { reportsResolved: _resolved, ...removed } = result;
      await bus.publish(roomChannel(result.room), { type: 'removed', removed }).catch((err: unknown) => logger.error({ err, room: result.room }, 'chat removal broadcast failed'));
      return result;
    },

    /**
     * A player's report of a message: one per wallet and message (a repeat answers the first,
     * `created: false`, and changes nothing); 404 for a message that does not exist or was removed.
     */
    async report(wallet: string, input: unknown): Promise<ChatReportReceipt & { created: boolean }> {
      const { messageId: id, reason } = parseInput(reportInput, input);
      await enforceRate(store, `chat:reports:${wallet}`, { max: limits.reportsPerWindow, windowMs: limits.windowMs }, {
        scope: 'chat-reports',
        message: (charge) => `Too many chat reports: limit is ${charge.limit} per ${limits.windowMs / 1000} s per wallet`,
      });
      const messageId = BigInt(id);
      const target = await db.prisma.chatMessage.findFirst({ where: { id: messageId, deletedAt: null }, select: { id: true } });
      if (!target) throw new AppError('NOT_FOUND', `No chat message ${id}`, { messageId: id });
      const [created] = await db.prisma.chatReport.createManyAndReturn({ data: [{ messageId, reporter: wallet, reason }], skipDuplicates: true });
      const row = created ?? (await db.prisma.chatReport.findUniqueOrThrow({ where: { messageId_reporter: { messageId, reporter: wallet } } }));
      return { id: String(row.id), messageId: id, createdAt: row.createdAt, created: Boolean(created) };
    },

    /** The operators' queue: reports of one status (default `open`), oldest first, with the message. */
    async reports(input: unknown): Promise<{ items: ChatReportRecord[]; nextCursor: string | null }> {
      const { status, cursor, limit } = parseInput(reportsPageInput, input ?? {});
      const rows = await db.prisma.chatReport.findMany({
        where: { status, ...(cursor ? { id: { gt: BigInt(cursor) } } : {}) },
        orderBy: { id: 'asc' },
        take: limit + 1,
        include: withMessage,
      });
      const page = rows.slice(0, limit);
      return { items: page.map(toReport), nextCursor: rows.length > limit ? String(page[page.length - 1]!.id) : null };
    },

    /** Dismisses an open report (the message stays) with an optional `{ note }`; 404 unknown, 409 CONFLICT when it is no longer open. */
    async dismiss(actor: OperatorActor, report: unknown, body: unknown, requestId?: string): Promise<ChatReportRecord> {
      const { id } = parseInput(reportIdInput, report);
      const { note } = parseInput(dismissBody, body);
      const reportId = BigInt(id);
      return audit.audited({ actor, action: 'chat.dismiss_report', target: id, requestId }, async (tx) => {
        const before = await tx.chatReport.findUnique({ where: { id: reportId }, include: withMessage });
        if (!before) throw new AppError('NOT_FOUND', `No chat report ${id}`, { id });
        const dismissed = await tx.chatReport.updateMany({ where: { id: reportId, status: 'open' }, data: { status: 'dismissed', resolvedBy: actorName(actor), resolvedAt: now(), note: note ?? null } });
        if (dismissed.count === 0) {
          const { status } = await tx.chatReport.findUniqueOrThrow({ where: { id: reportId }, select: { status: true } });
          throw new AppError('CONFLICT', `Chat report ${id} is no longer open`, { id, status });
        }
        const after = toReport(await tx.chatReport.findUniqueOrThrow({ where: { id: reportId }, include: withMessage }));
        return { before: toReport(before), after, result: after };
      });
    },
  };
}

export type ChatModeration = ReturnType<typeof createChatModeration>;
