// The client package's hand-written types against the server's: a change on either side that makes them differ
// fails `npm run typecheck` (these assertions are types), and the test below checks the code list at run time too.
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors';
import type { ActivityMessage } from '../../src/services/activity';
import type { ChatMessageView, ChatReactionView, ChatRemovalView, PresenceView, TypingView } from '../../src/services/chat';
import { SERVER_ERROR_CODES, type ServerErrorCode } from '../../packages/client/src/errors';
import type { Activity, ChatMessage, ChatReaction, ChatRemoval, Presence, Typing } from '../../packages/client/src/realtime';
import type {
  ActivitySubscription,
  ChatMessageRemovedSubscription,
  ChatMessagesSubscription,
  ChatReactionsSubscription,
  PresenceChangesSubscription,
  SendChatMessageMutation,
  TypingSubscription,
} from '../../packages/client/src/generated/graphql';

/** true only when A and B are the same type (each assignable to the other, also in nested fields). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_: Same<A, B>) => undefined;

// the codes
same<ServerErrorCode, ErrorCode>(true);

// Socket.IO payloads: the server's views, the same on both transports
same<ChatMessage, ChatMessageView>(true);
same<ChatReaction, ChatReactionView>(true);
same<ChatRemoval, ChatRemovalView>(true);
same<Typing, TypingView>(true);
same<Presence, PresenceView>(true);
same<Activity, ActivityMessage>(true);

// graphql-ws payloads (the operation documents' selections) are the same shapes
type Plain<T> = { [K in keyof T as K extends '__typename' ? never : K]: T[K] extends Array<infer E> ? Array<Plain<E>> : T[K] };
same<Plain<ChatMessagesSubscription['chatMessages']>, ChatMessage>(true);
same<Plain<SendChatMessageMutation['sendChatMessage']>, ChatMessage>(true);
same<Plain<ChatReactionsSubscription['chatReactions']>, ChatReaction>(true);
same<Plain<ChatMessageRemovedSubscription['chatMessageRemoved']>, ChatRemoval>(true);
same<Plain<TypingSubscription['typing']>, Typing>(true);
same<Plain<PresenceChangesSubscription['presence']>, Presence>(true);
same<Plain<ActivitySubscription['activity']>, Activity>(true);

describe('client contract', () => {
  it('lists the server’s error codes, in its order', () => {
    expect([...SERVER_ERROR_CODES]).toEqual(Object.keys(ERROR_STATUS));
  });
});
