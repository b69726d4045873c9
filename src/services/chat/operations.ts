import { operationsOver, type OperationSet } from '../operation';
import { sendInput } from './input';
import { chatMessageModel } from './model';
import type { ChatService } from './service';

type Svc = { chat: ChatService };
const operation = operationsOver<Svc>();

/**
 * Chat writes declared once: the graphql-ws mutation and the Socket.IO event are read from these
 * (over HTTP the service answers WEBSOCKET_ONLY; the REST shim's POST /api/chat/message says so too).
 */
export const chatOperations: OperationSet<Svc> = {
  domain: 'chat',
  operations: [
    operation({
      summary: 'Sends a message (graphql-ws only; a verified wallet)',
      kind: 'mutation',
      // the service judges the caller: WEBSOCKET_ONLY over HTTP first, then UNAUTHENTICATED without a wallet
      access: 'public',
      input: sendInput,
      output: chatMessageModel,
      errors: ['VALIDATION_FAILED', 'WEBSOCKET_ONLY', 'UNAUTHENTICATED', 'CHAT_BANNED', 'RATE_LIMITED'],
      limits: [{ per: 'ip', rate: ({ chat }) => ({ max: chat.messagesPerIpPerWindow, windowMs: chat.windowMs }) }],
      socket: { event: 'chat:send', reply: 'message' },
      graphql: { field: 'sendChatMessage', spread: true },
      handle: ({ chat }, { caller, input, transport }) => chat.send({ wallet: caller.auth?.wallet ?? null, transport }, input),
    }),
  ],
};
