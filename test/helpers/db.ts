// Test databases. With DATABASE_URL set, each test DB is a fresh, uniquely named database on
// that server (migrated, dropped on cleanup). Without it, an in-process PGlite (in memory by
// default). REQUIRE_SERVICES=1 without DATABASE_URL fails instead of falling back.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { createDb, type CreateDbOptions, type Db } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { pgliteMigrationTarget } from '../../src/db/pglite-driver';

export type { Db };

export const testLogger: Logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** The PostgreSQL server URL tests may use, or undefined (PGlite). Throws under REQUIRE_SERVICES=1 without one. */
export function postgresUrl(): string | undefined {
  const url = process.env.DATABASE_URL || undefined;
  if (!url && process.env.REQUIRE_SERVICES === '1') {
    throw new Error('REQUIRE_SERVICES=1 but DATABASE_URL is not set: refusing to fall back to PGlite');
  }
  return url;
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** An empty database with a unique name on the server of `serverUrl` (not migrated). */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

let pgliteTemplate: Promise<Blob> | undefined;

/** A migrated PGlite image, made once per test worker: loading it takes ~1 s against ~5 s for initdb. */
function migratedPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const db = await PGlite.create();
    try {
      await migrate(pgliteMigrationTarget(db), { logger: testLogger });
      return await db.dumpDataDir('none');
    } finally {
      await db.close();
    }
  })();
  return pgliteTemplate;
}

export interface TestDb {
  db: Db;
  prisma: Db['prisma'];
  kind: Db['kind'];
  /** Set on PostgreSQL: the URL of this test's own database. */
  url?: string;
  /** PGlite on disk: its root dir (the database is in `${dataDir}/pglite`). */
  dataDir?: string;
  cleanup(): Promise<void>;
}

export interface TestDbOptions {
  /** PGlite only: on disk in a temp dir instead of in memory. */
  onDisk?: boolean;
  logger?: Logger;
  createDbOptions?: Partial<CreateDbOptions>;
}

export async function createTestDb(opts: TestDbOptions = {}): Promise<TestDb> {
  const logger = opts.logger ?? testLogger;
  const server = postgresUrl();
  if (server) {
    const scratch = await createScratchDatabase(server);
    try {
      const db = await createDb({ ...opts.createDbOptions, databaseUrl: scratch.url, dataDir: tmpdir(), logger, poolMax: 5 });
      return {
        db,
        prisma: db.prisma,
        kind: db.kind,
        url: scratch.url,
        async cleanup() {
          await db.close();
          await scratch.drop();
        },
      };
    } catch (e) {
      await scratch.drop().catch(() => {});
      throw e;
    }
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'testdb-'));
  const pgliteTemplateImage = opts.onDisk ? undefined : await migratedPgliteTemplate();
  const db = await createDb({ ...opts.createDbOptions, dataDir, logger, inMemory: !opts.onDisk, pgliteTemplate: pgliteTemplateImage }).catch(async (e: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  });
  return {
    db,
    prisma: db.prisma,
    kind: db.kind,
    dataDir: opts.onDisk ? dataDir : undefined,
    async cleanup() {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
