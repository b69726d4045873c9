// Caches of short-lived answers let go of expired entries every 1,000th write, instead of holding
// them until their size bound evicts them.
import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { staleSweeper } from '../../src/store/stale-purge';
import { until } from '../helpers/until';

describe('staleSweeper', () => {
  it('drops the expired entries on every 1,000th write and keeps the live ones', async () => {
    const cache = new LRUCache<string, string>({ maxSize: 1024 * 1024, sizeCalculation: (v) => v.length });
    const wrote = staleSweeper(cache);
    for (let i = 0; i < 50; i++) cache.set(`old-${i}`, 'x'.repeat(100), { ttl: 1 });
    await until(() => cache.getRemainingTTL('old-0') <= 0 && cache.getRemainingTTL('old-49') <= 0, 'the old entries expired');
    for (let i = 0; i < 999; i++) {
      cache.set(`live-${i % 10}`, 'y', { ttl: 60_000 });
      wrote();
    }
    // lru-cache alone still holds the expired entries (and counts their size)
    expect(cache.size).toBe(60);
    expect(cache.calculatedSize).toBe(50 * 100 + 10);
    cache.set('live-last', 'y', { ttl: 60_000 });
    wrote();
    expect(cache.size).toBe(11);
    expect(cache.calculatedSize).toBe(11);
    expect(cache.get('live-3')).toBe('y');
  });
});
