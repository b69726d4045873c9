import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { createTestDb, postgresUrl, testLogger, type TestDb } from '../helpers/db';

describe('advisory locks', () => {
  let t: TestDb;
  let other: Db; // a second "replica" on the same database (PGlite: the same instance)
  beforeAll(async () => {
    t = await createTestDb();
    other = t.url ? await createDb({ databaseUrl: t.url, dataDir: '/nonexistent', logger: testLogger, leaseCheckIntervalMs: 100 }) : t.db;
  }, 120_000);
  afterAll(async () => {
    if (other && other !== t.db) await other.close();
    await t?.cleanup();
  });

  it('a second taker gets null until the first releases', async () => {
    const first = await t.db.tryAdvisoryLock('indexer-leader');
    expect(first).not.toBeNull();
    expect(await other.tryAdvisoryLock('indexer-leader')).toBeNull();
    expect(await t.db.tryAdvisoryLock('indexer-leader')).toBeNull();
    expect(await other.tryAdvisoryLock('some-other-key').then(async (l) => (await l?.release(), l !== null))).toBe(true);
    await first!.release();
    expect(first!.signal.aborted).toBe(true);
    expect(first!.lost).toBe(false);
    const second = await other.tryAdvisoryLock('indexer-leader');
    expect(second).not.toBeNull();
    await second!.release();
  });

  it('withAdvisoryLock runs only when the lock is free and releases after', async () => {
    const held = await other.tryAdvisoryLock(42n);
    expect(await t.db.withAdvisoryLock(42n, async () => 'ran')).toEqual({ acquired: false });
    await held!.release();
    expect(await t.db.withAdvisoryLock(42n, async () => 'ran')).toEqual({ acquired: true, value: 'ran' });
    const again = await other.tryAdvisoryLock(42n);
    expect(again).not.toBeNull();
    await again!.release();
  });

  it.runIf(Boolean(postgresUrl()))('detects a lost lock (connection killed) and frees it for others', async () => {
    const lease = await other.tryAdvisoryLock('jobs-runner');
    expect(lease).not.toBeNull();
    const [row] = await t.db.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    const lost = new Promise<void>((resolve) => lease!.signal.addEventListener('abort', () => resolve()));
    await t.db.query('SELECT pg_terminate_backend($1)', [row.pid]);
    await lost;
    expect(lease!.lost).toBe(true);
    const next = await t.db.tryAdvisoryLock('jobs-runner');
    expect(next).not.toBeNull();
    await next!.release();
    await lease!.release(); // harmless after loss
  });
});
