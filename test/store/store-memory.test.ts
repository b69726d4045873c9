import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../../src/store';
import { captureLogger, sleep } from '../helpers/store';

/** The per-process store's bounds: it must not grow without limit under a flood of keys. */
const opened: MemoryStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function open(maxKeys: number, log = captureLogger()): MemoryStore {
  const store = createMemoryStore({ logger: log.logger, maxKeys });
  opened.push(store);
  return store;
}

describe('memory store bounds', () => {
  it('evicts least recently used keys beyond maxKeys', async () => {
    const log = captureLogger();
    const store = open(100, log);
    await store.set('hot', 'keep', 60_000);
    for (let i = 0; i < 1_000; i++) {
      await store.hit(`ip:${i}`, 60_000);
      if (i % 50 === 0) await store.get('hot'); // recently used: survives
      expect(store.size).toBeLessThanOrEqual(100);
    }
    expect(await store.get('hot')).toBe('keep');
    expect((await store.hit('ip:999', 60_000)).count).toBe(2);
    expect((await store.hit('ip:0', 60_000)).count).toBe(1); // evicted long ago
    expect(log.infos().filter((l) => l.msg.startsWith('memory store full'))).toHaveLength(1);
  });

  it('counts set members against the budget', async () => {
    const store = open(50);
    for (let i = 0; i < 10; i++) await store.set(`k${i}`, 'v', 60_000);
    let count = 0;
    for (let i = 0; i < 500; i++) count = await store.addMember('presence', `m${i}`, 60_000);
    expect(store.size).toBeLessThanOrEqual(50);
    expect(count).toBe(49); // the set key itself weighs one
    expect(await store.get('k0')).toBeNull();
    // The newest members are kept; the ones nearest expiry went first.
    expect(await store.members('presence')).toContain('m499');
  });

  it('sweeps expired entries without being asked for them', async () => {
    const store = open(1_000);
    for (let i = 0; i < 200; i++) await store.set(`short:${i}`, 'v', 20);
    await store.addMember('s', 'a', 20);
    await store.addMember('s', 'b', 60_000);
    expect(store.size).toBe(203);
    await sleep(40);
    store.sweep();
    expect(store.size).toBe(2); // the set key and its live member
    expect(await store.members('s')).toEqual(['b']);
  });

  it('refuses to mix counters and sets under one key, as Redis does', async () => {
    const store = open(10);
    await store.addMember('k', 'm', 1_000);
    await expect(store.hit('k', 1_000)).rejects.toThrow(/WRONGTYPE/);
    await store.set('lease', 'holder', 1_000);
    await expect(store.hit('lease', 1_000)).rejects.toThrow(/not an integer/);
  });
});
