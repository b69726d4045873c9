import { afterEach, describe, expect, it } from 'vitest';
import { createSharedStore, type SharedStore } from '../../src/store';
import { captureLogger, freePort, hasRedisServer, requireServices, sleep, ThrowawayRedis, waitFor } from '../helpers/store';

/**
 * Fallback: with Redis unset, unreachable at start, killed or hung while running, every
 * operation keeps working on per-process memory, exactly one warning marks the outage and
 * one info line its end.
 */
const opened: SharedStore[] = [];
const servers: ThrowawayRedis[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const s of servers.splice(0)) {
    s.resume();
    await s.kill();
  }
});

async function open(opts: Parameters<typeof createSharedStore>[0]): Promise<SharedStore> {
  const store = await createSharedStore({ retryMaxDelayMs: 100, ...opts });
  opened.push(store);
  return store;
}

async function throwaway(): Promise<ThrowawayRedis> {
  const server = await ThrowawayRedis.start();
  servers.push(server);
  return server;
}

/** Runs `op` and returns how long it took. */
async function timed(op: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await op();
  return performance.now() - t;
}

const outageWarnings = (lines: ReturnType<typeof captureLogger>) =>
  lines.warnings().filter((l) => l.msg.startsWith('shared store unreachable'));
const recoveries = (lines: ReturnType<typeof captureLogger>) => lines.infos().filter((l) => l.msg.startsWith('shared store reachable again'));

describe('shared store fallback', () => {
  it('uses memory with one info line when Redis is not configured', async () => {
    const log = captureLogger();
    const store = await open({ logger: log.logger, url: 'redis://127.0.0.1:6379/15' });
    expect(store.kind).toBe('memory');
    expect(log.infos()).toHaveLength(1);
    expect(log.warnings()).toHaveLength(0);
    expect((await store.hit('k', 1000)).count).toBe(1);
  });

  it('warns once when CACHE_STORE is redis but no address is given', async () => {
    const log = captureLogger();
    const store = await open({ cacheStore: 'redis', logger: log.logger });
    expect(store.kind).toBe('memory');
    expect(log.warnings()).toHaveLength(1);
  });

  it('serves from memory when Redis is unreachable at start, with exactly one warning', async () => {
    const log = captureLogger();
    const port = await freePort(); // nothing listens there
    const started = performance.now();
    const store = await open({ cacheStore: 'redis', host: '127.0.0.1', port, password: 'hunter22', logger: log.logger });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(store.kind).toBe('redis');
    expect(store.active).toBe('memory');

    const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit('ip:1', 60_000)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await store.acquireLease('lock', 'me', 1_000)).toBe(true);
    expect(await store.addMember('conns', 'c1', 1_000)).toBe(1);
    const got: string[] = [];
    await store.subscribe('ch', (m) => got.push(m));
    await store.publish('ch', 'local');
    await waitFor(() => got.length === 1, 1_000, 'local delivery');

    // Reconnect attempts keep failing in the background: still one warning.
    await sleep(400);
    for (let i = 0; i < 20; i++) expect(await timed(() => store.hit('ip:1', 60_000))).toBeLessThan(50);
    expect(outageWarnings(log)).toHaveLength(1);
    expect(log.warnings()).toHaveLength(1);
    expect(JSON.stringify(log.lines)).not.toContain('hunter22');
  });
});

