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
