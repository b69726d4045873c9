// Kept bytes (cached answers, subscription envelopes) sit in memory of their own: a small
// `Buffer.from` is a slice of Node's shared pool, and keeping it keeps the whole slab alive.
import { describe, expect, it } from 'vitest';
import { ownedBytes } from '../../src/owned-bytes';

describe('ownedBytes', () => {
  it('holds the UTF-8 bytes of the text, multi-byte characters included', () => {
    for (const text of ['', '{"data":{"prices":null}}', 'žluťoučký kůň 🐎']) expect(ownedBytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('owns its memory where Buffer.from of the same small text is a slice of the shared pool', () => {
    const text = `{"data":{"leaderboard":[${'{"rank":1},'.repeat(40)}]}}`;
    const owned = ownedBytes(text);
    expect(owned.buffer.byteLength).toBe(owned.length);
    expect(owned.byteOffset).toBe(0);
    const pooled = Buffer.from(text);
    expect(pooled.buffer.byteLength).toBe(Buffer.poolSize);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length * 10);
  });
});
