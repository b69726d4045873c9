// The shared store through Redis Sentinel (with a failover) and through a 3-master Redis Cluster,
// all real redis-server processes on free loopback ports started by this file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, createSharedStore, type SharedStore } from '../../src/store';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb } from '../helpers/db';
import { captureLogger, freePort, hasRedisServer, requireServices, waitFor } from '../helpers/store';

const dir = mkdtempSync(join(tmpdir(), 'store-managed-redis-'));
const children: ChildProcess[] = [];
const clients: Redis[] = [];
const stores: SharedStore[] = [];

function redisServer(args: string[]): void {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  children.push(child);
}

function client(port: number): Redis {
  const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
  c.on('error', () => undefined);
  clients.push(c);
  return c;
}

async function answers(c: Redis): Promise<boolean> {
  try {
    if (c.status === 'wait' || c.status === 'end') await c.connect();
    return (await c.ping()) === 'PONG';
  } catch {
    return false;
  }
}

function serverArgs(port: number, extra: string[] = []): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra];
}

/** freePort() may hand out the same port twice before anything binds it. */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

async function openStore(url: string): Promise<SharedStore> {
  const store = await createSharedStore({ cacheStore: 'redis', url, keyPrefix: `managed-${process.pid}:`, logger: captureLogger().logger, connectTimeoutMs: 3_000, retryMaxDelayMs: 100 });
  stores.push(store);
  return store;
}

/**
 * Issue 45 item 7: a query registered (automatic persisted queries) on one API replica is known by
 * its hash on another, because the cache lives on the store's own connection on every topology.
 */
async function persistedQueryAcrossReplicas(url: string): Promise<void> {
  const db = await createTestDb();
  const replicas: TestApi[] = [];
  try {
    const prefix = randomUUID();
    const env = { CACHE_STORE: 'redis', SHARED_STORE_URL: url };
    for (let i = 0; i < 2; i++) replicas.push(await startApi({ db: db.db, storePrefix: prefix, store: 'memory', env }));
    expect(replicas.map((r) => r.store.active)).toEqual(['redis', 'redis']);
    const query = `query Registered${prefix.slice(0, 8)} { __typename }`;
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    const post = async (api: TestApi, body: unknown) => {
      const res = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await res.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    };
    const [a, b] = replicas as [TestApi, TestApi];
    expect((await post(b, { extensions: { persistedQuery } })).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await post(a, { query, extensions: { persistedQuery } })).toEqual({ data: { __typename: 'Query' } });
    expect(await post(b, { extensions: { persistedQuery } })).toEqual({ data: { __typename: 'Query' } });
  } finally {
    await Promise.all(replicas.map((r) => r.close()));
    await db.cleanup();
  }
}

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  for (const c of clients) c.disconnect();
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  rmSync(dir, { recursive: true, force: true });
});

const run = hasRedisServer || requireServices;

describe.skipIf(!run)('shared store through Redis Sentinel', () => {
  let primaryPort: number;
  let replicaPort: number;
  let sentinelPort: number;
  let url: string;

  beforeAll(async () => {
    [primaryPort, replicaPort, sentinelPort] = await distinctFreePorts(3);
    redisServer(serverArgs(primaryPort, ['--repl-diskless-sync-delay', '0'])); // Redis waits 5 s for more replicas by default
    redisServer(serverArgs(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]));
    const conf = join(dir, `sentinel-${sentinelPort}.conf`);
    writeFileSync(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor mymaster 127.0.0.1 ${primaryPort} 1`,
        'sentinel down-after-milliseconds mymaster 1000',
        'sentinel failover-timeout mymaster 5000',
        '',
      ].join('\n'),
    );
    const replica = client(replicaPort);
    await waitFor(async () => (await answers(replica)) && /master_link_status:up/.test(await replica.info('replication')), 10_000, 'replica in sync');
    // Started after the replica is in sync, the sentinel's first INFO to the master already lists it
    // (otherwise it learns of it at its next 10 s INFO round).
    redisServer([conf, '--sentinel']);
    const sentinel = client(sentinelPort);
    await waitFor(async () => {
      if (!(await answers(sentinel))) return false;
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', 'mymaster')) as string[][];
      return replicas.some((fields) => fields.includes(String(replicaPort)) && fields[fields.indexOf('flags') + 1] === 'slave');
    }, 15_000, 'sentinel to see the replica');
    url = `redis-sentinel://127.0.0.1:${sentinelPort}/mymaster?db=0`;
  }, 30_000);

  it('serves counters, values and pub/sub from the master that Sentinel names, and follows a failover', async () => {
    const [store, other] = [await openStore(url), await openStore(url)];
    expect(store.active).toBe('redis');
    await store.set('greeting', 'hello', 60_000);
    expect(await other.get('greeting')).toBe('hello');
    expect(await client(primaryPort).get(`managed-${process.pid}:greeting`)).toBe('hello');
    await store.hit('counter', 60_000);
    expect((await other.hit('counter', 60_000)).count).toBe(2);

    const events = createBus(other, { logger: captureLogger().logger }).pubSub.subscribe('topic');
    await events.ready;
    await createBus(store, { logger: captureLogger().logger }).pubSub.publish('topic', { n: 1 });
    expect((await events.next()).value).toEqual({ n: 1 });

    // Replication is asynchronous and a forced failover does not wait for it: let the replica catch up first.
    const offset = (info: string, field: string) => Number(new RegExp(`${field}:(\\d+)`).exec(info)?.[1] ?? -1);
    const target = offset(await client(primaryPort).info('replication'), 'master_repl_offset');
    await waitFor(async () => offset(await client(replicaPort).info('replication'), 'slave_repl_offset') >= target, 10_000, 'replica caught up');
    // Sentinel promotes the replica (the old master is demoted and its clients are disconnected).
    await client(sentinelPort).call('SENTINEL', 'FAILOVER', 'mymaster');
    const promoted = client(replicaPort);
    await waitFor(async () => /role:master/.test(await promoted.info('replication')), 15_000, 'replica promoted');
    await waitFor(
      async () => {
        await store.set('after-failover', 'yes', 60_000);
        return store.active === 'redis' && (await promoted.get(`managed-${process.pid}:after-failover`)) === 'yes';
      },
      15_000,
      'store writing to the new master',
    );
    // Data written before the failover is on the new master.
    expect(await promoted.get(`managed-${process.pid}:greeting`)).toBe('hello');
    expect((await store.hit('counter', 60_000)).count).toBe(3);
    await events.return();
  }, 45_000);

  it('shares persisted queries between API replicas', () => persistedQueryAcrossReplicas(url), 30_000);
});

