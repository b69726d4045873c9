import { readFile } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createSharedStore, FailoverStore, type SharedStore } from '../../src/store';
import { captureLogger, freePort, hasRedisServer, requireServices, ThrowawayRedis, waitFor } from '../helpers/store';

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

type Log = ReturnType<typeof captureLogger>;
const outageWarnings = (lines: Log) => lines.warnings().filter((l) => l.msg.startsWith('shared store unreachable'));
const recoveries = (lines: Log) => lines.infos().filter((l) => l.msg.startsWith('shared store reachable again'));
const debugCount = (lines: Log, msg: string) => lines.lines.filter((l) => l.level === 20 && l.msg === msg).length;

/** Waits until `n` more reconnect attempts (killed server) or recovery probes (hung server) failed. */
async function moreFailedAttempts(log: Log, msg: 'shared store connection error' | 'shared store probe failed', n = 3): Promise<void> {
  const from = debugCount(log, msg);
  await waitFor(() => debugCount(log, msg) >= from + n, 10_000, `${n} more "${msg}" lines`);
}

/**
 * A memory answer takes microseconds; a call that went to a dead or hung Redis takes at least the
 * command timeout (or a reconnect). These bounds separate the two with a wide margin for a busy
 * machine, instead of racing a tight wall-clock budget.
 */
