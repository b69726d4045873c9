import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { CHAT_LIMITS, ROOM_PATTERN } from '../../services/chat';
import { judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const message = {
  type: 'object',
  required: ['id', 'room', 'author', 'text', 'createdAt', 'reactions'],
  properties: {
    id: { type: 'string' },
    room: { type: 'string' },
    author: { type: 'string', description: "The author's wallet" },
    text: { type: 'string', description: 'Plain text as sent: render it as text, never as HTML' },
    createdAt: { type: 'string', format: 'date-time' },
    reactions: { type: 'array', items: { type: 'object', required: ['emoji', 'count'], properties: { emoji: { type: 'string' }, count: { type: 'integer' } } } },
  },
} as const;

/** Chat history (src/services/chat/service.ts). Creating messages is websocket-only: POST answers WEBSOCKET_ONLY. */
export async function chatRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { chat } = services;

  app.get(
    '/chat/message',
    {
      ...judgedByService,
      schema: {
        tags: ['chat'],
        operationId: 'chatHistory',
        summary: "A room's chat history, newest first, paged by cursor",
        querystring: {
          type: 'object',
          required: ['room'],
          properties: {
            room: { type: 'string', pattern: ROOM_PATTERN.source, description: '`global`, or `game:<id>` for a game room' },
            cursor: { type: 'string', description: '`nextCursor` of the previous page' },
            limit: { type: 'integer', minimum: 1, maximum: CHAT_LIMITS.historyMaxLimit, default: CHAT_LIMITS.historyDefaultLimit },
          },
        },
        response: {
          200: { type: 'object', required: ['items', 'nextCursor'], properties: { items: { type: 'array', items: message }, nextCursor: { type: ['string', 'null'] } } },
          ...errorResponses(['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS]),
        },
      },
    },
    async (request: FastifyRequest<{ Querystring: Record<string, unknown> }>) => chat.history(request.query),
  );

  const websocketOnly: readonly ErrorCode[] = ['WEBSOCKET_ONLY', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];
  app.post(
    '/chat/message',
    {
      ...judgedByService,
      schema: {
        tags: ['chat'],
        operationId: 'chatSendOverHttp',
        summary: 'Not offered: messages and reactions are sent over a websocket',
        description:
          'Always answers 426 WEBSOCKET_ONLY. Send with Socket.IO at `/socket.io/` (`chat:send { room, text }`, `chat:react { messageId, emoji }`) or graphql-ws at `/graphql` (`sendChatMessage`, `reactToMessage`).',
        body: { type: 'object', properties: { room: { type: 'string' }, text: { type: 'string' } } },
        response: { ...errorResponses(websocketOnly) },
      },
    },
    async (request) => chat.send({ wallet: request.auth?.wallet ?? null, transport: 'http' }, request.body),
  );
}