describe.skipIf(!run)('shared store through Redis Cluster', () => {
  let url: string;
  const ports: number[] = [];
  const busPorts: number[] = [];

  beforeAll(async () => {
    const free = await distinctFreePorts(6);
    for (let i = 0; i < 3; i++) {
      const [port, busPort] = [free[2 * i], free[2 * i + 1]];
      ports.push(port);
      busPorts.push(busPort);
      redisServer(serverArgs(port, ['--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', join(dir, `nodes-${port}.conf`)]));
    }
    for (const port of ports) await waitFor(() => answers(client(port)), 10_000, `redis-server on ${port}`);
    // What `redis-cli --cluster create … --cluster-replicas 0` does, without its 1 s join polls (2-3 s saved):
    // each master takes a third of the 16384 slots, then the first one meets the others.
    const thirds = [0, 5461, 10923, 16384];
    const cli = (port: number, ...args: Array<string | number>) => {
      const r = spawnSync('redis-cli', ['-p', String(port), ...args.map(String)], { encoding: 'utf8' });
      expect(r.stdout.trim(), `redis-cli ${args.join(' ')}`).toBe('OK');
    };
    for (const [i, port] of ports.entries()) cli(port, 'CLUSTER', 'ADDSLOTSRANGE', thirds[i], thirds[i + 1] - 1);
    for (const i of [1, 2]) cli(ports[0], 'CLUSTER', 'MEET', '127.0.0.1', ports[i], busPorts[i]);
    for (const port of ports) {
      const c = client(port);
      await waitFor(async () => /cluster_state:ok/.test((await c.call('CLUSTER', 'INFO')) as string), 15_000, `cluster ok on ${port}`);
    }
    url = `redis-cluster://127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}`;
  }, 30_000);

  it('spreads keys over the masters and runs every store operation, including multi-key deletes and pub/sub', async () => {
    const [store, other] = [await openStore(url), await openStore(url)];
    expect(store.active).toBe('redis');
    const keys = Array.from({ length: 30 }, (_, i) => `cache:item:${i}`);
    for (const key of keys) await store.set(key, key, 60_000);
    const perNode = await Promise.all(ports.map(async (p) => Number(await client(p).dbsize())));
    expect(perNode.filter((n) => n > 0).length).toBe(3);
    expect(await other.get('cache:item:7')).toBe('cache:item:7');

    await store.del(...keys.slice(0, 10)); // keys in different hash slots
    expect(await other.get('cache:item:3')).toBeNull();
    expect(await other.get('cache:item:12')).toBe('cache:item:12');
    await store.delPrefix('cache:item:');
    expect(await Promise.all(keys.map((k) => other.get(k)))).toEqual(keys.map(() => null));

    await store.hit('limit:a', 60_000);
    expect((await other.hit('limit:a', 60_000)).count).toBe(2);
    expect(await store.acquireLease('lease:x', 'me', 60_000)).toBe(true);
    expect(await other.acquireLease('lease:x', 'you', 60_000)).toBe(false);
    await store.addMember('room:1', 'alice', 60_000);
    await other.addMember('room:1', 'bob', 60_000);
    expect((await store.members('room:1')).sort()).toEqual(['alice', 'bob']);

    const events = createBus(other, { logger: captureLogger().logger }).pubSub.subscribe('topic');
    await events.ready;
    await createBus(store, { logger: captureLogger().logger }).pubSub.publish('topic', { n: 2 });
    expect((await events.next()).value).toEqual({ n: 2 });
    await events.return();
  }, 30_000);

  it('shares persisted queries between API replicas', () => persistedQueryAcrossReplicas(url), 30_000);
});
