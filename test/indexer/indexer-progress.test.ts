import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { caughtUp, inProcessIndexer, waitUntil } from '../helpers/indexer.js';
import { renderProgressLine } from '../../src/indexer/progress.js';
import type { IndexerStatus } from '../../src/chain-events/indexer-status.js';

let chain: SuiChainFixture;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 71, events: 4000, latencyMs: 5, grpc: { maxPageSize: 40, shortPageProbability: 0.3 }, graphql: { shortPageProbability: 0.3 } });
});
afterAll(async () => {
  await chain?.close();
});

function tty() {
  const writes: string[] = [];
  return { writes, stream: { isTTY: true, columns: 120, write: (s: string) => writes.push(s) > 0 } };
}

describe('backfill progress in a terminal', () => {
  it('redraws one line with a bar, rate and ETA when the chain reports its tip (gRPC)', async () => {
    const t: TestDb = await createTestDb();
    const term = tty();
    const run = inProcessIndexer(t.db, chain, { transport: 'grpc', pageSize: 40, progressStream: term.stream });
    try {
      await run.indexer.start();
      await waitUntil(() => caughtUp(t.db, chain), 30_000, 'backfill');
      await waitUntil(() => term.writes.some((w) => w.endsWith('\n')), 5_000, 'the final progress line');
    } finally {
      await run.indexer.stop();
      await t.cleanup();
    }
    const bars = term.writes.filter((w) => w.startsWith('\r\x1b[2K['));
    expect(bars.length).toBeGreaterThan(1);
    expect(bars.every((w) => !w.slice(0, -1).includes('\n'))).toBe(true); // one line, redrawn in place
    expect(bars.some((w) => /\d+ ev\/s/.test(w) && /ETA \d/.test(w))).toBe(true);
    expect(term.writes.at(-1)).toMatch(/100\.0%.*\n$/);
  });

  it('shows the rate only when the tip is unknown (fixture GraphQL has no checkpoint query)', async () => {
    const t: TestDb = await createTestDb();
    const term = tty();
    const run = inProcessIndexer(t.db, chain, { transport: 'graphql', progressStream: term.stream });
    try {
      await run.indexer.start();
      await waitUntil(() => caughtUp(t.db, chain), 30_000, 'backfill');
    } finally {
      await run.indexer.stop();
      await t.cleanup();
    }
    const lines = term.writes.filter((w) => w.startsWith('\r\x1b[2K'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((w) => !w.includes('ETA'))).toBe(true);
    expect(lines.some((w) => /indexer backfill .* ev\/s/.test(w))).toBe(true);
  });

  it('renders bar width to the terminal', () => {
    const s: IndexerStatus = {
      instanceId: 'x',
      leader: true,
      leaderSinceMs: 0,
      mode: 'backfill',
      tipCheckpoint: '100',
      eventsPerSecond: 1234.4,
      progress: 0.5,
      etaSeconds: 75,
      kinds: [{ kind: 'bet_result_event', caughtUp: false, lastCheckpoint: '50', lastEventAtMs: 0, lagSeconds: 1, checkpointsBehind: '50', eventsIndexed: 5000, contractDifferences: [] }],
      atMs: 0,
    };
    const line = renderProgressLine(s, 100);
    expect(line).toMatch(/^\[#+-+\] {2}50\.0% {2}5,000 events {2}1,234 ev\/s {2}ETA 1m15s {2}0\/1 at tip$/);
    expect(line.length).toBeLessThan(100);
  });
});
