import { z } from 'zod';
import { named } from '../model-names';

/** How many users reacted to a message with one emoji. */
const reactionCountModel = named('ReactionCount', z.object({ emoji: z.string(), count: z.int() }).describe('How many users reacted to a message with one emoji'));

/** A message as every transport answers and broadcasts it (the shape of ChatMessageView in ./room-events.ts). */
export const chatMessageModel = named(
  'ChatMessage',
  z
    .object({
      id: named('ID', z.string()),
      room: z.string().describe('`global` or `game:<id>`'),
      author: z.string().describe("The author's wallet"),
      text: z.string(),
      createdAt: named('DateTimeISO', z.iso.datetime()),
      reactions: z.array(reactionCountModel),
    })
    .describe('A chat message. `text` is plain text as sent: render it as text, never as HTML.'),
);

/** A reaction added to a message (the answer to a reaction and its broadcast). */
export const chatReactionModel = named(
  'ChatReaction',
  z
    .object({
      messageId: named('ID', z.string()),
      room: z.string(),
      emoji: z.string(),
      user: z.string().describe('The reacting wallet'),
      count: z.int().describe('Reactions with this emoji on the message, this one included'),
    })
    .describe('A reaction added to a message'),
);

/** The answer to a typing signal. */
export const typingReceiptModel = named(
  'TypingReceipt',
  z
    .object({
      room: z.string(),
      broadcast: z.boolean().describe('false: absorbed by the debounce (a broadcast for this user and room went out moments ago)'),
    })
    .describe('The answer to sendTyping'),
);
