/** Sliced delivery (src/store/slices.ts): a large broadcast yields to the event loop between slices, and jobs stay in order. */
import { describe, expect, it } from 'vitest';
import { createSliceQueue } from '../../src/store/slices';
import { until } from '../helpers/until';

describe('the slice queue', () => {
  it('runs a job within one slice at once, when nothing is queued', () => {
    const run = createSliceQueue(3);
    const seen: number[] = [];
    run([1, 2, 3], (items) => seen.push(...items));
    expect(seen).toEqual([1, 2, 3]);
  });

  it('serves the event loop between the slices of a large job, and starts a later job only after it, in order', async () => {
    const run = createSliceQueue(2);
    const log: string[] = [];
    run([1, 2, 3, 4, 5], (items) => log.push(`a${items.join('')}`));
    // a small job behind a queued one waits its turn: each subscriber gets events in order
    run([9], (items) => log.push(`b${items.join('')}`));
    expect(log).toEqual(['a12']);
    setImmediate(() => log.push('turn'));
    await until(() => log.includes('b9'), 'both jobs done');
    expect(log.filter((l) => l !== 'turn')).toEqual(['a12', 'a34', 'a5', 'b9']);
    expect(log.indexOf('turn')).toBeLessThan(log.indexOf('b9'));
  });

  it('goes on with later slices when one throws', async () => {
    const run = createSliceQueue(1);
    const seen: number[] = [];
    expect(() =>
      run([1, 2], (items) => {
        if (items[0] === 1) throw new Error('listener failed');
        seen.push(...items);
      }),
    ).toThrow('listener failed');
    await until(() => seen.length === 1, 'the second slice ran');
    expect(seen).toEqual([2]);
  });
});
