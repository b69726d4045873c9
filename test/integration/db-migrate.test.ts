import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/db/migrate';
import { createTestDb, postgresUrl, type TestDb } from '../helpers/db';

const serverUrl = postgresUrl();

describe(`migrations apply (${serverUrl ? 'postgres' : 'pglite'})`, () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('records every migration in _prisma_migrations with its checksum', async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    const rows = await t.db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((f) => [f.name, f.checksum]));
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(t.db.migrations.applied).toEqual(files.map((f) => f.name));
  });

  it('creates the spec tables', async () => {
    const rows = await t.db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    const names = rows.map((r) => r.tablename);
    for (const table of ['bet_result_event', 'cursor', 'quest_claim', 'ops_job_run', 'weekly_bet_leaderboard', 'price_snapshot']) {
      expect(names).toContain(table);
    }
  });

  it('is usable through Prisma', async () => {
    await t.prisma.cursor.create({ data: { eventKind: 'bet_result', transport: 'grpc', cursor: 'abc' } });
    const c = await t.prisma.cursor.findUniqueOrThrow({ where: { eventKind: 'bet_result' } });
    expect(c.eventsIndexed).toBe(0n);
  });
});
