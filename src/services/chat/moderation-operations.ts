import { z } from 'zod';
import { operatorActor, walletOf } from '../../edge/authorize';
import { named } from '../model-names';
import { operationsOver, type OperationSet } from '../operation';
import type { ChatModeration } from './moderation';
import {
  banInput,
  chatBanLiftModel,
  chatBanModel,
  chatRemovalResultModel,
  chatReportAnswerModel,
  chatReportModel,
  chatReportPageModel,
  dismissBody,
  reportInput,
  reportsPageInput,
} from './moderation-model';

type Svc = { chatModeration: ChatModeration };
const operation = operationsOver<Svc>();

const idOf = (what: string) => named('ID', z.string()).describe(what);
const wallet = z.string().describe('Sui address');
const ADMIN = { tag: 'admin', access: 'operator' } as const;

/**
 * Chat moderation (./moderation.ts): operators remove messages, ban wallets and work the report
 * queue under /api/admin/chat; players report messages. REST, OpenAPI and GraphQL read these.
 */
export const chatModerationOperations: OperationSet<Svc> = {
  domain: 'chat',
  operations: [
    operation({
      summary:
        'Remove a chat message: gone from history (REST and GraphQL), `chat:removed` / `chatMessageRemoved` on both websocket transports, its reactions deleted, its open reports resolved',
      kind: 'mutation',
      access: ADMIN.access,
      params: { id: idOf('The message id') },
      output: chatRemovalResultModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: { method: 'DELETE', path: '/admin/chat/messages/:id', operationId: 'adminRemoveChatMessage', tag: ADMIN.tag },
      graphql: { field: 'deleteChatMessage' },
      handle: ({ chatModeration }, { caller, params, requestId }) => chatModeration.remove(operatorActor(caller), { id: params.id }, requestId),
    }),
    operation({
      summary: 'Wallets banned from chat writes now, newest first',
      kind: 'query',
      access: ADMIN.access,
      output: z.array(chatBanModel),
      rest: { method: 'GET', path: '/admin/chat/bans', operationId: 'adminChatBans', tag: ADMIN.tag, envelope: 'bans' },
      graphql: { field: 'chatBans' },
      handle: ({ chatModeration }) => chatModeration.bans(),
    }),
    operation({
      summary:
        'Ban a wallet from chat messages, reactions and typing until `until` (absent: until lifted): refused with 403 CHAT_BANNED on every replica and both transports within a second; a second ban replaces the first',
      kind: 'mutation',
      access: ADMIN.access,
      input: banInput,
      output: chatBanModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'POST', path: '/admin/chat/bans', operationId: 'adminBanChatWallet', tag: ADMIN.tag },
      graphql: { field: 'banChatWallet', spread: true },
      handle: ({ chatModeration }, { caller, input, requestId }) => chatModeration.ban(operatorActor(caller), input, requestId),
    }),
    operation({
      summary: "Lift a wallet's chat ban (on every replica within a second)",
      kind: 'mutation',
      access: ADMIN.access,
      params: { wallet },
      output: chatBanLiftModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: { method: 'DELETE', path: '/admin/chat/bans/:wallet', operationId: 'adminUnbanChatWallet', tag: ADMIN.tag },
      graphql: { field: 'unbanChatWallet' },
      handle: ({ chatModeration }, { caller, params, requestId }) => chatModeration.unban(operatorActor(caller), { wallet: params.wallet }, requestId),
    }),
    operation({
      summary: "Players' reports of chat messages by status (default `open`: the queue), oldest first, with the message text and the reporter",
      kind: 'query',
      access: ADMIN.access,
      input: reportsPageInput,
      output: chatReportPageModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'GET', path: '/admin/chat/reports', operationId: 'adminChatReports', tag: ADMIN.tag, query: true },
      graphql: { field: 'chatReports', spread: true },
      handle: ({ chatModeration }, { input }) => chatModeration.reports(input),
    }),
    operation({
      summary: 'Dismiss an open report (the message stays); 409 CONFLICT when it is no longer open',
      kind: 'mutation',
      access: ADMIN.access,
      params: { id: idOf('The report id') },
      input: dismissBody,
      output: chatReportModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
      rest: { method: 'POST', path: '/admin/chat/reports/:id/dismiss', operationId: 'adminDismissChatReport', tag: ADMIN.tag },
      graphql: { field: 'dismissChatReport', spread: true },
      handle: ({ chatModeration }, { caller, params, input, requestId }) => chatModeration.dismiss(operatorActor(caller), { id: params.id }, input ?? {}, requestId),
    }),
    operation({
      summary: 'Report a chat message to the operators: one report per wallet and message (a repeat answers the first with `created: false`)',
      kind: 'mutation',
      access: 'wallet',
      input: reportInput,
      output: chatReportAnswerModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: { method: 'POST', path: '/chat/reports', operationId: 'chatReportMessage', tag: 'chat' },
      graphql: { field: 'reportChatMessage', spread: true },
      handle: ({ chatModeration }, { caller, input }) => chatModeration.report(walletOf(caller), input),
    }),
  ],
};
