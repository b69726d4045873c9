// Issue 30: a Redis outage (paused, then killed) must not take the API out. Two API replicas and a
// jobs process on a private Redis: both replicas stay ready (degraded), keep serving, and admit
// the documented share per API replica (HTTP.RATE_LIMIT_MAX / 2: the jobs process is no replica).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createMetrics } from '../../src/observability/metrics';
import { createRuntime, type Runtime } from '../../src/runtime';
import type { FailoverStore } from '../../src/store';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, type TestDb } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { hasRedisServer, requireServices, ThrowawayRedis } from '../helpers/store';
import { until } from '../helpers/until';

if (!hasRedisServer && requireServices) throw new Error('REQUIRE_SERVICES=1 but redis-server is not installed');

const LIMIT = 20;
const SHARE = LIMIT / 2;
const OUTAGE_WARNING = 'shared store unreachable';

interface Timed {
  status: number;
  ms: number;
  body: { status?: string; checks?: Record<string, unknown>; error?: { code: string } };
}
async function get(url: string): Promise<Timed> {
  const t = performance.now();
  const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const body = (await r.json()) as Timed['body'];
  return { status: r.status, ms: performance.now() - t, body };
}

describe.skipIf(!hasRedisServer)('a shared-store outage with two API replicas and a jobs process', { timeout: 60_000 }, () => {
  let redis: ThrowawayRedis;
  let db: TestDb;
  let replicas: TestApi[] = [];
  let jobs: Runtime;
  let jobsHealth: string;
  const jobsLogs = captureLogger({ level: 'info' });

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    db = await createTestDb();
    const prefix = randomUUID();
    const env = { CACHE_STORE: 'redis', SHARED_STORE_URL: redis.url, 'HTTP.RATE_LIMIT_MAX': String(LIMIT) };
    replicas = [await startApi({ db: db.db, storePrefix: prefix, store: 'memory', env }), await startApi({ db: db.db, storePrefix: prefix, store: 'memory', env })];
    const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', ...env, HEALTH_PORT: '0', 'GENERAL.HOST': '127.0.0.1' } });
    jobs = await createRuntime(config, { roles: new Set(['jobs']), logger: jobsLogs.logger, metrics: createMetrics({ defaultMetrics: false }), db: db.db, storeKeyPrefix: `test:${prefix}:` });
    jobsHealth = /health:\s+(http:\/\/localhost:\d+)/.exec(jobs.urls.join('\n'))![1]!;
  }, 60_000);

  afterAll(async () => {
    redis?.resume();
    await redis?.kill();
    await Promise.all(replicas.map((r) => r.close()));
    await jobs?.close();
    await db?.cleanup();
  });

  const stores = () => [...replicas.map((r) => r.store), jobs.core!.store] as FailoverStore[];
  const warnings = (lines: Array<{ msg?: string }>) => lines.filter((l) => l.msg?.startsWith(OUTAGE_WARNING)).length;

  /** Both replicas and the jobs process ready, each answer within 1 s; the replicas say whether they are degraded. */
  async function expectAllReady(degraded: boolean): Promise<void> {
    for (const r of replicas) {
      const answer = await get(`${r.url}/api/health/ready`);
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
      expect(answer.body.checks).toMatchObject({ database: 'ok', store: degraded ? 'failed' : 'ok', degraded: degraded ? ['store'] : [] });
    }
    const job = await get(`${jobsHealth}/api/health/ready`);
    expect(job.status).toBe(200);
    expect(job.ms).toBeLessThan(1_000);
  }

  it('counts the API replicas only, stays ready through a pause and a kill, and admits the share per replica', async () => {
    // A heartbeat now rather than in 5 s: every process then has read the set with both replicas in it.
    for (const s of stores()) await s.announce();
    for (const s of stores()) await s.announce();
    expect(stores().map((s) => s.replicas)).toEqual([2, 2, 2]);
    await expectAllReady(false);

    redis.pause();
    const answers: number[][] = [[], []];
    // The first request on each replica finds the paused Redis (1 s command time-out), then memory serves.
    await Promise.all(replicas.map(async (r, i) => answers[i]!.push((await get(`${r.url}/api/quests/list`)).status)));
    await until(() => replicas.every((r) => r.store.active === 'memory'), 'both replicas on per-process memory', 5_000);
    await expectAllReady(true);
    for (const [i, r] of replicas.entries()) {
      for (let n = 1; n < SHARE + 5; n++) answers[i]!.push((await get(`${r.url}/api/quests/list`)).status);
    }
    for (const list of answers) {
      expect(list.filter((s) => s === 200)).toHaveLength(SHARE);
      expect(list.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    }
    const metrics = await (await fetch(`${replicas[0]!.url}/metrics`)).text();
    expect(metrics).toContain('readiness_degraded{check="store"} 1');

    await redis.kill();
    for (let round = 0; round < 5; round++) {
      for (const r of replicas) {
        expect([200, 429]).toContain((await get(`${r.url}/api/quests/list`)).status);
        expect((await get(`${r.url}/api/health`)).status).toBe(200);
      }
    }
    await expectAllReady(true);
    // One warning per process for the whole outage, pause and kill together.
    expect(replicas.map((r) => warnings(r.logs.lines))).toEqual([1, 1]);
    expect(replicas.flatMap((r) => r.logs.lines).filter((l) => l.level >= 50)).toEqual([]);
  });
});
