import { describe, expect, it } from 'vitest';
import { emoji, messageText, roomName, CHAT_LIMITS } from '../../src/services/chat/input';

describe('chat input rules', () => {
  it('accepts plain text with newlines, tabs and emoji, normalized to NFC', () => {
    expect(messageText.parse('a\nb\tc 🎲')).toBe('a\nb\tc 🎲');
    expect(messageText.parse('e\u0301')).toBe('\u00e9');
  });

  it.each([
    ['empty', ''],
    ['blank', ' \n '],
    ['too many characters', 'x'.repeat(CHAT_LIMITS.textMaxChars + 1)],
    ['too many bytes', '👩‍👩‍👧'.repeat(150)],
    ['a control character', 'a\u001bb'],
    ['a C1 control', 'a\u0085b'],
    ['a bidirectional override', 'a\u202eb'],
    ['a NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('refuses %s', (_what, text) => {
    expect(messageText.safeParse(text).success).toBe(false);
  });

  it('exactly the limits are accepted; characters are counted as users see them', () => {
    expect(messageText.safeParse('x'.repeat(CHAT_LIMITS.textMaxChars)).success).toBe(true);
    expect(messageText.safeParse('🎲'.repeat(CHAT_LIMITS.textMaxChars)).success).toBe(true); // 2,000 bytes
    expect(messageText.safeParse('👩‍👩‍👧'.repeat(100)).success).toBe(true); // 100 characters, 1,800 bytes
  });

  it('rooms: global and game:<id> only', () => {
    for (const ok of ['global', 'game:dice', 'game:a_1-b']) expect(roomName.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['Global', 'game:', 'game:Dice', 'lobby', 'game:' + 'x'.repeat(65), 'global ']) expect(roomName.safeParse(bad).success, bad).toBe(false);
  });

  it('reactions: one emoji grapheme (ZWJ sequences and flags included)', () => {
    for (const ok of ['👍', '🔥', '👩‍👩‍👧', '🇫🇷', '❤️']) expect(emoji.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', 'a', '👍👍', ':+1:', '<b>']) expect(emoji.safeParse(bad).success, bad).toBe(false);
  });
});
