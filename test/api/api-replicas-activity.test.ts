import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ActivityDocument, IndexerStatusDocument } from '../../src/generated/graphql';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { gql, wsClient, wsSubscribe } from '../helpers/client';
import { needsService, testEnv } from '../helpers/env';
import { chainEnv, waitUntil } from '../helpers/indexer';
import { spawnMain, type SpawnedApi } from '../helpers/process';

/**
 * Two real API processes on one Redis: process A also runs the indexer, whose live bet results
 * are published after each commit; a graphql-ws subscriber connected to process B receives them.
 */
describe.runIf(needsService('SHARED_STORE_URL'))('activity across two API processes', () => {
  const procs: SpawnedApi[] = [];
  let chain: SuiChainFixture | undefined;
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await chain?.close();
  });

  it('an event published in one process reaches a subscriber of the other', async () => {
    chain = await startSuiChainFixture({ seed: 77, events: 200 });
    const shared = { CACHE_STORE: 'redis', SHARED_STORE_URL: testEnv.redisUrl!, SHARED_STORE_KEY_PREFIX: `test:${randomUUID()}:`, LOG_LEVEL: 'warn' };
    const dbEnv = (): Record<string, string> => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'activity-')) });
    const a = await spawnMain(['--role', 'api,indexer'], { ...shared, ...dbEnv(), ...chainEnv(chain) });
    const b = await spawnMain(['--role', 'api'], { ...shared, ...dbEnv(), INDEXER_DISABLED: 'true' });
    procs.push(a, b);
    await waitUntil(async () => (await gql(a.url, IndexerStatusDocument)).body.data?.indexerStatus.mode === 'LIVE', 40_000, 'indexer on A to reach live mode');

    const client = wsClient(b.url.replace('http', 'ws') + '/graphql');
    try {
      const sub = wsSubscribe(client, ActivityDocument);
      const received = sub.next(20_000);
      // new chain events keep arriving until the subscription on B is live and one comes through
      const timer = setInterval(() => chain!.append(20), 500);
      const event = await received.finally(() => clearInterval(timer));
      expect(event.data?.activity.kind).toBe('bet_result');
      expect(event.data?.activity.player).toMatch(/^0x[0-9a-f]{64}$/);
      sub.dispose();
    } finally {
      await client.dispose();
    }
  }, 90_000);
});
