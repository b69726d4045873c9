import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, type MigrationTarget } from '../../src/db/migrate';
import { pgConnector, pgMigrationTarget } from '../../src/db/pg-driver';
import { pgliteMigrationTarget } from '../../src/db/pglite-driver';
import { createScratchDatabase, postgresUrl, testLogger, type ScratchDatabase } from '../helpers/db';

const serverUrl = postgresUrl();

interface Subject {
  target(): MigrationTarget;
  count(): Promise<number>;
  close(): Promise<void>;
}

async function subject(): Promise<Subject> {
  if (serverUrl) {
    const scratch: ScratchDatabase = await createScratchDatabase(serverUrl);
    const connect = pgConnector(scratch.url);
    return {
      target: () => pgMigrationTarget(connect),
      async count() {
        const c = await connect();
        try {
          return Number((await c.query('SELECT count(*) AS n FROM _prisma_migrations')).rows[0].n);
        } finally {
          await c.end();
        }
      },
      close: () => scratch.drop(),
    };
  }
  const db = await PGlite.create();
  return {
    target: () => pgliteMigrationTarget(db),
    count: async () => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n),
    close: () => db.close(),
  };
}

describe(`migrator (${serverUrl ? 'postgres' : 'pglite'})`, () => {
  let s: Subject;
  beforeAll(async () => {
    s = await subject();
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('two concurrent runs apply each migration exactly once', async () => {
    const files = await readMigrations();
    const [a, b] = await Promise.all([
      migrate(s.target(), { logger: testLogger }),
      migrate(s.target(), { logger: testLogger }),
    ]);
    expect([...a.applied, ...b.applied].sort()).toEqual(files.map((f) => f.name));
    expect(await s.count()).toBe(files.length);
  }, 120_000);

  it('is idempotent', async () => {
    const files = await readMigrations();
    const again = await migrate(s.target(), { logger: testLogger });
    expect(again).toEqual({ applied: [], alreadyApplied: files.length });
    expect(await s.count()).toBe(files.length);
  });

  it('rolls a failing migration back completely and records nothing', async () => {
    const files = await readMigrations();
    const bad = { name: '99999999999999_bad', sql: 'CREATE TABLE half_done (id int);\nSELECT no_such_function();', checksum: 'x' };
    await expect(migrate(s.target(), { logger: testLogger, migrations: [...files, bad] })).rejects.toThrow(/99999999999999_bad/);
    expect(await s.count()).toBe(files.length);
    const again = await migrate(s.target(), { logger: testLogger });
    expect(again.applied).toEqual([]);
  });
});
