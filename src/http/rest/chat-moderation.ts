import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../errors';
import { walletOf } from '../../edge/authorize';
import type { Services } from '../../services';
import {
  banInput,
  chatBanModel,
  chatRemovalModel,
  chatReportModel,
  chatReportPageModel,
  chatReportReceiptModel,
  dismissBody,
  MODERATION_LIMITS,
  REPORT_STATUSES,
  reportInput,
} from '../../services/chat';
import { adminActor, adminRoute } from './admin';
import { documentedBody, documentedReply, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const idParam = (description: string) => ({ type: 'object', required: ['id'], properties: { id: { type: 'string', description } } }) as const;
const walletParam = { type: 'object', required: ['wallet'], properties: { wallet: { type: 'string', description: 'Sui address' } } } as const;
const AUTHENTICATED: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];

/**
 * Chat moderation (src/services/chat/moderation.ts): operators remove messages, ban wallets and
 * work the report queue under /api/admin/chat; players report messages.
 */
export async function chatModerationRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { chatModeration } = services;

  app.delete<{ Params: { id: string } }>(
    '/admin/chat/messages/:id',
    adminRoute({
      operationId: 'adminRemoveChatMessage',
      summary: 'Remove a chat message: gone from history (REST and GraphQL), `chat:removed` / `chatMessageRemoved` on both websocket transports, its reactions deleted, its open reports resolved',
      params: idParam('The message id'),
      reply: chatRemovalModel.extend({ reportsResolved: z.number().int().describe('Open reports of the message resolved as `removed`') }),
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chatModeration.remove(actor, { id: request.params.id }, requestId);
    },
  );

  app.get(
    '/admin/chat/bans',
    adminRoute({ operationId: 'adminChatBans', summary: 'Wallets banned from chat writes now, newest first', reply: z.object({ bans: z.array(chatBanModel) }) }),
    async () => ({ bans: await chatModeration.bans() }),
  );
  app.post(
    '/admin/chat/bans',
    adminRoute({
      operationId: 'adminBanChatWallet',
      summary: 'Ban a wallet from chat messages, reactions and typing until `until` (absent: until lifted): refused with 403 CHAT_BANNED on every replica and both transports within a second; a second ban replaces the first',
      body: banInput,
      reply: chatBanModel,
      errors: ['VALIDATION_FAILED'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chatModeration.ban(actor, request.body, requestId);
    },
  );
  app.delete<{ Params: { wallet: string } }>(
    '/admin/chat/bans/:wallet',
    adminRoute({
      operationId: 'adminUnbanChatWallet',
      summary: "Lift a wallet's chat ban (on every replica within a second)",
      params: walletParam,
      reply: z.object({ wallet: z.string(), unbanned: z.boolean() }),
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chatModeration.unban(actor, { wallet: request.params.wallet }, requestId);
    },
  );

  app.get(
    '/admin/chat/reports',
    adminRoute({
      operationId: 'adminChatReports',
      summary: "Players' reports of chat messages by status (default `open`: the queue), oldest first, with the message text and the reporter",
      querystring: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: [...REPORT_STATUSES], default: 'open' },
          cursor: { type: 'string', description: '`nextCursor` of the previous page' },
          limit: { type: 'integer', minimum: 1, maximum: MODERATION_LIMITS.reportsMaxLimit, default: MODERATION_LIMITS.reportsDefaultLimit },
        },
      },
      reply: chatReportPageModel,
      errors: ['VALIDATION_FAILED'],
    }),
    async (request) => chatModeration.reports(request.query),
  );
  app.post<{ Params: { id: string } }>(
    '/admin/chat/reports/:id/dismiss',
    adminRoute({
      operationId: 'adminDismissChatReport',
      summary: 'Dismiss an open report (the message stays); 409 CONFLICT when it is no longer open',
      params: idParam('The report id'),
      body: dismissBody,
      reply: chatReportModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chatModeration.dismiss(actor, { id: request.params.id }, request.body ?? {}, requestId);
    },
  );

  app.post(
    '/chat/reports',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['chat'],
        operationId: 'chatReportMessage',
        summary: 'Report a chat message to the operators: one report per wallet and message (a repeat answers the first with `created: false`)',
        body: documentedBody(reportInput),
        response: { 200: documentedReply(chatReportReceiptModel.extend({ created: z.boolean().describe('false: this wallet had reported the message already') })), ...errorResponses(['VALIDATION_FAILED', 'NOT_FOUND', ...AUTHENTICATED]) },
      },
    },
    async (request) => chatModeration.report(walletOf(request), request.body),
  );
}
