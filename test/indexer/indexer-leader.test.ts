import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { createScratchDatabase, testLogger, type ScratchDatabase } from '../helpers/db.js';
import { needsService, testEnv } from '../helpers/env.js';
import { caughtUp, chainEnv, expectedCounts, inProcessIndexer, spawnIndexer, tableCounts, waitUntil, type IndexerProcess } from '../helpers/indexer.js';
import { createDb, type Db } from '../../src/db/client.js';
import { captureLogger } from '../helpers/logs.js';
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
  // One event a page until the second process has taken over (the first test raises it then): the
  // first leader must still be backfilling when a second process, slow to start on a busy machine, is up.
  chain = await startSuiChainFixture({ seed: 51, events: 5000, latencyMs: 20, grpc: { maxPageSize: 1, shortPageProbability: 0.4 } });
  scratch = await createScratchDatabase(testEnv.databaseUrl!);
  db = await createDb({ databaseUrl: scratch.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 2 });
});
afterAll(async () => {
  for (const p of procs) await p.kill();
  await db?.close();
  await chain?.close();
  await scratch?.drop();
});

// Waits are polls on conditions with generous bounds (a process start under a busy machine can take
// tens of seconds); a passing run returns as soon as each condition holds.
const START_MS = 120_000;
const CATCH_UP_MS = 120_000;
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((x, y) => x + y, 0);

const lines = (p: IndexerProcess) => p.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(!run)('two indexer processes on one PostgreSQL', () => {
  it('one leads; after SIGKILL the other takes over and continues from the cursor', async () => {
    const env = { ...chainEnv(chain, 'grpc'), DATABASE_URL: scratch.url };
    const a = spawnIndexer(env);
    procs.push(a);
    await a.leading(START_MS);
    const b = spawnIndexer(env);
    procs.push(b);
    await waitUntil(() => b.output().includes('indexer: standby'), START_MS, 'the second process to wait as standby');
    // While b waits, a keeps writing: exactly one session holds the leader lock, and b never led.
    const atStandby = sum(await tableCounts(db));
    await waitUntil(
      async () => {
        const now = sum(await tableCounts(db));
        return now > atStandby || now === chain.events.length; // (all done fails the backfilling check below)
      },
      CATCH_UP_MS,
      'the leader to write more while the other waits',
    );
    const [locks] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks.n).toBe(1);
    expect(b.output()).not.toContain('"indexer: leading"');
    const indexedBefore = sum(await tableCounts(db));
    expect(indexedBefore).toBeGreaterThan(0);
    expect(indexedBefore).toBeLessThan(chain.events.length); // still backfilling

    await a.kill('SIGKILL');
    await b.leading(START_MS); // b retries the lock every 3 s
    chain.setPaging('grpc', { maxPageSize: 60 }); // taken over: catch up at a normal pace
    const resumed = lines(b).find((l) => l.msg === 'indexer: leading')!.resumed as string[];
    expect(resumed.length).toBeGreaterThan(0); // resumed from stored cursors, not from genesis

    chain.append(300); // new events while the new leader runs
    await waitUntil(() => caughtUp(db, chain), CATCH_UP_MS, 'the new leader to catch up');
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
  }, 2 * START_MS + 2 * CATCH_UP_MS);
});

describe.skipIf(!run)('leader lock lost (its PostgreSQL session is terminated)', () => {
  it('stops following at once, then competes again and resumes from the cursor', async () => {
    chain.setPaging('grpc', { maxPageSize: 60 });
    const own = await createScratchDatabase(testEnv.databaseUrl!);
    const leaseDb = await createDb({ databaseUrl: own.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 4, leaseCheckIntervalMs: 100 });
    const { logger, logs } = captureLogger({ level: 'info' });
    const run = inProcessIndexer(leaseDb, chain, { transport: 'grpc', pageSize: 60, leaderRetryMs: 1_000, logger });
    try {
      await run.indexer.start();
      await waitUntil(() => run.indexer.status().leader, START_MS, 'leadership');
      const firstTerm = run.indexer.status().leaderSinceMs!;
      await waitUntil(async () => sum(await tableCounts(leaseDb)) > 0, CATCH_UP_MS, 'first batches');
      const [{ pid }] = await leaseDb.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
      await leaseDb.query('SELECT pg_terminate_backend($1)', [pid]);
      // The loss is noticed, following stops, and (nobody else competing) a new term starts from the cursors.
      const msgs = () => logs.lines.map((l) => l.msg);
      const lost = () => msgs().indexOf('indexer: leader lock lost; stopped following');
      await waitUntil(() => lost() >= 0 && msgs().lastIndexOf('indexer: leading') > lost(), START_MS, 'a new leadership term after the loss').catch((err: Error) => {
        throw new Error(`${err.message} (log: ${JSON.stringify(msgs())})`);
      });
      expect(run.indexer.status().leaderSinceMs!).toBeGreaterThan(firstTerm);
      const resumed = logs.lines.findLast((l) => l.msg === 'indexer: leading')!.resumed as string[];
      expect(resumed.length, JSON.stringify(logs.lines.map((l) => [l.msg, l.kind, (l.err as { message?: string } | undefined)?.message]))).toBeGreaterThan(0);
      await waitUntil(() => caughtUp(leaseDb, chain), CATCH_UP_MS, 'the catch-up after the new term');
      const [row] = await leaseDb.query<{ n: string }>('SELECT sum(events_indexed)::text AS n FROM "cursor"');
      expect(Number(row.n)).toBe(chain.events.length);
    } finally {
      await run.indexer.stop();
      await leaseDb.close();
      await own.drop();
    }
  }, START_MS + 2 * CATCH_UP_MS);
});
