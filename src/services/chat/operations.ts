import { operationsOver, type OperationSet } from '../operation';
import { reactInput, roomInput, sendInput } from './input';
import { chatMessageModel, chatReactionModel, typingReceiptModel } from './model';
import type { ChatService } from './service';

type Svc = { chat: ChatService };
const operation = operationsOver<Svc>();

/**
 * Chat writes declared once (messages, reactions, typing): the graphql-ws mutation and the Socket.IO event are read from these
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
    operation({
      summary: 'Reacts to a message with one emoji (graphql-ws only); repeating it changes nothing',
      kind: 'mutation',
      access: 'public',
      input: reactInput,
      output: chatReactionModel,
      errors: ['VALIDATION_FAILED', 'WEBSOCKET_ONLY', 'UNAUTHENTICATED', 'CHAT_BANNED', 'NOT_FOUND', 'RATE_LIMITED'],
      socket: { event: 'chat:react', reply: 'reaction' },
      graphql: { field: 'reactToMessage', spread: true },
      handle: ({ chat }, { caller, input, transport }) => chat.react({ wallet: caller.auth?.wallet ?? null, transport }, input),
    }),
    operation({
      summary: 'Says the caller is typing in a room (graphql-ws only); debounced per user and room',
      kind: 'mutation',
      access: 'public',
      input: roomInput,
      output: typingReceiptModel,
      errors: ['VALIDATION_FAILED', 'WEBSOCKET_ONLY', 'UNAUTHENTICATED', 'CHAT_BANNED'],
      // the acknowledgement carries the receipt's fields themselves: `{ ok: true, room, broadcast }`
      socket: { event: 'typing' },
      graphql: { field: 'sendTyping', spread: true },
      handle: ({ chat }, { caller, input, transport }) => chat.typing({ wallet: caller.auth?.wallet ?? null, transport }, input),
    }),
  ],
};
