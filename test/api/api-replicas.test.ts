import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityDocument, ServerStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql, wsClient, wsSubscribe } from '../helpers/client';
import { needsService, testEnv } from '../helpers/env';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { hasRedisServer, ThrowawayRedis } from '../helpers/store';

const query = (url: string) => fetch(`${url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1' } }).then((r) => r.status);

describe.runIf(needsService('SHARED_STORE_URL'))('replicas sharing one Redis', () => {
  const apis: TestApi[] = [];
  const procs: SpawnedApi[] = [];
  afterEach(async () => {
    await Promise.all([...apis.splice(0).map((a) => a.close()), ...procs.splice(0).map((p) => p.stop())]);
  });

  it('two API processes share the admission counters', async () => {
    const env = { CACHE_STORE: 'redis', SHARED_STORE_URL: testEnv.redisUrl!, SHARED_STORE_KEY_PREFIX: `test:${randomUUID()}:`, INDEXER_DISABLED: 'true', LOG_LEVEL: 'warn' };
    // each replica gets its own embedded database unless a real one is configured (PGlite is single-process)
    const dbEnv = (): Record<string, string> => (testEnv.databaseUrl ? { DATABASE_URL: testEnv.databaseUrl } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'replica-')) });
    const [a, b] = await Promise.all([spawnMain(['--role', 'api'], { ...env, ...dbEnv() }), spawnMain(['--role', 'api'], { ...env, ...dbEnv() })]);
    procs.push(a, b);
    const statuses: number[] = [];
    for (let i = 0; i < 300; i += 50) {
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => query((i + j) % 2 ? a.url : b.url)))));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await query(a.url)).toBe(429);
    expect(await query(b.url)).toBe(429);
  }, 90_000);

  it('an event published on one replica reaches a graphql-ws subscriber on the other', async () => {
    const prefix = randomUUID();
    const a = await startApi({ store: 'redis', storePrefix: prefix });
    const b = await startApi({ store: 'redis', storePrefix: prefix });
    apis.push(a, b);
    const client = wsClient(b.wsUrl);
    try {
      const sub = wsSubscribe(client, ActivityDocument);
      const received = sub.next(10_000);
      // publish until the subscription is live on B (subscribing is asynchronous)
      const timer = setInterval(() => void a.services.activity.publish({ kind: 'bet', player: '0xfeed', summary: 'won 2x', at: new Date('2026-01-01T00:00:00Z') }), 100);
      const event = await received.finally(() => clearInterval(timer));
      expect(event.data?.activity).toEqual({ kind: 'bet', player: '0xfeed', summary: 'won 2x', at: '2026-01-01T00:00:00.000Z' });
      sub.dispose();
    } finally {
      await client.dispose();
    }
  });
});

describe('shared store outage', () => {
  it('with Redis unreachable, requests keep being served and one warning is logged', async () => {
    const api = await startApi({ env: { CACHE_STORE: 'redis', SHARED_STORE_URL: 'redis://127.0.0.1:1/0' } });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
        const { status, body } = await gql(api.url, ServerStatusDocument);
        expect(status).toBe(200);
        expect(body.data?.serverStatus.status).toBe('ok');
      }
      const warnings = api.logs.lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0].msg)).toMatch(/redis|shared store/i);
    } finally {
      await api.close();
    }
  });
});

describe.runIf(hasRedisServer || testEnv.requireServices)('shared store stopped while the API runs', () => {
  it('keeps serving (admission, GraphQL, subscriptions) and logs one warning', async () => {
    const redis = await ThrowawayRedis.start();
    const api = await startApi({ env: { CACHE_STORE: 'redis', SHARED_STORE_URL: redis.url } });
    try {
      expect((await gql(api.url, ServerStatusDocument)).status).toBe(200);
      expect(api.store.active).toBe('redis');
      await redis.kill();
      for (let i = 0; i < 10; i++) {
        const { status, body } = await gql(api.url, ServerStatusDocument);
        expect(status).toBe(200);
        expect(body.data?.serverStatus.status).toBe('ok');
      }
      const client = wsClient(api.wsUrl);
      const sub = wsSubscribe(client, ActivityDocument);
      const received = sub.next(5_000);
      const timer = setInterval(() => void api.services.activity.publish({ kind: 'bet', player: '0x1', summary: 'during outage', at: new Date() }), 100);
      expect((await received.finally(() => clearInterval(timer))).data?.activity.summary).toBe('during outage');
      await client.dispose();
      const warnings = api.logs.lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
    } finally {
      await api.close();
      await redis.kill();
    }
  });
});
