import type { ErrorCode, ErrorDetails } from './errors.js';

// The payloads of docs/realtime.md, the same on both transports (a type test holds them equal to the server's).

/** A chat message (`chat:message`, `chatMessages`, the answer to a send). */
export interface ChatMessage {
  id: string;
  room: string;
  /** The author's wallet. */
  author: string;
  /** As sent: render it as text, never as HTML. */
  text: string;
  /** ISO 8601. */
  createdAt: string;
  reactions: Array<{ emoji: string; count: number }>;
}

/** A reaction added to a message (`chat:reaction`, `chatReactions`). */
export interface ChatReaction {
  messageId: string;
  room: string;
  emoji: string;
  /** The reacting wallet. */
  user: string;
  /** Reactions with this emoji on the message, this one included. */
  count: number;
}

/** A message an operator removed: drop it from what is shown. */
export interface ChatRemoval {
  id: string;
  room: string;
  removedAt: string;
}

/** Someone is typing in a room (debounced by the API). */
export interface Typing {
  room: string;
  user: string;
  at: string;
}

/** Who is in a room (`presence` on both transports; also in the join acknowledgement). */
export interface Presence {
  room: string;
  /** Distinct users in the room, on every replica. */
  online: number;
  /** Distinct users connected to the gateway. */
  total: number;
}

/** A game event of the activity feed (`activity` on both transports). */
export interface Activity {
  kind: string;
  player: string;
  summary: string;
  at: string;
}

/** A refusal as a Socket.IO acknowledgement carries it. */
export interface AckError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails<ErrorCode>;
}

/** Every acknowledgement: `{ ok: true, … }` or `{ ok: false, error }`. */
export type Ack<T> = ({ ok: true } & T) | { ok: false; error: AckError };

/** `room:join` acknowledged: the room and its presence. */
export interface JoinAck {
  room: string;
  presence: Presence;
}
/** `room:leave` acknowledged. */
export interface LeaveAck {
  room: string;
}
/** `chat:send` acknowledged: the stored message (the first one, for a repeated `clientId`). */
export interface SendAck {
  message: ChatMessage;
}
/** `chat:react` acknowledged: the reaction and its count. */
export interface ReactAck {
  reaction: ChatReaction;
}
/** `typing` acknowledged. */
export interface TypingAck {
  room: string;
  /** false: absorbed by the debounce, not sent out. */
  broadcast: boolean;
}

/** The payload of `chat:send`. */
export interface SendPayload {
  room: string;
  text: string;
  /** 1–64 of `A-Za-z0-9._:-`: a retry with the same id returns the first message. */
  clientId?: string;
}

/** Client events and their acknowledgements (socket.io-client's typing of `emit`). */
export interface ClientToServerEvents {
  'room:join': (payload: { room: string }, ack: (reply: Ack<JoinAck>) => void) => void;
  'room:leave': (payload: { room: string }, ack: (reply: Ack<LeaveAck>) => void) => void;
  'chat:send': (payload: SendPayload, ack: (reply: Ack<SendAck>) => void) => void;
  'chat:react': (payload: { messageId: string; emoji: string }, ack: (reply: Ack<ReactAck>) => void) => void;
  typing: (payload: { room: string }, ack: (reply: Ack<TypingAck>) => void) => void;
}

/** Server events: room events to the sockets in the room, `activity` to every socket. */
export interface ServerToClientEvents {
  'chat:message': (message: ChatMessage) => void;
  'chat:removed': (removal: ChatRemoval) => void;
  'chat:reaction': (reaction: ChatReaction) => void;
  typing: (typing: Typing) => void;
  presence: (presence: Presence) => void;
  activity: (activity: Activity) => void;
}

/** What a room's subscriber hears; any handler may be left out (nothing is subscribed for it). */
export interface RoomHandlers {
  message?: (message: ChatMessage) => void;
  removed?: (removal: ChatRemoval) => void;
  reaction?: (reaction: ChatReaction) => void;
  typing?: (typing: Typing) => void;
  presence?: (presence: Presence) => void;
  /** A subscription of the room failed for good (graphql-ws) or the socket gave up reconnecting. */
  error?: (error: Error) => void;
}

/** A room joined through a ChatConnection; `leave()` ends its handlers (and its subscriptions over graphql-ws). */
export interface JoinedRoom {
  room: string;
  leave(): Promise<void>;
}

/** Chat over either transport: the same calls, payloads and errors. */
export interface ChatConnection {
  readonly transport: 'graphql-ws' | 'socket.io';
  join(room: string, handlers: RoomHandlers): Promise<JoinedRoom>;
  /** `clientId` is generated when not given, and reused when the send is retried after a time-out. */
  send(room: string, text: string, opts?: { clientId?: string }): Promise<ChatMessage>;
  react(messageId: string, emoji: string): Promise<ChatReaction>;
  typing(room: string): Promise<TypingAck>;
  /** The activity feed (every game event), until the returned function is called. */
  activity(listener: (activity: Activity) => void): () => void;
  close(): Promise<void>;
}

/** A `clientId` for an idempotent send: a random UUID. */
export function newClientId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
    const r = (Math.random() * 16) | 0;
    return (ch === 'x' ? r : (r & 3) | 8).toString(16);
  });
}
