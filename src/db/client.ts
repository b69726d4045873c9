// Database factory: PostgreSQL through @prisma/adapter-pg when a URL is given, otherwise an
// in-process PGlite at `${dataDir}/pglite`. Migrations are applied before the client is returned.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Logger } from 'pino';
import { PrismaClient } from '../generated/prisma/client';
import { lockDataDir } from './data-dir-lock';
import type { Lease, LockOutcome } from './lease';
import { cancelledError, createCanceller, pgQueryWithSignal, QueryCancelledError, type QueryOptions } from './cancellable-query';
import { toLockKey, type LockKey } from './lock-key';
import { isPgBouncerUrl, withoutPgBouncerFlag } from '../config/database-url';
import { migrate, type MigrateResult, type MigrationTarget } from './migrate';
import { pgConnector, pgMigrationTarget, pgTryAdvisoryLock } from './pg-driver';
import { PgliteLocks, pgliteMigrationTarget } from './pglite-driver';

export type { Lease, LockKey, LockOutcome, QueryOptions };
export { QueryCancelledError };

// adapter-pg carries its own (newer) @types/pg; the runtime pg is the same package.
type PgPoolArg = ConstructorParameters<typeof PrismaPg>[0];
export { PrismaClient };

export interface Db {
  prisma: PrismaClient;
  kind: 'postgres' | 'pglite';
  /**
   * Raw parameterised SQL ($1, $2…). Value types follow the driver: numeric and (on pg) int8
   * come back as strings; prefer Prisma where exact types matter. With `signal`, an aborted
   * caller cancels the statement (PostgreSQL) or at least never starts it (PGlite); either way
   * the promise rejects with QueryCancelledError.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Session-level advisory lock on its own connection; null if someone else holds it. */
  tryAdvisoryLock(key: LockKey): Promise<Lease | null>;
  /** tryAdvisoryLock + run + release. `fn` should watch `lease.signal` for loss. */
  withAdvisoryLock<T>(key: LockKey, fn: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>>;
  /** What start-up migration did. */
  migrations: MigrateResult;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** postgres://… ; unset → embedded PGlite. With `pgbouncer=true`: a PgBouncer in transaction mode (src/config/database-url.ts). */
  databaseUrl?: string;
  /** Session connection for migrations and advisory-lock leases; unset: databaseUrl. Required with `pgbouncer=true`. */
  directUrl?: string;
  /** Root for embedded data; PGlite lives in `${dataDir}/pglite`. */
  dataDir: string;
  logger: Logger;
  /** Defaults to schema/migrations in this repository. */
  migrationsDir?: string;
  /** pg pool size (default 10). */
  poolMax?: number;
  /**
   * PostgreSQL only: `statement_timeout` of every pooled connection (Prisma's too), a safety net
   * behind per-request cancellation; unset or 0 = none (scripts, rebuilds).
   */
  statementTimeoutMs?: number;
  /** PGlite only: keep the database in memory (benchmarks); dataDir is then unused. */
  inMemory?: boolean;
  /**
   * PGlite only: an open database to use instead of opening one (tests lend one instance to test after
   * test). It stays the caller's: close() ends this Db's use of it and leaves it open.
   */
  pglite?: PGlite;
  /** How often a held PostgreSQL lease checks its connection (default 5000 ms). */
  leaseCheckIntervalMs?: number;
  /**
   * How long an interactive transaction may wait for a pooled connection before it fails (503
   * SERVICE_UNAVAILABLE). Default 5000 ms, HTTP.REQUEST_TIMEOUT_MS's default: a request's
   * transaction waits for a connection as long as the request may (Prisma's own 2 s refused
   * bursts that the pool would have served in time).
   */
  transactionMaxWaitMs?: number;
}

const DEFAULT_TRANSACTION_MAX_WAIT_MS = 5000;
const transactionOptions = (opts: CreateDbOptions) => ({ maxWait: opts.transactionMaxWaitMs ?? DEFAULT_TRANSACTION_MAX_WAIT_MS });

export async function createDb(opts: CreateDbOptions): Promise<Db> {
  return opts.databaseUrl ? createPostgresDb(opts, opts.databaseUrl) : createPgliteDb(opts);
}

async function runMigrations(target: MigrationTarget, opts: CreateDbOptions): Promise<MigrateResult> {
  return migrate(target, { logger: opts.logger, migrationsDir: opts.migrationsDir });
}

function prismaLogging(prisma: PrismaClient, logger: Logger): void {
  const log = logger.child({ component: 'prisma' });
  prisma.$on('warn' as never, (e: { message: string }) => log.warn(e.message));
  prisma.$on('error' as never, (e: { message: string }) => log.error(e.message));
}

const PRISMA_LOG = [
  { emit: 'event', level: 'warn' },
  { emit: 'event', level: 'error' },
] as const;

async function withLease<T>(lease: Lease | null, fn: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>> {
  if (!lease) return { acquired: false };
  try {
    return { acquired: true, value: await fn(lease) };
  } finally {
    await lease.release();
  }
}

async function createPostgresDb(opts: CreateDbOptions, url: string): Promise<Db> {
  const logger = opts.logger.child({ db: 'postgres' });
  const pgbouncer = isPgBouncerUrl(url);
  if (pgbouncer && !opts.directUrl) throw new Error('DATABASE_URL with pgbouncer=true needs a direct (session) URL for migrations and advisory-lock leases');
  // Session-level advisory locks (migrations, leader leases) need a connection that stays one server session.
  const connect = pgConnector(opts.directUrl ?? url);
  const migrations = await runMigrations(pgMigrationTarget(connect), opts);
  // JIT off: our statements are short indexed reads and writes that never repay its compile time
  // (it added 0.7 s to the old whole-board rank query). PgBouncer refuses both startup parameters:
  // behind it they belong on the database role (ALTER ROLE … SET jit = off, SET statement_timeout).
  const sessionSettings = pgbouncer ? {} : { options: '-c jit=off', statement_timeout: opts.statementTimeoutMs || undefined };
  const pool = new pg.Pool({ connectionString: withoutPgBouncerFlag(url), max: opts.poolMax ?? 10, ...sessionSettings });
  // Behind PgBouncer a pooled connection's backend id is PgBouncer's own: pg_cancel_backend would miss.
  const canceller = pgbouncer ? null : createCanceller(opts.directUrl ?? url, logger);
  pool.on('error', (e) => logger.warn({ err: e }, 'idle pg client error'));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool as unknown as PgPoolArg), log: [...PRISMA_LOG], transactionOptions: transactionOptions(opts) });
  prismaLogging(prisma, logger);
  const leases = new Set<Lease>();
  const tryAdvisoryLock = async (key: LockKey): Promise<Lease | null> => {
    const lease = await pgTryAdvisoryLock(connect, toLockKey(key), {
      logger,
      checkIntervalMs: opts.leaseCheckIntervalMs ?? 5000,
    });
    if (lease) {
      leases.add(lease);
      lease.signal.addEventListener('abort', () => leases.delete(lease));
    }
    return lease;
  };
  return {
    prisma,
    kind: 'postgres',
    migrations,
    query: async <T>(sql: string, params?: unknown[], q?: QueryOptions) => {
      if (q?.signal && canceller) return pgQueryWithSignal<T>(pool, canceller, sql, params, q.signal);
      if (q?.signal?.aborted) throw cancelledError(q.signal, false);
      return (await pool.query(sql, params)).rows as T[];
    },
    tryAdvisoryLock,
    withAdvisoryLock: async (key, fn) => withLease(await tryAdvisoryLock(key), fn),
    async close() {
      await Promise.all([...leases].map((l) => l.release()));
      await prisma.$disconnect();
      await canceller?.close();
      await pool.end();
    },
  };
}

