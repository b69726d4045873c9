import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBus, createSharedStore, type SharedStore } from '../../src/store';
import { captureLogger, requireServices, sleep, waitFor } from '../helpers/store';

/**
 * One suite, run against every backend: memory always, Redis when SHARED_STORE_URL is set
 * (e.g. redis://127.0.0.1:6379/15). Without it the Redis run is skipped, unless
 * REQUIRE_SERVICES=1, which turns the absence into a failure.
 */
const redisUrl = process.env.SHARED_STORE_URL;

interface Backend {
  name: 'memory' | 'redis';
  available: boolean;
  /** A store; `prefix` isolates tests from each other on a shared Redis. */
  make(prefix: string): Promise<SharedStore>;
  /** Subscribers on `channel` as the server sees them (Redis only). */
  numsub?(prefix: string, channel: string): Promise<number>;
}

const opened: SharedStore[] = [];
let inspector: Redis | undefined;

const backends: Backend[] = [
  {
    name: 'memory',
    available: true,
    make: async () => track(await createSharedStore({ logger: captureLogger().logger })),
  },
  {
    name: 'redis',
    available: Boolean(redisUrl),
    make: async (prefix) =>
      track(await createSharedStore({ cacheStore: 'redis', url: redisUrl, keyPrefix: prefix, logger: captureLogger().logger })),
    async numsub(prefix, channel) {
      inspector ??= new Redis(redisUrl!);
      const reply = (await inspector.pubsub('NUMSUB', prefix + channel)) as [string, number];
      return Number(reply[1]);
    },
  },
];

function track(store: SharedStore): SharedStore {
  opened.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map(async (s) => {
    await s.delPrefix('').catch(() => undefined);
    await s.close();
  }));
});
afterAll(async () => {
  inspector?.disconnect();
});

if (!redisUrl && requireServices) {
  it('REQUIRE_SERVICES=1 needs SHARED_STORE_URL for the Redis run', () => {
    throw new Error('SHARED_STORE_URL is not set but REQUIRE_SERVICES=1');
  });
}

