// Start-up migration on both engines: PGlite always, PostgreSQL when DATABASE_URL is set
// (skipped otherwise; REQUIRE_SERVICES=1 turns the missing URL into a failure).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { readMigrations } from '../../src/db/migrate';
import { createScratchDatabase, postgresUrl, testLogger, type ScratchDatabase } from '../helpers/db';

const serverUrl = postgresUrl();

/** `settings`: what the engine's own start-up sets (SHOW name → value). */
function suite(open: () => Promise<{ db: Db; reopen: () => Promise<Db>; cleanup: () => Promise<void> }>, settings: Record<string, string>): void {
  let h: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    h = await open();
  }, 120_000);
  afterAll(async () => {
    await h?.cleanup();
  });

  it('records every migration in _prisma_migrations with its checksum', async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    const rows = await h.db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((f) => [f.name, f.checksum]));
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(h.db.migrations.applied).toEqual(files.map((f) => f.name));
  });

  it('runs with its own settings', async () => {
    for (const [name, value] of Object.entries(settings)) {
      expect((await h.db.query<Record<string, string>>(`SHOW ${name}`))[0]![name], name).toBe(value);
    }
  });

  it('creates the spec tables', async () => {
    const rows = await h.db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    const names = rows.map((r) => r.tablename);
    for (const table of ['bet_result_event', 'cursor', 'quest_claim', 'ops_job_run', 'weekly_bet_leaderboard', 'price_snapshot']) {
      expect(names).toContain(table);
    }
  });

  it('is usable through Prisma, and a restart applies nothing and keeps the data', async () => {
    await h.db.prisma.cursor.create({ data: { eventKind: 'bet_result', transport: 'grpc', cursor: 'abc' } });
    const db2 = await h.reopen();
    h.db = db2;
    expect(db2.migrations.applied).toEqual([]);
    const c = await db2.prisma.cursor.findUniqueOrThrow({ where: { eventKind: 'bet_result' } });
    expect(c.eventsIndexed).toBe(0n);
  }, 60_000);
}

describe('migrations apply on PGlite (on disk)', () => {
  suite(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'db-migrate-'));
    let db = await createDb({ dataDir, logger: testLogger });
    return {
      db,
      async reopen() {
        await db.close();
        db = await createDb({ dataDir, logger: testLogger });
        return db;
      },
      async cleanup() {
        await db.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
    // 32 MB of shared buffers, not initdb's 128 MB (src/db/client.ts), after PGlite's own parameters.
  }, { shared_buffers: '32MB', search_path: 'public', max_worker_processes: '0' });
});

describe.skipIf(!serverUrl)(`migrations apply on PostgreSQL${serverUrl ? '' : ' (skipped: DATABASE_URL not set)'}`, () => {
  suite(async () => {
    const scratch: ScratchDatabase = await createScratchDatabase(serverUrl!);
    const open = () => createDb({ databaseUrl: scratch.url, dataDir: tmpdir(), logger: testLogger });
    let db = await open();
    return {
      db,
      async reopen() {
        await db.close();
        db = await open();
        return db;
      },
      async cleanup() {
        await db.close();
        await scratch.drop();
      },
    };
    // The pool's sessions (src/db/client.ts): JIT never repays its compile time on these statements.
  }, { jit: 'off' });
});