const COMMAND_TIMEOUT_MS = 1_000;

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
    const store = await open({ cacheStore: 'redis', host: '127.0.0.1', port, password: 'hunter22', logger: log.logger, connectTimeoutMs: 300 });
    // Start is bounded by the connect timeout (ioredis alone would keep retrying forever).
    expect(performance.now() - started).toBeLessThan(300 + 4_000);
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

    // Reconnect attempts keep failing in the background: still one warning, and no call waits on them.
    await moreFailedAttempts(log, 'shared store connection error');
    expect(await timed(() => Promise.all(Array.from({ length: 20 }, () => store.hit('ip:1', 60_000))))).toBeLessThan(COMMAND_TIMEOUT_MS);
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

    // Every kind of operation still answers, without waiting, from memory; the counter
    // continues from the last count Redis gave (1), not from zero.
    const elapsed = await timed(async () => {
      const hits = await Promise.all(Array.from({ length: 50 }, () => a.hit('ip:1', 60_000)));
      expect(Math.max(...hits.map((h) => h.count))).toBe(51);
      expect(await a.acquireLease('lock', 'me', 1_000)).toBe(true);
      expect(await a.acquireLease('lock', 'you', 1_000)).toBe(false);
      expect(await a.addMember('conns', 'c1', 1_000)).toBe(1);
      await a.set('cache', 'v', 1_000);
      expect(await a.get('cache')).toBe('v');
    });
    expect(elapsed).toBeLessThan(COMMAND_TIMEOUT_MS);
    expect(a.active).toBe('memory');
    const local: string[] = [];
    await a.subscribe('events', (m) => local.push(m));
    await a.publish('events', 'during');
    await waitFor(() => local.includes('during'), 1_000, 'local delivery during the outage');
    const late: string[] = [];
    await a.subscribe('late', (m) => late.push(m)); // subscribed while Redis is down

    await moreFailedAttempts(log, 'shared store connection error');
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
    const store = await open({ cacheStore: 'redis', url: server.url, logger: log.logger, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    await store.set('cached', 'stale-if-not-replayed', 60_000);
    await store.set('page:1', 'p1', 60_000);

    server.pause();
    // The first call waits for the command timeout (not longer), then answers from memory; later calls do not wait.
    const first = await timed(() => store.del('cached'));
    expect(first).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
    expect(first).toBeLessThan(COMMAND_TIMEOUT_MS + 4_000);
    expect(store.active).toBe('memory');
    expect(await timed(() => Promise.all(Array.from({ length: 20 }, () => store.hit('ip:1', 60_000))))).toBeLessThan(COMMAND_TIMEOUT_MS);
    await store.delPrefix('page:');
    await moreFailedAttempts(log, 'shared store probe failed', 2);
    expect(outageWarnings(log)).toHaveLength(1);

    server.resume();
    await waitFor(() => store.active === 'redis', 5_000, 'recovery');
    expect(recoveries(log)).toHaveLength(1);
    expect(await store.get('cached')).toBeNull();
    expect(await store.get('page:1')).toBeNull();
    expect(log.warnings()).toHaveLength(1);
  });

  it('delivers, once Redis is back, on a channel whose SUBSCRIBE timed out on a hung Redis', async () => {
    const server = await throwaway();
    const keyPrefix = `t:${Math.random()}:`;
    const log = captureLogger();
    const listener = await open({ cacheStore: 'redis', url: server.url, keyPrefix, logger: log.logger, callTimeoutMs: 100 });
    const publisher = await open({ cacheStore: 'redis', url: server.url, keyPrefix, logger: captureLogger().logger });
    server.pause();
    const received: string[] = [];
    await listener.subscribe('late', (m) => received.push(m));
    expect(listener.active).toBe('memory');
    // The SUBSCRIBE itself fails (command timeout) while the server is stopped; the connection stays open.
    await waitFor(() => debugCount(log, 'shared store: subscribe deferred until Redis is back') === 1, 5_000, 'the SUBSCRIBE to time out');
    server.resume();
    await waitFor(() => listener.active === 'redis', 5_000, 'recovery');
    await waitFor(async () => (await publisher.publish('late', 'hello'), received.includes('hello')), 5_000, 'the message on the channel subscribed during the outage');
  });

  it('keeps limits conservative: the fallback continues from the last Redis count and grants a share per replica', async () => {
    const server = await throwaway();
    const keyPrefix = `t:${Math.random()}:`;
    const opts = { cacheStore: 'redis' as const, url: server.url, keyPrefix, heartbeatMs: 50 };
    const a = await open({ ...opts, logger: captureLogger().logger });
    const b = await open({ ...opts, logger: captureLogger().logger });
    expect(a).toBeInstanceOf(FailoverStore);
    // Replicas announce themselves in Redis: each learns there are two.
    await waitFor(() => (a as FailoverStore).replicas === 2 && (b as FailoverStore).replicas === 2, 5_000, 'both replicas to see two');

    for (let i = 0; i < 7; i++) expect(await a.hit('ip:x', 60_000)).toMatchObject({ count: i + 1, share: 1 });
    await server.kill();
    const during = await a.hit('ip:x', 60_000);
    expect(a.active).toBe('memory');
    expect(during.count).toBe(8); // seeded from Redis's 7, not a fresh 1
    expect(during.share).toBe(0.5);
    expect(during.resetMs).toBeGreaterThan(0);
    expect(during.resetMs).toBeLessThanOrEqual(60_000);
    // b never saw the key: it counts from zero, but against its half of the limit.
    expect(await b.hit('ip:x', 60_000)).toMatchObject({ count: 1, share: 0.5 });

    await server.start();
    await waitFor(() => a.active === 'redis', 5_000, 'recovery');
    // Redis's counts again (the new server starts empty), shared by every replica.
    expect(await a.hit('ip:x', 60_000)).toMatchObject({ count: 1, share: 1 });

    // A replica that leaves drops out of the set (removed on close, else after three missed heartbeats).
    await b.close();
    await waitFor(() => (a as FailoverStore).replicas === 1, 5_000, 'the replica count to drop');
  });

  it('uses the configured replica count over the heartbeat, also on the memory store', async () => {
    const server = await throwaway();
    const a = await open({ cacheStore: 'redis', url: server.url, replicas: 4, logger: captureLogger().logger });
    expect((a as FailoverStore).replicas).toBe(4);
    await server.kill();
    expect((await a.hit('k', 1_000)).share).toBe(0.25);
    const memory = await open({ replicas: 3, logger: captureLogger().logger });
    expect((await memory.hit('k', 1_000)).share).toBeCloseTo(1 / 3);
  });

  it('does not take its own stall for an outage: a call answered while this process was blocked past the deadline is served by Redis', async () => {
    const server = await throwaway();
    const log = captureLogger();
    const store = await open({ cacheStore: 'redis', url: server.url, logger: log.logger, callTimeoutMs: 100 });
    await store.set('stalled', 'redis', 60_000);
    // Blocked inside an I/O callback (as a busy API is, serving a request): Redis answers meanwhile,
    // and the next loop turn runs the expired deadline timer before it reads the socket.
    const answer = await new Promise<Promise<string | null>>((resolve) =>
      readFile(import.meta.filename, () => {
        const read = store.get('stalled');
        const until = performance.now() + 400;
        while (performance.now() < until);
        resolve(read);
      }),
    );
    expect(await answer).toBe('redis');
    expect(store.active).toBe('redis');
    expect(outageWarnings(log)).toHaveLength(0);
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