for (const backend of backends) {
  describe.skipIf(!backend.available)(`shared store on ${backend.name}`, () => {
    const prefix = () => `test:${randomUUID()}:`;

    /** Two stores that stand for two replicas (for memory: one process, one store). */
    async function replicas(): Promise<[SharedStore, SharedStore]> {
      const p = prefix();
      const a = await backend.make(p);
      return backend.name === 'memory' ? [a, a] : [a, await backend.make(p)];
    }

    it('serves from the backend it was configured with', async () => {
      const store = await backend.make(prefix());
      expect(store.kind).toBe(backend.name);
      expect(store.active).toBe(backend.name);
    });

    it('counts 50 parallel hits exactly, across replicas', async () => {
      const [a, b] = await replicas();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).hit('hits', 10_000)));
      expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const r of results) expect(r.resetMs).toBeGreaterThan(9_000);
      expect((await a.hit('hits', 10_000, 5)).count).toBe(55);
      expect((await a.hit('hits', 10_000, 0)).count).toBe(55);
    });

    // Redis only: the memory store has no round trips to save.
    if (backend.name === 'redis')
      it('coalesces parallel hits on one key into fewer round trips, each count still exact', async () => {
      const p = prefix();
      const store = await backend.make(p);
      const monitor = await new Redis(redisUrl!).monitor();
      const charges: string[][] = [];
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase().startsWith('eval') && args[3] === `${p}busy`) charges.push(args);
      });
      try {
        await store.hit('busy', 10_000); // the script is loaded and the window opened
        const costs = Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? 3 : 1));
        const results = await Promise.all(costs.map((cost) => store.hit('busy', 10_000, cost)));
        // every caller its own running total, in order, as if charged one by one
        let total = 1;
        expect(results.map((r) => r.count)).toEqual(costs.map((cost) => (total += cost)));
        expect((await store.hit('busy', 10_000, 0)).count).toBe(total);
        // the monitor reports commands in order: once the last (cost 0) is seen, all were
        await waitFor(() => charges.at(-1)?.[5] === '0', 5_000, 'the last charge in the monitor');
        expect(charges.length).toBeLessThan(50);
        expect(charges.reduce((sum, c) => sum + Number(c[5]), 0)).toBe(total);
      } finally {
        monitor.disconnect();
      }
    });

    it('starts a new window when the old one expires', async () => {
      const store = await backend.make(prefix());
      await store.hit('w', 150);
      const second = await store.hit('w', 150);
      expect(second.count).toBe(2);
      expect(second.resetMs).toBeLessThanOrEqual(150);
      // The window is fixed: later hits do not extend it.
      await sleep(200);
      expect(await store.hit('w', 150)).toMatchObject({ count: 1 });
    });

    it('rejects invalid windows, ttls and costs', async () => {
      const store = await backend.make(prefix());
      await expect(store.hit('x', 0)).rejects.toThrow(RangeError);
      await expect(store.hit('x', 1000, -1)).rejects.toThrow(RangeError);
      await expect(store.set('x', 'v', Number.NaN)).rejects.toThrow(RangeError);
    });

    it('fails an invalid hit alone, never the parallel hits on its key it would have been charged with', async () => {
      const store = await backend.make(prefix());
      const settled = await Promise.allSettled([store.hit('y', 10_000), store.hit('y', 10_000, -1), store.hit('y', 10_000, 1.5), store.hit('y', 10_000), store.hit('y', 10_000)]);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
      expect(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.count] : [])).sort()).toEqual([1, 2, 3]);
      expect((await store.hit('y', 10_000, 0)).count).toBe(3);
    });

    it('gives a lease to exactly one of many parallel holders', async () => {
      const [a, b] = await replicas();
      const holders = Array.from({ length: 20 }, (_, i) => `h${i}`);
      const won = await Promise.all(holders.map((h, i) => (i % 2 ? a : b).acquireLease('lock', h, 5_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
      const owner = holders[won.indexOf(true)];
      const other = holders.find((h) => h !== owner)!;

      expect(await a.acquireLease('lock', owner, 5_000)).toBe(true); // re-entrant
      expect(await b.renewLease('lock', other, 5_000)).toBe(false);
      await b.releaseLease('lock', other); // not the holder: no effect
      expect(await a.acquireLease('lock', other, 5_000)).toBe(false);
      expect(await b.renewLease('lock', owner, 5_000)).toBe(true);
      await a.releaseLease('lock', owner);
      expect(await b.acquireLease('lock', other, 5_000)).toBe(true);
    });

    it('lets a lease lapse after its ttl', async () => {
      const store = await backend.make(prefix());
      expect(await store.acquireLease('lapse', 'a', 100)).toBe(true);
      expect(await store.acquireLease('lapse', 'b', 100)).toBe(false);
      await sleep(150);
      expect(await store.renewLease('lapse', 'a', 100)).toBe(false);
      expect(await store.acquireLease('lapse', 'b', 100)).toBe(true);
    });

    it('counts set members with their own expiry', async () => {
      const [a, b] = await replicas();
      expect(await a.addMember('conns', 'c1', 5_000)).toBe(1);
      expect(await b.addMember('conns', 'c2', 100)).toBe(2);
      expect(await a.addMember('conns', 'c1', 5_000)).toBe(2); // refresh, not a new member
      expect((await b.members('conns')).sort()).toEqual(['c1', 'c2']);
      await sleep(150);
      expect(await a.members('conns')).toEqual(['c1']);
      expect(await b.addMember('conns', 'c3', 5_000)).toBe(2);
      expect(await a.removeMember('conns', 'c1')).toBe(1);
      expect(await a.removeMember('conns', 'missing')).toBe(1);
      expect(await b.removeMember('conns', 'c3')).toBe(0);
      expect(await a.members('conns')).toEqual([]);
      expect(await a.members('never')).toEqual([]);
    });

    it('renews many members in one call: the renewed outlive the rest', async () => {
      const [a, b] = await replicas();
      for (const m of ['m1', 'm2', 'm3']) await a.addMember('hb', m, 200);
      expect(await b.addMembers('hb', ['m1', 'm3', 'm4'], 60_000)).toBe(4);
      expect(await a.addMembers('hb', [], 60_000)).toBe(4);
      await waitFor(async () => (await a.members('hb')).length === 3, 5_000, 'the unrenewed member to expire');
      expect((await b.members('hb')).sort()).toEqual(['m1', 'm3', 'm4']);
      const many = Array.from({ length: 2_500 }, (_, i) => `conn-${i}`);
      expect(await a.addMembers('hb-many', many, 60_000)).toBe(2_500);
      await expect(a.addMembers('hb', ['x'], 0)).rejects.toThrow(RangeError);
    });

    it('caches values with a ttl and deletes by key and prefix', async () => {
      const [a, b] = await replicas();
      await a.set('c:1', 'one', 5_000);
      await a.set('c:2', 'two', 5_000);
      await a.set('c:short', 'x', 80);
      await a.set('other', 'keep', 5_000);
      expect(await b.get('c:1')).toBe('one');
      expect(await b.get('missing')).toBeNull();
      await sleep(120);
      expect(await b.get('c:short')).toBeNull();
      await b.del('c:1', 'missing');
      expect(await a.get('c:1')).toBeNull();
      await b.delPrefix('c:');
      expect(await a.get('c:2')).toBeNull();
      expect(await a.get('other')).toBe('keep');
    });

    it('delivers published messages to subscribers on other replicas, until they unsubscribe', async () => {
      const [a, b] = await replicas();
      const got: string[] = [];
      const unsubscribe = await b.subscribe('news', (m) => got.push(m));
      const also: string[] = [];
      const unsubscribeToo = await a.subscribe('news', (m) => also.push(m));
      await a.publish('news', 'one');
      await a.publish('elsewhere', 'ignored');
      await waitFor(() => got.length === 1 && also.length === 1, 2_000, 'delivery');
      await unsubscribe();
      await a.publish('news', 'two');
      await waitFor(() => also.length === 2, 2_000, 'second delivery');
      expect(got).toEqual(['one']);
      expect(also).toEqual(['one', 'two']);
      await unsubscribeToo();
    });

    it('keeps delivering to other subscribers when one throws', async () => {
      const store = await backend.make(prefix());
      const got: string[] = [];
      await store.subscribe('t', () => {
        throw new Error('subscriber bug');
      });
      await store.subscribe('t', (m) => got.push(m));
      await store.publish('t', 'still');
      await waitFor(() => got.length === 1, 2_000, 'delivery');
    });

    it('carries type-graphql PubSub events between replicas and cleans up on break', async () => {
      const p = prefix();
      const [a, b] = backend.name === 'memory' ? await replicas() : [await backend.make(p), await backend.make(p)];
      const { logger } = captureLogger();
      const pubA = createBus(a, { logger }).pubSub;
      const pubB = createBus(b, { logger }).pubSub;

      const sub = pubB.subscribe('MESSAGE_ADDED', 'room-1');
      const otherRoom = pubB.subscribe('MESSAGE_ADDED', 'room-2');
      await Promise.all([sub.ready, otherRoom.ready]);
      if (backend.numsub) expect(await backend.numsub(p, 'MESSAGE_ADDED:room-1')).toBe(1);

      await pubA.publish('MESSAGE_ADDED', 'room-1', { text: 'hi', n: 1 });
      await pubA.publish('MESSAGE_ADDED', 'room-1', { text: 'again', n: 2 });
      const received: unknown[] = [];
      for await (const payload of sub) {
        received.push(payload);
        if (received.length === 2) break;
      }
      expect(received).toEqual([
        { text: 'hi', n: 1 },
        { text: 'again', n: 2 },
      ]);
      expect(await sub.next()).toEqual({ value: undefined, done: true });
      if (backend.numsub) expect(await backend.numsub(p, 'MESSAGE_ADDED:room-1')).toBe(0);

      // The other room saw nothing and ends cleanly while waiting.
      const pending = otherRoom.next();
      await otherRoom.return();
      expect(await pending).toEqual({ value: undefined, done: true });
      if (backend.numsub) expect(await backend.numsub(p, 'MESSAGE_ADDED:room-2')).toBe(0);
    });

    it('supports topics without an id and payloads of any JSON shape', async () => {
      const store = await backend.make(prefix());
      const pubsub = createBus(store, { logger: captureLogger().logger }).pubSub;
      const sub = pubsub.subscribe('PRICES');
      await sub.ready;
      await pubsub.publish('PRICES', [1, 2]);
      await pubsub.publish('PRICES', 'plain');
      await pubsub.publish('PRICES', undefined);
      const values = [await sub.next(), await sub.next(), await sub.next()].map((r) => r.value);
      expect(values).toEqual([[1, 2], 'plain', null]);
      await sub.return();
    });
  });
}