describe.skipIf(!hasRedisServer && !requireServices)('shared store fallback with a throwaway Redis', () => {
  it('keeps serving when Redis dies mid-run and returns to it when it comes back', async () => {
    const server = await throwaway();
    const log = captureLogger();
    const a = await open({ cacheStore: 'redis', url: server.url, logger: log.logger });
    const b = await open({ cacheStore: 'redis', url: server.url, logger: captureLogger().logger });
    expect(a.active).toBe('redis');
    const seen: string[] = [];
    await b.subscribe('events', (m) => seen.push(m));

    await a.hit('ip:1', 60_000);
    await a.publish('events', 'before');
    await waitFor(() => seen.includes('before'), 2_000, 'cross-replica delivery');
    const inspect = server.client();
    expect(await inspect.get('ip:1')).toBe('1');
    inspect.disconnect();

    await server.kill();

    // Every kind of operation still answers, quickly, from memory.
    const elapsed = await timed(async () => {
      const hits = await Promise.all(Array.from({ length: 50 }, () => a.hit('ip:1', 60_000)));
      expect(Math.max(...hits.map((h) => h.count))).toBe(50);
      expect(await a.acquireLease('lock', 'me', 1_000)).toBe(true);
      expect(await a.acquireLease('lock', 'you', 1_000)).toBe(false);
      expect(await a.addMember('conns', 'c1', 1_000)).toBe(1);
      await a.set('cache', 'v', 1_000);
      expect(await a.get('cache')).toBe('v');
    });
    expect(elapsed).toBeLessThan(500);
    expect(a.active).toBe('memory');
    const local: string[] = [];
    await a.subscribe('events', (m) => local.push(m));
    await a.publish('events', 'during');
    await waitFor(() => local.includes('during'), 1_000, 'local delivery during the outage');
    const late: string[] = [];
    await a.subscribe('late', (m) => late.push(m)); // subscribed while Redis is down

    await sleep(300);
    await a.hit('ip:1', 60_000);
    expect(outageWarnings(log)).toHaveLength(1);
    expect(recoveries(log)).toHaveLength(0);

    await server.start();
    await waitFor(() => a.active === 'redis', 5_000, 'recovery');
    expect(recoveries(log)).toHaveLength(1);
    expect((await a.hit('ip:1', 60_000)).count).toBe(1); // the new server starts empty
    const after = server.client();
    expect(await after.get('ip:1')).toBe('1');
    after.disconnect();

    // Subscriptions are re-established: replicas hear each other again.
    await waitFor(
      async () => {
        await a.publish('events', 'after');
        return seen.includes('after');
      },
      5_000,
      'cross-replica delivery after recovery',
    );
    await waitFor(
      async () => {
        await b.publish('late', 'from b');
        return late.includes('from b');
      },
      5_000,
      'delivery to a subscription made during the outage',
    );
    expect(outageWarnings(log)).toHaveLength(1);
    expect(log.warnings()).toHaveLength(1);
  });

  it('bounds the wait on a hung Redis and replays cache deletions on recovery', async () => {
    const server = await throwaway();
    const log = captureLogger();
    const store = await open({ cacheStore: 'redis', url: server.url, logger: log.logger, commandTimeoutMs: 200 });
    await store.set('cached', 'stale-if-not-replayed', 60_000);
    await store.set('page:1', 'p1', 60_000);

    server.pause();
    // The first call waits for the command timeout, then answers from memory; later calls do not wait.
    expect(await timed(() => store.del('cached'))).toBeLessThan(600);
    expect(store.active).toBe('memory');
    expect(await timed(() => store.hit('ip:1', 60_000))).toBeLessThan(50);
    await store.delPrefix('page:');
    await sleep(300);
    expect(outageWarnings(log)).toHaveLength(1);

    server.resume();
    await waitFor(() => store.active === 'redis', 5_000, 'recovery');
    expect(recoveries(log)).toHaveLength(1);
    expect(await store.get('cached')).toBeNull();
    expect(await store.get('page:1')).toBeNull();
    expect(log.warnings()).toHaveLength(1);
  });

  it('logs one warning per outage, not per call, across two outages', async () => {
    const server = await throwaway();
    const log = captureLogger();
    const changes: string[] = [];
    const store = await open({ cacheStore: 'redis', url: server.url, logger: log.logger, onActiveChange: (a) => changes.push(a) });
    for (let outage = 1; outage <= 2; outage++) {
      await server.kill();
      await Promise.all(Array.from({ length: 20 }, () => store.hit('k', 60_000)));
      expect(outageWarnings(log)).toHaveLength(outage);
      await server.start();
      await waitFor(() => store.active === 'redis', 5_000, 'recovery');
      expect(recoveries(log)).toHaveLength(outage);
    }
    expect(changes).toEqual(['memory', 'redis', 'memory', 'redis']);
  });
});
