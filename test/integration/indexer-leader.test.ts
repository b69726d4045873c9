import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createScratchDatabase, testLogger, type ScratchDatabase } from '../helpers/db.js';
import { needsService, testEnv } from '../helpers/env.js';
import { caughtUp, chainEnv, expectedCounts, sleep, spawnIndexer, tableCounts, waitUntil, type IndexerProcess } from '../helpers/indexer.js';
import { createDb, type Db } from '../../src/db/client.js';
import { KIND_LIST } from '../../src/indexer/kinds.js';

// Two indexer processes on one PostgreSQL: one leads (session advisory lock), the other waits;
// SIGKILL the leader and the other takes over from the stored cursors. PGlite cannot be shared
// between processes, so this needs DATABASE_URL (and fails under REQUIRE_SERVICES=1 without it).
const run = needsService('DATABASE_URL');

let chain: SuiChainFixture;
let scratch: ScratchDatabase;
let db: Db;
const procs: IndexerProcess[] = [];

beforeAll(async () => {
  if (!run) return;
  chain = await startSuiChainFixture({ seed: 51, events: 5000, latencyMs: 20, grpc: { maxPageSize: 60, shortPageProbability: 0.4 } });
  scratch = await createScratchDatabase(testEnv.databaseUrl!);
  db = await createDb({ databaseUrl: scratch.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 2 });
});
afterAll(async () => {
  for (const p of procs) await p.kill();
  await db?.close();
  await chain?.close();
  await scratch?.drop();
});

const lines = (p: IndexerProcess) => p.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(!run)('two indexer processes on one PostgreSQL', () => {
  it('one leads; after SIGKILL the other takes over and continues from the cursor', async () => {
    const env = { ...chainEnv(chain, 'grpc'), DATABASE_URL: scratch.url };
    const a = spawnIndexer(env);
    procs.push(a);
    await a.leading();
    const b = spawnIndexer(env);
    procs.push(b);
    await waitUntil(() => b.output().includes('indexer: standby'), 30_000, 'the second process to wait as standby');
    await sleep(500);
    expect(b.output()).not.toContain('"indexer: leading"');
    const before = await tableCounts(db);
    const indexedBefore = Object.values(before).reduce((x, y) => x + y, 0);
    expect(indexedBefore).toBeGreaterThan(0);
    expect(indexedBefore).toBeLessThan(chain.events.length); // still backfilling

    await a.kill('SIGKILL');
    await b.leading(15_000);
    const resumed = lines(b).find((l) => l.msg === 'indexer: leading')!.resumed as string[];
    expect(resumed.length).toBeGreaterThan(0); // resumed from stored cursors, not from genesis

    chain.append(300); // new events while the new leader runs
    await waitUntil(() => caughtUp(db, chain), 40_000, 'the new leader to catch up');
    expect(await tableCounts(db)).toEqual(expectedCounts(chain));
    // No duplicates: the cursors count exactly the stored rows, and the rows are the chain's, once each.
    for (const kind of KIND_LIST) {
      const [row] = await db.query<{ n: number; distinct_ids: number; indexed: string }>(
        `SELECT count(*)::int AS n, count(DISTINCT (tx_digest, event_seq))::int AS distinct_ids,
                (SELECT events_indexed::text FROM "cursor" WHERE event_kind = $1) AS indexed FROM ${kind.key}`,
        [kind.key],
      );
      expect(row.distinct_ids).toBe(row.n);
      expect(Number(row.indexed)).toBe(row.n);
    }
    await b.kill('SIGTERM');
  }, 85_000);
});