/**
 * The embedded database's PostgreSQL settings: PGlite's own, with 32 MB of shared buffers instead of
 * initdb's 128 MB. PGlite zeroes them at every open: 128 MB made each start of a process on defaults
 * cost about 0.8 s of CPU and 110 MB more RSS, against about 0.4 s. The embedded database is the
 * development and single-process one; its pages also sit in the OS page cache.
 */
const embeddedStartParams = (pgliteClass: typeof PGlite): string[] => [...pgliteClass.defaultStartParams, '-c', 'shared_buffers=32MB'];

async function createPgliteDb(opts: CreateDbOptions): Promise<Db> {
  // Loaded here: a process on PostgreSQL never needs PGlite's modules (issue 47, idle memory).
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const logger = opts.logger.child({ db: 'pglite' });
  let unlockDir = async (): Promise<void> => {};
  let pglite: PGlite;
  if (opts.pglite) {
    pglite = opts.pglite;
  } else if (opts.inMemory) {
    pglite = await PGlite.create();
  } else {
    const dir = join(opts.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    unlockDir = await lockDataDir(dir);
    try {
      pglite = await PGlite.create(dir, { startParams: embeddedStartParams(PGlite) });
    } catch (e) {
      await unlockDir();
      throw e;
    }
  }
  let migrations: MigrateResult;
  try {
    migrations = await runMigrations(pgliteMigrationTarget(pglite), opts);
  } catch (e) {
    if (!opts.pglite) await pglite.close();
    await unlockDir();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), log: [...PRISMA_LOG], transactionOptions: transactionOptions(opts) });
  prismaLogging(prisma, logger);
  const locks = new PgliteLocks();
  return {
    prisma,
    kind: 'pglite',
    migrations,
    // PGlite is one in-process session: a running statement cannot be cancelled, so a signal
    // only keeps an already-ended request from starting one.
    query: async <T>(sql: string, params?: unknown[], q?: QueryOptions) => {
      if (q?.signal?.aborted) throw cancelledError(q.signal, false);
      return (await pglite.query<T>(sql, params)).rows;
    },
    tryAdvisoryLock: async (key) => locks.tryLock(toLockKey(key)),
    withAdvisoryLock: async (key, fn) => withLease(locks.tryLock(toLockKey(key)), fn),
    async close() {
      locks.loseAll();
      await prisma.$disconnect();
      if (!opts.pglite) await pglite.close();
      await unlockDir();
    },
  };
}
