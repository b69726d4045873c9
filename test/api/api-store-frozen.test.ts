// Issue 45 item 1: a frozen shared store (redis-server SIGSTOPped, its connections left open) must
// not hold requests: every store call has its own deadline (SHARED_STORE_CALL_TIMEOUT_MS), after
// which it takes the dead store's fallback and the outage begins. Two API replicas under steady
// load of REST reads (admission counts in the store) and anonymous GraphQL reads (the shared
// response cache).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, type TestDb } from '../helpers/db';
import { hasRedisServer, requireServices, ThrowawayRedis } from '../helpers/store';
import { until } from '../helpers/until';

if (!hasRedisServer && requireServices) throw new Error('REQUIRE_SERVICES=1 but redis-server is not installed');

const DEADLINE_MS = 300;
/** Scheduling on a shared 2-core machine (the load generator runs in the replicas' process). */
const MARGIN_MS = 300;
/** A REST read, and a GraphQL read whose `limit` varies so that most are misses of the shared response cache. */
const path = (i: number) => (i % 2 === 0 ? '/api/quests/list' : `/graphql?query=${encodeURIComponent(`{ leaderboard(board: XP, limit: ${1 + (i % 50)}) { rank player score } }`)}`);

interface Timed {
  path: string;
  status: number;
  ms: number;
}

async function timedGet(base: string, path: string): Promise<Timed> {
  const t = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { 'apollo-require-preflight': 'true' }, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return { path, status: res.status, ms: performance.now() - t };
}

/** `count` requests paced over `ms` across the replicas and paths (pacing the load generator, not waiting on the system). */
async function steady(bases: string[], count: number, ms: number): Promise<Timed[]> {
  const started = Date.now();
  const pending: Array<Promise<Timed>> = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * ms) / count - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(timedGet(bases[i % bases.length]!, path(Math.floor(i / bases.length))));
  }
  return Promise.all(pending);
}

describe.skipIf(!hasRedisServer)('a frozen shared store under load', { timeout: 60_000 }, () => {
  let redis: ThrowawayRedis;
  let db: TestDb;
  let replicas: TestApi[] = [];

  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
    db = await createTestDb();
    const prefix = randomUUID();
    const env = { CACHE_STORE: 'redis', SHARED_STORE_URL: redis.url, SHARED_STORE_CALL_TIMEOUT_MS: String(DEADLINE_MS), 'HTTP.RATE_LIMIT_MAX': '100000' };
    replicas = [await startApi({ db: db.db, storePrefix: prefix, store: 'memory', env }), await startApi({ db: db.db, storePrefix: prefix, store: 'memory', env })];
  }, 60_000);

  afterAll(async () => {
    redis?.resume();
    await redis?.kill();
    await Promise.all(replicas.map((r) => r.close()));
    await db?.cleanup();
  });

  it('answers every request within the store deadline plus a margin while Redis is paused, and recovers when it resumes', async () => {
    const bases = replicas.map((r) => r.url);
    const warm = await steady(bases, 20, 1_000);
    expect(warm.filter((a) => a.status !== 200)).toEqual([]);

    redis.pause();
    const paused = await steady(bases, 120, 3_000);
    const slowest = Math.max(...paused.map((a) => a.ms));
    console.info(`frozen store: ${paused.length} requests, ${paused.filter((a) => a.status !== 200).length} not 200, ${paused.filter((a) => a.ms > DEADLINE_MS + MARGIN_MS).length} over ${DEADLINE_MS + MARGIN_MS} ms, slowest ${Math.round(slowest)} ms, p50 ${Math.round(paused.map((a) => a.ms).sort((a, b) => a - b)[paused.length >> 1]!)} ms`);
    expect(paused.filter((a) => a.status !== 200)).toEqual([]);
    expect(paused.filter((a) => a.ms > DEADLINE_MS + MARGIN_MS).map((a) => ({ path: a.path.slice(0, 20), ms: Math.round(a.ms) }))).toEqual([]);
    // The first call past the deadline began the outage: both replicas serve from memory.
    expect(replicas.map((r) => r.store.active)).toEqual(['memory', 'memory']);

    redis.resume();
    await until(() => replicas.every((r) => r.store.active === 'redis'), 'both replicas back on Redis', 5_000);
    const after = await steady(bases, 20, 1_000);
    expect(after.filter((a) => a.status !== 200)).toEqual([]);
  });
});
