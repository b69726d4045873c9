// Test databases. With DATABASE_URL set, each test DB is a fresh, uniquely named database on
// that server (migrated, dropped on cleanup). Without it, an in-process PGlite: in memory by
// default, lent by this worker's pool (pglite-pool.ts). REQUIRE_SERVICES=1 without DATABASE_URL
// fails instead of falling back.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { createDb, type CreateDbOptions, type Db } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { pgliteMigrationTarget } from '../../src/db/pglite-driver';
import { PglitePool } from './pglite-pool';

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

const withAdmin = async <T>(serverUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
};

const databaseUrl = (serverUrl: string, name: string): string => {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

const dropDatabase = (serverUrl: string, name: string): Promise<void> =>
  withAdmin(serverUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

/**
 * A database with a unique name on the server of `serverUrl`: empty, or with `migrated` a copy of the
 * server's migrated template (for tests whose subject is not the first start on an empty database).
 */
export async function createScratchDatabase(serverUrl: string, opts: { migrated?: boolean } = {}): Promise<ScratchDatabase> {
  const template = opts.migrated ? await migratedServerTemplate(serverUrl) : undefined;
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return { url: databaseUrl(serverUrl, name), name, drop: () => dropDatabase(serverUrl, name) };
}

const serverTemplates = new Map<string, Promise<string>>();

/**
 * The name of a migrated database on that server, made once and kept between runs under the same key as
 * the PGlite templates: copying it (`CREATE DATABASE … TEMPLATE`) costs about half the server's CPU of
 * an empty database migrated, and 0.4 s less wait. It takes no connections once made, as a template
 * requires. The first finished copy wins (a rename, as the PGlite templates').
 */
function migratedServerTemplate(serverUrl: string): Promise<string> {
  let template = serverTemplates.get(serverUrl);
  if (!template) {
    template = (async () => {
      const name = `test_template_${templateKey('server')}`;
      const exists = await withAdmin(serverUrl, (admin) => admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
      if (exists.rowCount) return name;
      const partial = await createScratchDatabase(serverUrl);
      try {
        const db = await createDb({ databaseUrl: partial.url, dataDir: tmpdir(), logger: testLogger, poolMax: 1 });
        await db.close();
        await withAdmin(serverUrl, async (admin) => {
          await admin.query(`ALTER DATABASE "${partial.name}" RENAME TO "${name}"`);
          // No connections at all, autovacuum's included: a template in use cannot be copied.
          await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
        }).catch((e: { code?: string }) => {
          // Another worker renamed its copy first (duplicate_database): use theirs.
          if (e.code !== '42P04') throw e;
        });
      } finally {
        await partial.drop();
      }
      return name;
    })();
    serverTemplates.set(serverUrl, template);
  }
  return template;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Migrated PGlite templates, kept between runs under a key of everything they depend on. */
const TEMPLATE_CACHE = join(ROOT, 'node_modules/.cache/platform-tests');

/**
 * The in-memory template's own settings, test speed and memory only: 1 MB WAL segments instead of
 * 16, 16 MB of shared buffers instead of 128 (a smaller image, quicker to load), and at most 32 MB
 * of WAL before a checkpoint (a pooled instance serves many tests; its WAL lives in memory). The
 * schema and every migration are the app's own.
 */
const MEMORY_TEMPLATE = {
  initdb: ['--wal-segsize=1'],
  sql: ["ALTER SYSTEM SET shared_buffers = '16MB'", "ALTER SYSTEM SET max_wal_size = '32MB'", 'CHECKPOINT'],
};

/** PGlite's version, the migrations, the migrator and the template recipe: a change to any makes a new template. */
function templateKey(kind: string): string {
  const hash = createHash('sha256').update(kind).update(JSON.stringify(MEMORY_TEMPLATE));
  hash.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  for (const file of ['src/db/migrate.ts', 'src/db/pglite-driver.ts', 'src/db/client.ts']) hash.update(readFileSync(join(ROOT, file)));
  const migrations = join(ROOT, 'schema/migrations');
  for (const name of readdirSync(migrations).sort()) {
    const sql = join(migrations, name, 'migration.sql');
    if (existsSync(sql)) hash.update(name).update(readFileSync(sql));
  }
  return hash.digest('hex').slice(0, 16);
}

/** `build` writes the template at the path it is given; the first finished copy wins (rename is atomic). */
async function cachedTemplate(name: string, build: (path: string) => Promise<void>): Promise<string> {
  const final = join(TEMPLATE_CACHE, name);
  if (existsSync(final)) return final;
  await mkdir(TEMPLATE_CACHE, { recursive: true });
  const partial = `${final}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await build(partial);
    await rename(partial, final).catch((e: NodeJS.ErrnoException) => {
      // Another worker finished first (a directory target exists): use theirs.
      if (!existsSync(final)) throw e;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  // A template of another key (older migrations) left for an hour is not coming back.
  const kind = name.replace(/-[0-9a-f]{16}(\.tar)?$/, '');
  for (const entry of readdirSync(TEMPLATE_CACHE)) {
    const other = join(TEMPLATE_CACHE, entry);
    if (entry !== name && new RegExp(`^${kind}-[0-9a-f]{16}(\\.tar)?$`).test(entry) && Date.now() - statSync(other).mtimeMs > 3_600_000) {
      await rm(other, { recursive: true, force: true }).catch(() => {});
    }
  }
  return final;
}

let pgliteTemplate: Promise<Blob> | undefined;

/** A migrated in-memory PGlite image (a tarball), made once and kept: loading it takes 0.35–0.9 s of CPU (by machine) against ~5 s for initdb and migrations. */
export function migratedPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = await cachedTemplate(`memory-${templateKey('memory')}.tar`, async (path) => {
      const db = await PGlite.create({ initDbStartParams: MEMORY_TEMPLATE.initdb });
      try {
        await migrate(pgliteMigrationTarget(db), { logger: testLogger });
        for (const sql of MEMORY_TEMPLATE.sql) await db.exec(sql);
        await writeFile(path, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
      } finally {
        await db.close();
      }
    });
    return new Blob([await readFile(file)]);
  })();
  return pgliteTemplate;
}

let diskTemplate: Promise<string> | undefined;

/**
 * A migrated on-disk PGlite directory as the app makes it on first start (`createDb` on an empty
 * DATA_DIR, initdb's defaults), made once and kept.
 */
function migratedDiskTemplate(): Promise<string> {
  diskTemplate ??= cachedTemplate(`disk-${templateKey('disk')}`, async (path) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pglite-template-'));
    try {
      const db = await createDb({ dataDir, logger: testLogger });
      await db.close();
      await rename(join(dataDir, 'pglite'), path);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  return diskTemplate;
}

/**
 * A new temporary DATA_DIR for a process or script of ours that opens the embedded database:
 * without DATABASE_URL it already holds a migrated PGlite (a copy of the on-disk template),
 * so the process skips initdb and the migrations (~4 s of CPU each). For tests whose subject is
 * not the first start; a test of the first start uses an empty directory.
 */
export async function migratedDataDir(prefix = 'data-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (!process.env.DATABASE_URL) await cp(await migratedDiskTemplate(), join(dir, 'pglite'), { recursive: true });
  return dir;
}

/**
 * A migrated database for a process of ours and for the test beside it: a scratch database on the
 * PostgreSQL server when there is one, else the PGlite in a data directory. `env` is what a spawned
 * process needs to open it, `open` opens it in this process; `cleanup` drops the database and
 * removes the directory.
 */
export interface MigratedTarget {
  env: { DATA_DIR: string; DATABASE_URL: string };
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

export async function migratedTarget(prefix: string): Promise<MigratedTarget> {
  const server = postgresUrl();
  const dataDir = await migratedDataDir(prefix);
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  let scratch: ScratchDatabase | undefined;
  try {
    scratch = server ? await createScratchDatabase(server, { migrated: true }) : undefined;
  } catch (e) {
    await removeDir();
    throw e;
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch?.url ?? '' },
    open: () => createDb({ databaseUrl: scratch?.url, dataDir, logger: testLogger }),
    async cleanup() {
      await scratch?.drop();
      await removeDir();
    },
  };
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
    const scratch = await createScratchDatabase(server, { migrated: true });
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
  if (!opts.onDisk) return lentTestDb(opts, logger);
  const dataDir = await migratedDataDir('testdb-');
  const db = await createDb({ ...opts.createDbOptions, dataDir, logger }).catch(async (e: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  });
  return {
    db,
    prisma: db.prisma,
    kind: db.kind,
    dataDir,
    async cleanup() {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** This worker's in-memory databases, opened from the migrated template and lent test after test. */
const memoryPool = new PglitePool(async () => PGlite.create({ loadDataDir: await migratedPgliteTemplate() }));

async function lentTestDb(opts: TestDbOptions, logger: Logger): Promise<TestDb> {
  const lent = await memoryPool.lend();
  const db = await createDb({ ...opts.createDbOptions, dataDir: tmpdir(), logger, pglite: lent.pglite }).catch(async (e: unknown) => {
    await lent.giveBack();
    throw e;
  });
  return {
    db,
    prisma: db.prisma,
    kind: db.kind,
    async cleanup() {
      await db.close();
      await lent.giveBack();
    },
  };
}
