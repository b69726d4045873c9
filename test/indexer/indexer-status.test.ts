import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createScratchDatabase, migratedTarget, testLogger, type MigratedTarget } from '../helpers/db.js';
import { randomUUID } from 'node:crypto';
import { spawnMain, type SpawnedApi } from '../helpers/process.js';
import { startApi } from '../helpers/api.js';
import { needsService, testEnv } from '../helpers/env.js';
import { createDb } from '../../src/db/client.js';
import { gql } from '../helpers/client.js';
import { chainEnv, expectedCounts, spawnIndexer, waitUntil } from '../helpers/indexer.js';
import { IndexerStatusDocument } from '../../src/generated/graphql.js';
import { KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';

let chain: SuiChainFixture;
let target: MigratedTarget;
let main: SpawnedApi | undefined;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 31, events: 2000, graphql: { shortPageProbability: 0.3 } });
  target = await migratedTarget('indexer-status-');
});
afterAll(async () => {
  await main?.stop();
  await chain?.close();
  await target?.cleanup();
});

describe('indexerStatus over GraphQL and indexer series in /metrics (api + indexer in one process)', () => {
  it('reports live mode, the leader and every kind at the chain tip', async () => {
    main = await spawnMain(['--role', 'api,indexer'], { ...chainEnv(chain), ...target.env, CACHE_STORE: 'memory' });
    const want = expectedCounts(chain);
    const query = () => gql(main!.url, IndexerStatusDocument);
    await waitUntil(async () => {
      const { body } = await query();
      const s = body.data?.indexerStatus;
      return s?.mode === 'LIVE' && s.kinds.every((k) => Number(k.eventsIndexed) === want[k.kind]);
    }, 40_000, 'indexerStatus to report every kind indexed and live');

    const { status, body } = await query();
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const s = body.data!.indexerStatus;
    expect(s.leader?.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(s.leader!.heartbeatAt).getTime()).toBeGreaterThan(Date.now() - 30_000);
    expect(s.kinds.map((k) => k.kind).sort()).toEqual(KIND_LIST.map((k) => k.key).sort());
    for (const k of s.kinds) {
      const last = chain.eventsOfType(eventTypeOf(KIND_LIST.find((x) => x.key === k.kind)!, chain.packageId)).at(-1)!;
      expect(k).toMatchObject({ transport: 'graphql', lastTxDigest: last.txDigest, lastEventSeq: last.eventIndex, lastCheckpoint: String(last.checkpoint), caughtUp: true, contractDifferences: [] });
      expect(new Date(k.lastEventAt!).getTime()).toBe(last.timestampMs);
      expect(k.lagSeconds!).toBeGreaterThan(0);
      expect(k.cursor).toBeTruthy();
    }

    const metrics = await (await fetch(`${main.url}/metrics`)).text();
    expect(metrics).toMatch(/^indexer_leader 1$/m);
    expect(metrics).toMatch(/^indexer_mode\{mode="live"\} 1$/m);
    expect(metrics).toMatch(/^indexer_mode\{mode="backfill"\} 0$/m);
    for (const k of KIND_LIST) {
      expect(metrics).toMatch(new RegExp(`^indexer_events_indexed_total\\{kind="${k.key}"\\} ${want[k.key]}$`, 'm'));
      expect(metrics).toMatch(new RegExp(`^indexer_position_checkpoint\\{kind="${k.key}"\\} \\d+$`, 'm'));
      expect(metrics).toMatch(new RegExp(`^indexer_lag_seconds\\{kind="${k.key}"\\} [\\d.e+]+$`, 'm'));
    }
    // Not a TTY here: backfill progress went to the log as periodic lines, and the end of the backfill was logged.
    // The progress reporter logs it on its next tick after the mode turns live: wait for the line.
    await waitUntil(() => main!.output().includes('indexer backfill done: following the tip'), 20_000, 'the backfill-done log line');
  }, 80_000);
});

// Replicas: the indexer runs alone in its own process; an API replica on the same PostgreSQL and
// Redis answers indexerStatus from the cursor table plus the status the leader publishes to Redis.
const replicas = needsService('DATABASE_URL') && needsService('SHARED_STORE_URL');

describe.skipIf(!replicas)('indexerStatus on an API replica while the indexer runs in another process', () => {
  it('shows the other process as leader, then no leader after it stops', async () => {
    const own = await createScratchDatabase(testEnv.databaseUrl!);
    const prefix = randomUUID();
    const db = await createDb({ databaseUrl: own.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 3 });
    const api = await startApi({ db, store: 'redis', storePrefix: prefix });
    const indexer = spawnIndexer({ ...chainEnv(chain), DATABASE_URL: own.url, CACHE_STORE: 'redis', SHARED_STORE_URL: testEnv.redisUrl!, SHARED_STORE_KEY_PREFIX: `test:${prefix}:` });
    try {
      // A process start on a busy machine can take tens of seconds: a generous bound, polled.
      await indexer.leading(120_000);
      const want = expectedCounts(chain);
      await waitUntil(async () => {
        const s = (await gql(api.url, IndexerStatusDocument)).body.data?.indexerStatus;
        return s?.mode === 'LIVE' && s.kinds.every((k) => Number(k.eventsIndexed) === want[k.kind] && k.caughtUp === true);
      }, 120_000, 'the API replica to see the indexer live');
      const leaderLine = indexer.output().split('\n').find((l) => l.includes('"indexer: leading"'))!;
      const s = (await gql(api.url, IndexerStatusDocument)).body.data!.indexerStatus;
      expect(s.leader?.instanceId).toBe(JSON.parse(leaderLine).instanceId);

      await indexer.kill('SIGTERM'); // graceful: releases the lock and withdraws its status
      const after = (await gql(api.url, IndexerStatusDocument)).body.data!.indexerStatus;
      expect(after).toMatchObject({ mode: 'NONE', leader: null });
      expect(after.kinds.every((k) => Number(k.eventsIndexed) === want[k.kind] && k.caughtUp === null)).toBe(true);
    } finally {
      await indexer.kill();
      await api.close();
      await db.close();
      await own.drop();
    }
  }, 300_000);
});
