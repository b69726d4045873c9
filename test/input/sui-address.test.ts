import { describe, expect, it } from 'vitest';
import { suiAddress } from '../../src/input/sui-address';

describe('suiAddress: the one address rule of every input', () => {
  const schema = suiAddress('player must be a Sui address');

  it('normalizes short and mixed-case forms to 0x + 64 lowercase hex digits', () => {
    expect(schema.parse('0x2')).toBe(`0x${'0'.repeat(63)}2`);
    expect(schema.parse(`0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
  });

  it('refuses what is not an address, naming the field', () => {
    for (const bad of ['2', '0x', `0x${'1'.repeat(65)}`, '0xg1', ' 0x1', 42]) {
      const result = schema.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
    }
    expect(schema.safeParse('0xzz').error?.issues[0]?.message).toBe('player must be a Sui address: 0x followed by up to 64 hex digits');
  });
});
