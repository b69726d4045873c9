import { PGlite } from '@electric-sql/pglite';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { migratedPgliteTemplate, testLogger } from '../helpers/db';
import { PglitePool } from '../helpers/pglite-pool';

const pool = new PglitePool(async () => PGlite.create({ loadDataDir: await migratedPgliteTemplate() }), 1);

/** A test's database as test/helpers/db.ts makes it: the app's Db over a lent instance. */
async function lendDb() {
  const lent = await pool.lend();
  const db = await createDb({ dataDir: tmpdir(), logger: testLogger, pglite: lent.pglite });
  return {
    db,
    lent,
    async done() {
      await db.close();
      await lent.giveBack();
    },
  };
}

const run = (jobKey: string) => ({ jobKey, status: 'ok', startedAt: new Date(), finishedAt: new Date(), durationMs: 1 });

describe('the test database pool (in-memory PGlite lent test after test)', () => {
  it('lends a returned instance again with every table empty, every sequence restarted and the migrations kept', async () => {
    const first = await lendDb();
    const a = await first.db.prisma.opsJobRun.create({ data: run('first') });
    await first.db.prisma.cursor.create({ data: { eventKind: 'bet', transport: 'grpc' } });
    await first.db.query(`SET statement_timeout = '1234ms'`);
    await first.done();

    const second = await lendDb();
    expect(pool.stats.closed).toEqual([]);
    expect(pool.stats.opened).toBe(1);
    expect(await second.db.prisma.opsJobRun.count()).toBe(0);
    expect(await second.db.prisma.cursor.count()).toBe(0);
    expect(second.db.migrations.applied).toEqual([]);
    const b = await second.db.prisma.opsJobRun.create({ data: run('second') });
    expect(b.id).toBe(a.id);
    expect((await second.db.query<{ statement_timeout: string }>('SHOW statement_timeout'))[0].statement_timeout).toBe('0');
    await second.done();
  });

  it('refuses a test that outlives its database: the returned view throws instead of writing into the next test', async () => {
    const first = await lendDb();
    await first.done();
    const next = await lendDb();
    expect(() => first.lent.pglite.query('SELECT 1')).toThrow(/revoked/);
    await expect(first.db.query('SELECT 1')).rejects.toThrow(/revoked/);
    expect(await next.db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await next.done();
  });

  it('closes an instance whose schema a test changed, one left inside a transaction and one a test closed; the next lend opens a fresh one', async () => {
    const cases: Array<[string, (pglite: PGlite) => Promise<unknown>]> = [
      ['schema changed', (p) => p.exec('ALTER TABLE ops_job_run ADD COLUMN extra int')],
      ['left inside a transaction', (p) => p.exec('BEGIN')],
      ['closed', (p) => p.close()],
    ];
    for (const [reason, spoil] of cases) {
      const lent = await pool.lend();
      const before = pool.stats.opened;
      await spoil(lent.pglite);
      await lent.giveBack();
      expect(pool.stats.closed.at(-1)).toBe(reason);
      const fresh = await lendDb();
      expect(pool.stats.opened).toBe(before + 1);
      expect(await fresh.db.prisma.opsJobRun.count()).toBe(0);
      await fresh.done();
    }
  });
});
