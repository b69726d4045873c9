import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createTestDb, migratedTarget, type MigratedTarget } from '../helpers/db.js';
import { caughtUp, chainEnv, inProcessIndexer, indexedState, spawnIndexer, waitUntil, type IndexerProcess } from '../helpers/indexer.js';
import { KIND_LIST, eventTypeOf } from '../../src/indexer/kinds.js';
import { diffLeaderboards } from '../../src/indexer/rebuild.js';

// SIGKILL the indexer process at random points of a backfill, restart it, repeat; the final
// tables must equal those of an uninterrupted run. PostgreSQL when DATABASE_URL is set, else an
// on-disk PGlite (one process at a time opens it, which is all this test needs).
const KILLS = 4;
// Kill points are counted in pages the chain served (each kind reads, writes, then reads its next
// page), not in milliseconds, so a slow machine moves them no later in the backfill. Waits are
// polls with generous bounds: a process start on a busy machine can take tens of seconds.
const START_MS = 120_000;
const CATCH_UP_MS = 120_000;
const pagesServed = () => chain.stats.byTransport.graphql.requests;

let chain: SuiChainFixture;
let migrated: MigratedTarget;
const running: IndexerProcess[] = [];

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 41, events: 6000, latencyMs: 15, graphql: { shortPageProbability: 0.4 } });
  migrated = await migratedTarget('indexer-kill-');
});
afterAll(async () => {
  for (const p of running) await p.kill();
  await chain?.close();
  await migrated?.cleanup();
});

const openTarget = () => migrated.open();

describe('indexer killed with SIGKILL during a backfill', () => {
  it(`resumes after ${KILLS} kills at random points with no gap and no duplicate`, async () => {
    // Reference: one uninterrupted run in this process.
    const ref = await createTestDb();
    const uninterrupted = inProcessIndexer(ref.db, chain);
    await uninterrupted.indexer.start();
    await waitUntil(() => caughtUp(ref.db, chain), CATCH_UP_MS, 'the uninterrupted run');
    await uninterrupted.indexer.stop();
    const expected = await indexedState(ref.db);
    await ref.cleanup();

    const env = { ...chainEnv(chain), ...migrated.env };
    const midBackfill: boolean[] = [];
    const progress: number[] = [];
    /** At a crash point each table holds exactly a prefix of its kind's events, and the cursor counts it. */
    const checkPrefixes = async (): Promise<number> => {
      const db = await openTarget();
      try {
        let total = 0;
        for (const kind of KIND_LIST) {
          const rows = await db.query<{ tx_digest: string; event_seq: number }>(`SELECT tx_digest, event_seq FROM ${kind.key} ORDER BY id`);
          const want = chain.eventsOfType(eventTypeOf(kind, chain.packageId)).slice(0, rows.length);
          expect(rows.map((r) => `${r.tx_digest}#${r.event_seq}`)).toEqual(want.map((e) => `${e.txDigest}#${e.eventIndex}`));
          const cursor = await db.query<{ n: string }>('SELECT events_indexed::text AS n FROM "cursor" WHERE event_kind = $1', [kind.key]);
          expect(Number(cursor[0]?.n ?? 0)).toBe(rows.length);
          total += rows.length;
        }
        return total;
      } finally {
        await db.close();
      }
    };
    for (let i = 0; i < KILLS; i++) {
      const p = spawnIndexer(env);
      running.push(p);
      await p.leading(START_MS);
      // A random point: after 1 to 3 more pages per kind.
      const killAt = pagesServed() + KIND_LIST.length * (1 + Math.floor(Math.random() * 3));
      await waitUntil(
        () => {
          if (p.child.exitCode !== null) throw new Error(`indexer exited with ${p.child.exitCode}:\n${p.output()}`);
          return pagesServed() >= killAt;
        },
        CATCH_UP_MS,
        `page ${killAt} to be served`,
      );
      midBackfill.push(!p.output().includes('indexer backfill done'));
      await p.kill('SIGKILL');
      progress.push(await checkPrefixes());
    }
    // Work advanced across the crashes.
    expect(progress.at(-1)!).toBeGreaterThan(progress[0]);
    // At least most kills landed inside the backfill (each run indexes a slice of it).
    expect(midBackfill.filter(Boolean).length).toBeGreaterThanOrEqual(KILLS - 1);

    const last = spawnIndexer(env);
    running.push(last);
    await last.leading(START_MS);
    await waitUntil(() => last.output().includes('indexer backfill done'), CATCH_UP_MS, 'the final run to catch up');
    await last.kill('SIGTERM');

    const target = await openTarget();
    try {
      const actual = await indexedState(target);
      for (const table of Object.keys(expected)) expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
      const total = await target.query<{ n: string }>('SELECT sum(events_indexed)::text AS n FROM "cursor"');
      expect(Number(total[0].n)).toBe(chain.events.length);
      expect(await diffLeaderboards(target)).toEqual([]);
    } finally {
      await target.close();
    }
  }, (KILLS + 1) * START_MS + 3 * CATCH_UP_MS);
});
