/** The response cache's local tier: this process's own fills are read from memory until the expiry they were written with; others' come from the shared cache. */
import { describe, expect, it } from 'vitest';
import { localFillsFirst, type KeyValueCache } from '../../src/store/kv-cache';
import { until } from '../helpers/until';

function sharedCache() {
  const entries = new Map<string, string>();
  const reads: string[] = [];
  const cache: KeyValueCache = {
    get: async (key) => (reads.push(key), entries.get(key)),
    set: async (key, value) => void entries.set(key, value),
    delete: async (key) => entries.delete(key),
  };
  return { cache, entries, reads };
}

describe('local fills first', () => {
  it('serves its own fill without a shared read, until the fill expires; others’ fills from the shared cache', async () => {
    const shared = sharedCache();
    const cache = localFillsFirst(shared.cache);
    await cache.set('mine', 'v1', { ttl: 0.2 });
    expect(shared.entries.get('mine')).toBe('v1');
    expect(await cache.get('mine')).toBe('v1');
    expect(shared.reads).toEqual([]);

    shared.entries.set('theirs', 'v2');
    expect(await cache.get('theirs')).toBe('v2');
    expect(shared.reads).toEqual(['theirs']);

    // Past its ttl the local copy is gone: the shared cache decides (here, it still has the entry).
    await until(async () => (await cache.get('mine'), shared.reads.includes('mine')), 'the local copy to expire', 5_000);

    await cache.set('kept', 'v3'); // no ttl (a persisted query): kept until evicted
    await cache.delete('kept');
    expect(await cache.get('kept')).toBeUndefined();
    expect(shared.entries.has('kept')).toBe(false);
  });
});
