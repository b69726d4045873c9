import type { Db } from '../../db/client';
import { readMigrations } from '../../db/migrate';
import type { SharedStore } from '../../store';
import type { CheckResult } from './model';

/** How long one readiness probe may wait on the database before it counts as unreachable. */
const DB_CHECK_TIMEOUT_MS = 1000;


export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckResult; store: CheckResult; migrations: CheckResult; shuttingDown: boolean; startingUp: boolean };
}

export interface ReadinessService {
  /** Database and shared store reachable, this build's migrations applied, not shutting down. */
  check(): Promise<ReadinessReport>;
  /** From now on the process reports unready (SIGTERM: the edge stops sending new requests). */
  markShuttingDown(): void;
  /**
   * Unready until `task` settles, however it ends: a component this process serves is still
   * opening (the blog CMS), so the edge routes elsewhere meanwhile.
   */
  startingUntil(task: Promise<unknown>): void;
}

export function createReadinessService(deps: { db: Db; store: SharedStore; migrationsDir?: string }): ReadinessService {
  let shuttingDown = false;
  let starting = 0;
  // This build's migrations: a replica whose schema is older than its code must not take traffic.
  let expected: Promise<string[]> | null = null;
  const expectedNames = () => (expected ??= readMigrations(deps.migrationsDir).then((files) => files.map((f) => f.name)));

  async function migrationsApplied(): Promise<{ database: CheckResult; migrations: CheckResult }> {
    try {
      const names = await expectedNames();
      const rows = await deps.db.query<{ n: number | string }>(
        `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL AND migration_name = ANY($1)`,
        [names],
        { signal: AbortSignal.timeout(DB_CHECK_TIMEOUT_MS) },
      );
      return { database: 'ok', migrations: Number(rows[0]?.n) === names.length ? 'ok' : 'failed' };
    } catch {
      return { database: 'failed', migrations: 'failed' };
    }
  }

  return {
    async check() {
      const { database, migrations } = await migrationsApplied();
      // A Redis-backed store serving from memory is an outage: counters and broadcasts are per replica then.
      const store: CheckResult = deps.store.kind === 'redis' && deps.store.active !== 'redis' ? 'failed' : 'ok';
      const checks = { database, store, migrations, shuttingDown, startingUp: starting > 0 };
      return { ready: database === 'ok' && store === 'ok' && migrations === 'ok' && !shuttingDown && starting === 0, checks };
    },
    markShuttingDown() {
      shuttingDown = true;
    },
    startingUntil(task) {
      starting++;
      const done = () => void starting--;
      task.then(done, done);
    },
  };
}
