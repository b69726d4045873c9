// Issue 45 item 8: network faults between the processes and Redis or PostgreSQL (test/helpers/fault-proxy.ts)
// under steady load through the edge (`start:cluster`, HAProxy, two replicas): 200 ms of latency, 5 % of
// connections reset, a black hole, and a partition of one replica from Redis. While a fault lasts only
// 200s, clean 503s or 429s, never a 500 and never a wait past the request time-out; within 5 s after it
// ends, full service. Alongside the load, writes that must happen exactly once (test/runtime/network-faults-writes.ts):
// a quest claim from both replicas at once, chat messages with a clientId, retried as clients would, and a
// chain write queued meanwhile (test/runtime/network-faults-chain.ts); afterwards each is stored, and sent, exactly once.
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { testLogger } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { haproxyVersion, startTestCluster, type TestCluster } from '../helpers/cluster';
import { FaultProxy, type Fault } from '../helpers/fault-proxy';
import { paced } from '../helpers/paced';
import { hasRedisServer, ThrowawayRedis } from '../helpers/store';
import { until } from '../helpers/until';
import { startChainRig, type ChainRig } from './network-faults-chain';
import { chatSocket, chatUntilStored, claimsOf, claimUntilAnswered, completeDailyBet, messagesByClientId } from './network-faults-writes';

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
  /** Claims and chat messages sent, and their attempts (first tries and retries) until each was answered for good. */
  writes: number;
  writeAttempts: number;
  /** Tries to queue the chain write (the writer's own retries are not counted). */
  settleQueueAttempts: number;
  /** From the fault's start until the last write was answered for good. */
  writesDoneMs: number;
}

/** The client's own time-out on a write: past it the attempt counts as one that waited too long. */
const CLIENT_TIMEOUT_MS = REQUEST_TIMEOUT_MS + MARGIN_MS;
const CHATS_PER_FAULT = 8;
/** What a write may answer under a fault: done, already done, or a clean refusal of the moment (never a 500 or a time-out). */
const CLEAN_WRITE_OUTCOME = /^(200|409:DUPLICATE_CLAIM|429(:RATE_LIMITED)?|503(:\w+)?|ok|RATE_LIMITED|SERVICE_UNAVAILABLE|REQUEST_TIMEOUT)$/;

