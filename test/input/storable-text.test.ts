import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText } from '../../src/input/storable-text';

describe('text PostgreSQL can store', () => {
  it('refuses NUL and unpaired surrogates, accepts paired ones', () => {
    expect(isStorableText('plain, ünïcödé and 🎲')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800b')).toBe(false);
    expect(isStorableText('a\udc00')).toBe(false);
    expect(isStorableText('\ud83c\udfb2')).toBe(true);
  });

  it('names the path of the first bad string or key, however deep', () => {
    expect(findUnstorableText({ a: [1, 'ok', { b: 'x\u0000' }] }, 'variables')).toBe('variables.a[2].b');
    expect(findUnstorableText({ ['k\u0000']: 1 }, 'body')).toBe('body.k\uFFFD');
    expect(findUnstorableText('\ud800')).toBe('(value)');
    expect(findUnstorableText({ a: ['fine', null, 3, true] })).toBeNull();
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep, 'v')).toBe(`v${'[0]'.repeat(100_000)}`);
  });
});
