// A shared-store outage behind the edge: two API replicas under `npm run start:cluster`'s HAProxy on
// a Redis of the test's own, paused and then killed under steady load. The replicas stay ready, so
// the edge keeps both in rotation and no request fails; admission keeps working per process.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/env';
import { haproxyVersion, startTestCluster, type TestCluster } from '../helpers/cluster';
import { paced } from '../helpers/paced';
import { hasRedisServer, ThrowawayRedis } from '../helpers/store';

const ready = Boolean(haproxyVersion && hasRedisServer && testEnv.databaseUrl);
if (testEnv.requireServices && !ready) throw new Error('REQUIRE_SERVICES=1 but haproxy, redis-server or DATABASE_URL is missing');

interface Answer {
  status: number;
  servedBy: string;
  code?: string;
}

function get(agent: Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const code = res.statusCode !== 200 ? (JSON.parse(body) as { error?: { code?: string } }).error?.code : undefined;
        resolve({ status: res.statusCode ?? 0, servedBy: String(res.headers['x-served-by'] ?? ''), code });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` GETs paced over `ms`. */
const steady = (agent: Agent, url: string, count: number, ms: number) => paced(count, ms, () => get(agent, url));

describe.runIf(ready)('a Redis outage behind the edge', () => {
  let redis: ThrowawayRedis;
  let cluster: TestCluster;
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    cluster = await startTestCluster({ replicas: 2, env: { SHARED_STORE_URL: redis.url, 'HTTP.RATE_LIMIT_MAX': '100000' } });
  }, 150_000);
  afterAll(async () => {
    agent.destroy();
    await cluster?.stop();
    await redis?.kill();
  }, 60_000);

  it('paused, then killed: every request through the edge is answered 200 by both replicas, which stay ready (degraded)', async () => {
    const url = `${cluster.edgeUrl}/api/quests/list`;
    const before = await steady(agent, url, 20, 1_000);
    expect(before.map((a) => a.status)).toEqual(before.map(() => 200));

    redis.pause();
    const paused = await steady(agent, url, 60, 4_000);
    await redis.kill();
    const killed = await steady(agent, url, 60, 4_000);

    for (const phase of [paused, killed]) {
      expect(phase.filter((a) => a.status !== 200)).toEqual([]);
      // HAProxy keeps both in rotation: neither was marked DOWN by its readiness check.
      expect(new Set(phase.slice(-20).map((a) => a.servedBy)).size).toBe(2);
    }
    for (const port of cluster.apiPorts) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { checks: { store: string; degraded?: string[] } };
      expect(body.checks.store).toBe('failed');
      expect(body.checks.degraded).toEqual(['store']);
    }
  }, 60_000);
});