describe.runIf(ready)('network faults between the replicas and Redis or PostgreSQL, behind the edge', () => {
  let redis: ThrowawayRedis;
  let redisProxies: FaultProxy[];
  let pgProxy: FaultProxy;
  let cluster: TestCluster;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const figures: FaultFigures[] = [];
  let db: Db;
  let chatter: LoggedIn;
  let socket: Socket;
  let rig: ChainRig;
  const room = `game:faults-${randomUUID().slice(0, 8)}`;
  let chatsSent = 0;

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
        'QUESTS.CLAIM_RATE_LIMIT_MAX': '100000',
        'CHAT.MESSAGE_RATE_LIMIT_MAX': '100000',
      },
      databaseUrl: (scratch) => {
        const u = new URL(scratch);
        u.host = `127.0.0.1:${pgProxy.port}`;
        return u.toString();
      },
      // The second replica reaches Redis through the second proxy.
      portEnv: (apiPorts) => ({ TEST_STORE_URL_BY_PORT: JSON.stringify({ [apiPorts[1]!]: storeUrl(redisProxies[1]!) }) }),
    });
    db = await createDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir, logger: testLogger, poolMax: 2 });
    chatter = await loginWithKeypair(cluster.edgeUrl);
    socket = await chatSocket(cluster.edgeUrl, chatter.accessToken);
    // the chain writer as the jobs role runs it, on PostgreSQL through the same proxy
    const viaProxy = new URL(cluster.databaseUrl);
    viaProxy.host = `127.0.0.1:${pgProxy.port}`;
    rig = await startChainRig(viaProxy.toString(), cluster.dataDir);
  }, 150_000);

  afterAll(async () => {
    agent.destroy();
    socket?.close();
    await rig?.close();
    await db?.close();
    await cluster?.stop();
    await Promise.all([...(redisProxies ?? []), pgProxy].map((p) => p?.close()));
    await redis?.kill();
    if (figures.length) console.info(`network faults:\n${figures.map((f) => JSON.stringify(f)).join('\n')}`);
  }, 60_000);

  /** Steady load for 3 s under `fault` on `proxies`, then healed: the answers during it and how long full service took to return. */
  async function underFault(name: string, proxies: FaultProxy[], fault: Fault): Promise<void> {
    const claimer = await loginWithKeypair(cluster.edgeUrl);
    await completeDailyBet(db, claimer.address);
    for (const p of proxies) p.set(fault);
    const writes = startWrites(name, claimer);
    writes.catch(() => undefined); // awaited below, after the load
    const during = await steady(agent, cluster.edgeUrl, 60, 3_000);
    for (const p of proxies) p.set({ kind: 'none' });
    const healedAt = Date.now();
    // Full service: 20 answers in a row, all 200, none slow.
    await until(async () => (await steady(agent, cluster.edgeUrl, 20, 400)).every((a) => a.status === 200 && a.ms < 1_000), `full service after ${name}`, RECOVERY_MS + 5_000, 0);
    const recoveredMs = Date.now() - healedAt;
    const { claims, chats, settle, doneMs } = await writes;
    // counted before any assertion, so that a fault's failure is not reported again by the next fault's room count
    chatsSent += chats.length;
    const attempts = [...claims, ...chats].flatMap((w) => w.attempts);
    figures.push({
      fault: name,
      requests: during.length,
      ok: during.filter((a) => a.status === 200).length,
      unavailable: during.filter((a) => a.status === 503).length,
      slowestMs: Math.round(Math.max(...during.map((a) => a.ms))),
      recoveredMs,
      writes: claims.length + chats.length,
      writeAttempts: attempts.length,
      settleQueueAttempts: settle.attempts,
      writesDoneMs: doneMs,
    });
    expect(during.filter((a) => ![200, 429, 503].includes(a.status)), name).toEqual([]);
    expect(during.filter((a) => a.ms > REQUEST_TIMEOUT_MS + MARGIN_MS).map((a) => Math.round(a.ms)), name).toEqual([]);
    expect(recoveredMs, name).toBeLessThan(RECOVERY_MS);
    expect(attempts.filter((a) => !CLEAN_WRITE_OUTCOME.test(a.outcome) || a.ms > CLIENT_TIMEOUT_MS), name).toEqual([]);
    // Nothing lost, nothing doubled: one claim credited once (at most one 200 seen: a reset may eat
    // the answer to a committed claim, whose retry is then DUPLICATE_CLAIM), each message stored once
    // under the id its acknowledgement carried.
    expect(claims.filter((c) => c.id === 'claimed').length, name).toBeLessThanOrEqual(1);
    expect(await claimsOf(db, claimer.address), name).toEqual({ n: 1, xp: '50' });
    const stored = await messagesByClientId(db, chatter.address, chats.map((c) => c.clientId));
    expect(Object.fromEntries(chats.map((c) => [c.clientId, stored[c.clientId]])), name).toEqual(Object.fromEntries(chats.map((c) => [c.clientId, [c.id]])));
    // The settle queued during the fault: one row, executed on chain exactly once.
    const settled = await rig.service.awaitOutcome(settle.record.id, { timeoutMs: 15_000 });
    expect(settled.status, name).toBe('confirmed');
    expect(rig.executionsOf(settle.giveawayId), name).toBe(1);
    const [queued] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM chain_write WHERE idempotency_key = $1', [settle.record.key]);
    expect(queued!.n, name).toBe(1);
    const [inRoom] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_message WHERE room = $1', [room]);
    expect(inRoom!.n, name).toBe(chatsSent);
  }

  /** The exactly-once writes of one fault: the claim twice from each replica at once, and chat messages paced over 2 s. */
  async function startWrites(name: string, claimer: LoggedIn) {
    const started = Date.now();
    const deadline = started + 3_000 + RECOVERY_MS + 5_000;
    const [claims, chats, settle] = await Promise.all([
      Promise.all(
        [...cluster.apiPorts, ...cluster.apiPorts].map((port) => claimUntilAnswered(`http://127.0.0.1:${port}`, claimer.accessToken, CLIENT_TIMEOUT_MS, deadline)),
      ),
      paced(CHATS_PER_FAULT, 2_000, (i) => chatUntilStored(socket, room, `${name} #${i}`, CLIENT_TIMEOUT_MS, deadline)),
      rig.queueSettle(CLIENT_TIMEOUT_MS, deadline),
    ]);
    return { claims, chats, settle, doneMs: Date.now() - started };
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
