import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createScratchDatabase, postgresUrl, type ScratchDatabase } from '../helpers/db.js';
import { spawnMain, type SpawnedApi } from '../helpers/process.js';
import { gql } from '../helpers/client.js';
import { chainEnv, expectedCounts, waitUntil } from '../helpers/indexer.js';
import { IndexerStatusDocument } from '../../src/generated/graphql.js';
import { KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';

let chain: SuiChainFixture;
let scratch: ScratchDatabase | undefined;
let dataDir: string;
let main: SpawnedApi | undefined;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 31, events: 2000, graphql: { shortPageProbability: 0.3 } });
  dataDir = await mkdtemp(join(tmpdir(), 'indexer-status-'));
  const server = postgresUrl();
  scratch = server ? await createScratchDatabase(server) : undefined;
});
afterAll(async () => {
  await main?.stop();
  await chain?.close();
  await scratch?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('indexerStatus over GraphQL and indexer series in /metrics (api + indexer in one process)', () => {
  it('reports live mode, the leader and every kind at the chain tip', async () => {
    main = await spawnMain(['--role', 'api,indexer'], { ...chainEnv(chain), DATA_DIR: dataDir, DATABASE_URL: scratch?.url ?? '', CACHE_STORE: 'memory' });
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
      expect(k).toMatchObject({ transport: 'graphql', lastTxDigest: last.txDigest, lastEventSeq: last.eventIndex, lastCheckpoint: String(last.checkpoint), caughtUp: true });
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
    expect(main.output()).toContain('indexer backfill done: following the tip');
  }, 80_000);
});
