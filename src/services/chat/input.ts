import { z } from 'zod';
import { isStorableText } from '../../input/storable-text';
import { named } from '../model-names';

/**
 * The chat's per-event limits (all far below the 16 KiB websocket frame limit; the per-wallet
 * rate limits are settings, CHAT.*) and its input
 * rules, defined once: the graphql-ws mutations, the Socket.IO events and the REST history route
 * are all judged here.
 */
export const CHAT_LIMITS = {
  /** Characters of one message, as users count them (graphemes: a family emoji is one). */
  textMaxChars: 500,
  /** UTF-8 bytes of one message: bounds what many-code-point graphemes could add. */
  textMaxBytes: 2_000,
  /** UTF-8 bytes of one reaction's emoji (one grapheme: flags and ZWJ sequences run long). */
  emojiMaxBytes: 32,
  historyDefaultLimit: 50,
  historyMaxLimit: 100,
} as const;

export const GLOBAL_ROOM = 'global';
/** `global`, or `game:<id>` for a game's own room (lower-case letters, digits, `-`, `_`; up to 64). */
export const ROOM_PATTERN = /^(?:global|game:[a-z0-9][a-z0-9_-]{0,63})$/;

// C0 and C1 controls except tab and newline; bidirectional overrides and isolates, which make
// one user's text display as another's (spoofing).
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const FORBIDDEN_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemeCount = (s: string) => {
  let n = 0;
  for (const _ of graphemes.segment(s)) n += 1;
  return n;
};

export const roomName = z.string().regex(ROOM_PATTERN, 'Room must be "global" or "game:<id>" (a-z, 0-9, "-", "_"; up to 64)');

export const messageText = z
  .string()
  .refine(isStorableText, 'Text must not contain NUL characters or unpaired UTF-16 surrogates')
  .transform((t) => t.normalize('NFC'))
  .refine((t) => t.trim().length > 0, 'Text must not be empty')
  .refine((t) => graphemeCount(t) <= CHAT_LIMITS.textMaxChars, `Text must be at most ${CHAT_LIMITS.textMaxChars} characters`)
  .refine((t) => utf8Bytes(t) <= CHAT_LIMITS.textMaxBytes, `Text must be at most ${CHAT_LIMITS.textMaxBytes} bytes (UTF-8)`)
  .refine((t) => !FORBIDDEN_CHARS.test(t), 'Text must not contain control characters (other than newline and tab) or bidirectional overrides');

export const emoji = z
  .string()
  .refine((e) => utf8Bytes(e) <= CHAT_LIMITS.emojiMaxBytes, `Emoji must be at most ${CHAT_LIMITS.emojiMaxBytes} bytes`)
  .refine((e) => [...graphemes.segment(e)].length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(e), 'Emoji must be a single emoji');

/**
 * A sender's idempotency key: a repeat of (author, clientId) returns the first message instead of
 * posting again. Clients keep one unique per author for at least 24 h (a UUID per message); the
 * server remembers it as long as the message is stored (messages are not pruned), so a later
 * repeat still returns the first message.
 */
const clientId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'clientId must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-" (a UUID fits)')
  .describe('Your id for this message (a UUID; unique per sender for at least 24 h): a retry with the same id returns the first message and posts nothing');

export const sendInput = z.object({ room: roomName, text: messageText, clientId: clientId.optional() }).strict();
export const reactInput = z.object({ messageId: named('ID', z.string().regex(/^[1-9]\d{0,18}$/, 'messageId must be a message id')), emoji }).strict();
export const roomInput = z.object({ room: roomName }).strict();
export const historyInput = z
  .object({
    room: roomName,
    cursor: z.string().regex(/^[1-9]\d{0,18}$/, 'cursor must be the nextCursor of a previous page').optional(),
    limit: z.coerce.number().int().min(1).max(CHAT_LIMITS.historyMaxLimit).optional(),
  })
  .strict();
