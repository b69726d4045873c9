import { z } from 'zod';
import { isStorableText } from '../../input/storable-text';
import { suiAddress } from '../../input/sui-address';
import { named } from '../model-names';

/**
 * Chat moderation's inputs and reply models, declared once: the admin routes, their GraphQL twins
 * and the players' report are judged here; REST schemas are generated from the models.
 */
export const MODERATION_LIMITS = {
  /** Characters of a ban's reason, a report's reason or a dismissal's note. */
  reasonMaxChars: 500,
  reportsDefaultLimit: 50,
  reportsMaxLimit: 200,
} as const;

/** An id as sent (GraphQL's ID). */
const id = (what: string) => named('ID', z.string().regex(/^[1-9]\d{0,18}$/, `${what} must be an id`));
/** An id as answered (GraphQL's ID). */
const idOut = named('ID', z.string());
/** Written as GraphQL's DateTimeISO. */
const dateTime = named('DateTimeISO', z.iso.datetime());

const reason = (what: string) =>
  z
    .string()
    .refine(isStorableText, `${what} must not contain NUL characters or unpaired UTF-16 surrogates`)
    .transform((t) => t.trim())
    .refine((t) => t.length > 0, `${what} must not be empty`)
    .refine((t) => t.length <= MODERATION_LIMITS.reasonMaxChars, `${what} must be at most ${MODERATION_LIMITS.reasonMaxChars} characters`);

export const messageIdInput = z.object({ id: id('id') }).strict();
export const banWalletInput = z.object({ wallet: suiAddress('wallet must be a Sui address') }).strict();
export const banInput = z
  .object({
    wallet: suiAddress('wallet must be a Sui address'),
    until: z.iso
      .datetime({ offset: true, error: 'until must be an ISO 8601 date-time (e.g. 2030-01-31T12:00:00Z)' })
      .nullish()
      .describe('When the ban ends (ISO 8601, in the future); absent or null: until lifted'),
    reason: reason('reason').describe('Why (kept for operators; not shown to the banned wallet)'),
  })
  .strict();
export const reportInput = z.object({ messageId: id('messageId'), reason: reason('reason') }).strict();
export const REPORT_STATUSES = ['open', 'dismissed', 'removed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const reportStatus = z.enum(REPORT_STATUSES);
export const reportsPageInput = z
  .object({
    status: reportStatus.default('open'),
    cursor: z.string().regex(/^[1-9]\d{0,18}$/, 'cursor must be the nextCursor of a previous page').optional().describe('`nextCursor` of the previous page'),
    limit: z.coerce.number().int().min(1).max(MODERATION_LIMITS.reportsMaxLimit).default(MODERATION_LIMITS.reportsDefaultLimit),
  })
  .strict();
export const reportIdInput = z.object({ id: id('id') }).strict();
/** The body of `POST /api/admin/chat/reports/{id}/dismiss`. */
export const dismissBody = z.object({ note: reason('note').optional().describe("The operator's note (why it was dismissed)") }).strict();

/** A ban as operators see it. */
export const chatBanModel = z.object({
  wallet: z.string().describe('Sui address'),
  until: dateTime.nullable().describe('When the ban ends; null: until lifted'),
  reason: z.string().describe('Why (not shown to the banned wallet)'),
  bannedBy: z.string().describe('The banning operator (a wallet, or operator-token)'),
  bannedAt: dateTime,
}).describe('A wallet banned from chat writes (messages, reactions, typing)');
export type ChatBanRecord = { wallet: string; until: Date | null; reason: string; bannedBy: string; bannedAt: Date };

/** A removed message: the admin route's answer and what both websocket transports receive. */
export const chatRemovalModel = z.object({
  id: idOut.describe('The removed message'),
  room: z.string(),
  removedAt: dateTime,
});

/** One report in the operators' queue, with the message it is about. */
export const chatReportModel = z.object({
  id: idOut,
  messageId: idOut,
  room: z.string(),
  messageText: z.string().describe('The reported message as sent (plain text)'),
  messageAuthor: z.string().describe("The message author's wallet"),
  messageRemoved: z.boolean().describe('Whether an operator removed the message'),
  reporter: z.string().describe("The reporting player's wallet"),
  reason: z.string(),
  status: reportStatus.describe('`open`; `dismissed` by an operator; `removed`: the message was removed'),
  createdAt: dateTime,
  resolvedBy: z.string().nullable().describe('The operator who dismissed it or removed the message'),
  resolvedAt: dateTime.nullable(),
  note: z.string().nullable().describe("The operator's note when dismissing"),
}).describe("A player's report of a chat message, with the message");
export type ChatReportRecord = Omit<z.infer<typeof chatReportModel>, 'createdAt' | 'resolvedAt'> & { createdAt: Date; resolvedAt: Date | null };

export const chatReportPageModel = z.object({
  items: z.array(chatReportModel).describe('Oldest first (a queue)'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});

/** What the reporting player gets back. */
export const chatReportReceiptModel = z.object({
  id: idOut,
  messageId: idOut,
  createdAt: dateTime,
});
export type ChatReportReceipt = { id: string; messageId: string; createdAt: Date };

/** The answer to a removal: the removed message and the open reports of it resolved. */
export const chatRemovalResultModel = chatRemovalModel
  .extend({ reportsResolved: z.number().int().describe('Open reports of the message resolved as `removed`') })
  .describe('A removed message and how many open reports of it were resolved');
export const chatBanLiftModel = z.object({ wallet: z.string(), unbanned: z.boolean() });
/** The reporting player's answer. */
export const chatReportAnswerModel = chatReportReceiptModel
  .extend({ created: z.boolean().describe('false: this wallet had reported the message already') })
  .describe('Your report was received');

// The GraphQL types these models become (src/graphql/zod-types.ts).
named('ChatBan', chatBanModel);
named('ChatBanLift', chatBanLiftModel);
named('ChatMessageRemovalResult', chatRemovalResultModel);
named('ChatReport', chatReportModel);
named('ChatReportPage', chatReportPageModel);
named('ChatReportReceipt', chatReportAnswerModel);
named('ChatReportStatus', reportStatus);
