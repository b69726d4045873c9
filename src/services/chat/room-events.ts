import { defineChannelFamily } from '../../store';

/**
 * What travels on a room's channel in the shared store: one tagged event per publish, the same
 * payload for every transport (graphql-ws subscriptions and Socket.IO events).
 */
export interface ChatMessageView {
  id: string;
  room: string;
  /** The author's wallet. */
  author: string;
  /** As sent (validated); clients render it as text, never as HTML. */
  text: string;
  createdAt: string;
  reactions: Array<{ emoji: string; count: number }>;
}

export interface ChatReactionView {
  messageId: string;
  room: string;
  emoji: string;
  /** The reacting wallet. */
  user: string;
  /** Reactions with this emoji on the message, this one included. */
  count: number;
}

export interface TypingView {
  room: string;
  user: string;
  at: string;
}

export interface PresenceView {
  room: string;
  /** Distinct users (a wallet, or an anonymous connection) in the room on every replica. */
  online: number;
  /** Distinct users connected to the gateway on every replica. */
  total: number;
}

/** A message an operator removed: clients drop it from what they show. */
export interface ChatRemovalView {
  id: string;
  room: string;
  removedAt: string;
}

export type RoomEvent =
  | { type: 'message'; message: ChatMessageView }
  | { type: 'removed'; removed: ChatRemovalView }
  | { type: 'reaction'; reaction: ChatReactionView }
  | { type: 'typing'; typing: TypingView }
  | { type: 'presence'; presence: PresenceView };

/** A room's channel on the bus (`rt:room:<room>` in the store). */
export const roomChannel = defineChannelFamily<RoomEvent>('rt:room');

/** Who performs a chat action and over which transport (writes are websocket-only). */
export interface ChatCaller {
  wallet: string | null;
  transport: 'http' | 'websocket';
}
