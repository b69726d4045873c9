// Issue 45 item 8: network faults between the processes and Redis or PostgreSQL (test/helpers/fault-proxy.ts)
// under steady load through the edge (`start:cluster`, HAProxy, two replicas): 200 ms of latency, 5 % of
// connections reset, a black hole, and a partition of one replica from Redis. While a fault lasts only
// 200s, clean 503s or 429s, never a 500 and never a wait past the request time-out; within 5 s after it
// ends, full service.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/env';
import { haproxyVersion, startTestCluster, type TestCluster } from '../helpers/cluster';
import { FaultProxy, type Fault } from '../helpers/fault-proxy';
import { paced } from '../helpers/paced';
import { hasRedisServer, ThrowawayRedis } from '../helpers/store';
import { until } from '../helpers/until';

const ready = Boolean(haproxyVersion && hasRedisServer && testEnv.databaseUrl);
if (testEnv.requireServices && !ready) throw new Error('REQUIRE_SERVICES=1 but haproxy, redis-server or DATABASE_URL is missing');

const REQUEST_TIMEOUT_MS = 2_000;
/** The edge's own hop and the load generator's scheduling on a shared 2-core machine. */
const MARGIN_MS = 500;
const RECOVERY_MS = 5_000;
const PATHS = ['/api/quests/list', `/graphql?query=${encodeURIComponent('{ leaderboard(board: XP, limit: 5) { rank player score } }')}`];

interface Answer {
  path: string;
  status: number;
  ms: number;
}

function get(agent: Agent, url: string, path: string): Promise<Answer> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { agent, headers: { 'apollo-require-preflight': 'true' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ path, status: res.statusCode ?? 0, ms: performance.now() - t }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` GETs paced over `ms`, alternating the paths. */
const steady = (agent: Agent, url: string, count: number, ms: number) => paced(count, ms, (i) => get(agent, url, PATHS[i % PATHS.length]!));

interface FaultFigures {
  fault: string;
  requests: number;
  ok: number;
  unavailable: number;
  slowestMs: number;
  recoveredMs: number;
}

describe.runIf(ready)('network faults between the replicas and Redis or PostgreSQL, behind the edge', () => {
  let redis: ThrowawayRedis;
  let redisProxies: FaultProxy[];
  let pgProxy: FaultProxy;
  let cluster: TestCluster;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const figures: FaultFigures[] = [];

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    const pg = new URL(testEnv.databaseUrl!);
    pgProxy = await FaultProxy.start({ host: pg.hostname, port: Number(pg.port || 5432) });
    // One proxy per replica, so that one replica alone can be cut off from Redis.
    redisProxies = [await FaultProxy.start({ host: '127.0.0.1', port: redis.port }), await FaultProxy.start({ host: '127.0.0.1', port: redis.port })];
    const storeUrl = (proxy: FaultProxy) => `redis://127.0.0.1:${proxy.port}/0`;
    cluster = await startTestCluster({
      replicas: 2,
      env: {
        SHARED_STORE_URL: storeUrl(redisProxies[0]!),
        'HTTP.RATE_LIMIT_MAX': '100000',
        'HTTP.REQUEST_TIMEOUT_MS': String(REQUEST_TIMEOUT_MS),
      },
      databaseUrl: (scratch) => {
        const u = new URL(scratch);
        u.host = `127.0.0.1:${pgProxy.port}`;
        return u.toString();
      },
      // The second replica reaches Redis through the second proxy.
      portEnv: (apiPorts) => ({ TEST_STORE_URL_BY_PORT: JSON.stringify({ [apiPorts[1]!]: storeUrl(redisProxies[1]!) }) }),
    });
  }, 150_000);

  afterAll(async () => {
    agent.destroy();
    await cluster?.stop();
    await Promise.all([...(redisProxies ?? []), pgProxy].map((p) => p?.close()));
    await redis?.kill();
    if (figures.length) console.info(`network faults:\n${figures.map((f) => JSON.stringify(f)).join('\n')}`);
  }, 60_000);

  /** Steady load for 3 s under `fault` on `proxies`, then healed: the answers during it and how long full service took to return. */
  async function underFault(name: string, proxies: FaultProxy[], fault: Fault): Promise<void> {
    for (const p of proxies) p.set(fault);
    const during = await steady(agent, cluster.edgeUrl, 60, 3_000);
    for (const p of proxies) p.set({ kind: 'none' });
    const healedAt = Date.now();
    // Full service: 20 answers in a row, all 200, none slow.
    await until(async () => (await steady(agent, cluster.edgeUrl, 20, 400)).every((a) => a.status === 200 && a.ms < 1_000), `full service after ${name}`, RECOVERY_MS + 5_000, 0);
    const recoveredMs = Date.now() - healedAt;
    figures.push({
      fault: name,
      requests: during.length,
      ok: during.filter((a) => a.status === 200).length,
      unavailable: during.filter((a) => a.status === 503).length,
      slowestMs: Math.round(Math.max(...during.map((a) => a.ms))),
      recoveredMs,
    });
    expect(during.filter((a) => ![200, 429, 503].includes(a.status)), name).toEqual([]);
    expect(during.filter((a) => a.ms > REQUEST_TIMEOUT_MS + MARGIN_MS).map((a) => Math.round(a.ms)), name).toEqual([]);
    expect(recoveredMs, name).toBeLessThan(RECOVERY_MS);
  }

  it('Redis: 200 ms of latency, 5 % of connections reset, a black hole, one replica partitioned', async () => {
    expect((await steady(agent, cluster.edgeUrl, 20, 1_000)).every((a) => a.status === 200)).toBe(true);
    await underFault('redis latency 200 ms', redisProxies, { kind: 'latency', ms: 200 });
    await underFault('redis 5 % connections reset', redisProxies, { kind: 'reset', share: 0.05 });
    await underFault('redis black hole', redisProxies, { kind: 'blackhole' });
    await underFault('redis partition of replica 1', [redisProxies[0]!], { kind: 'blackhole' });
  }, 60_000);

  it('PostgreSQL: 200 ms of latency, 5 % of connections reset, a black hole', async () => {
    await underFault('postgres latency 200 ms', [pgProxy], { kind: 'latency', ms: 200 });
    await underFault('postgres 5 % connections reset', [pgProxy], { kind: 'reset', share: 0.05 });
    await underFault('postgres black hole', [pgProxy], { kind: 'blackhole' });
  }, 60_000);
});
