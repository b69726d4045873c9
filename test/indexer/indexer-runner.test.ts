import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { caughtUp, expectedCounts, inProcessIndexer, tableCounts, waitUntil } from '../helpers/indexer.js';

let chain: SuiChainFixture;
let t: TestDb;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 21, events: 2500, graphql: { shortPageProbability: 0.3 }, grpc: { shortPageProbability: 0.3 } });
  t = await createTestDb();
});
afterAll(async () => {
  await chain?.close();
  await t?.cleanup();
});

describe('indexer runner (in process)', () => {
  it('backfills every kind, switches to live, and exposes mode, lag and positions in metrics', async () => {
    const a = inProcessIndexer(t.db, chain);
    const b = inProcessIndexer(t.db, chain);
    await a.indexer.start();
    await waitUntil(() => a.indexer.status().leader, 5_000, 'first indexer to lead');
    await b.indexer.start();
    expect(a.indexer.status().mode).toMatch(/backfill|live/);
    await waitUntil(() => caughtUp(t.db, chain), 30_000, 'backfill');
    await waitUntil(() => a.indexer.status().mode === 'live', 10_000, 'live mode');
    // Exactly one leader: the second stayed in standby the whole time.
    expect(b.indexer.status()).toMatchObject({ leader: false, mode: 'standby' });
    expect(await tableCounts(t.db)).toEqual(expectedCounts(chain));
    expect(a.invalidations()).toBeGreaterThan(0);
    expect(a.published).toEqual([]); // no activity broadcast during a backfill

    // New events arrive: indexed live, bet results broadcast after commit.
    chain.append(60);
    await waitUntil(() => caughtUp(t.db, chain), 10_000, 'live events');
    await waitUntil(() => a.published.length > 0, 5_000, 'bet activity');
    expect(a.published[0]).toMatchObject({ kind: 'bet_result' });

    await waitUntil(() => a.indexer.status().mode === 'live', 5_000, 'live mode again');
    const text = await a.registry.metrics();
    expect(text).toMatch(/indexer_leader 1/);
    expect(text).toMatch(/indexer_mode\{mode="live"\} 1/);
    expect(text).toMatch(/indexer_events_indexed_total\{kind="bet_result_event"\} \d+/);
    expect(text).toMatch(/indexer_lag_seconds\{kind="bet_result_event"\} \d/);
    expect(text).toMatch(/indexer_position_checkpoint\{kind="vip_exp_progress_event"\} 5\d{6}/);
    expect(await b.registry.metrics()).toMatch(/indexer_leader 0/);

    // The leader stops: the standby takes over from the stored cursors (nothing re-inserted).
    await a.indexer.stop();
    await waitUntil(() => b.indexer.status().leader, 5_000, 'standby to take over');
    chain.append(40);
    await waitUntil(() => caughtUp(t.db, chain), 10_000, 'events after takeover');
    const s = b.indexer.status();
    expect(s.kinds.reduce((n, k) => n + k.eventsIndexed, 0)).toBeLessThan(200);
    const stored = await t.db.query<{ n: string }>('SELECT sum(events_indexed)::text AS n FROM "cursor"');
    expect(Number(stored[0].n)).toBe(chain.events.length);
    await b.indexer.stop();
  });
});
