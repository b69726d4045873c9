import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/client';
import { readMigrations } from '../../db/migrate';
import type { SharedStore } from '../../store';
import type { CheckResult } from './model';

/**
 * How long one readiness answer waits on the database before it counts as unreachable: the
 * answer, HTTP included, stays within the edge's 1 s check whatever the database does.
 */
const DB_CHECK_TIMEOUT_MS = 750;
/** A database probe still unsettled after this long is left behind and a new one sent (a connection that never answers nor fails). */
const STUCK_PROBE_MS = 10_000;

/** Checks that may fail while the replica still serves (on per-process state): reported, never a reason to take it out. */
export type DegradedCheck = 'store';

export interface ReadinessReport {
  ready: boolean;
  checks: {
    database: CheckResult;
    store: CheckResult;
    migrations: CheckResult;
    shuttingDown: boolean;
    startingUp: boolean;
    /** Failed checks this replica serves through (a shared-store outage: limits and presence per process). */
    degraded: DegradedCheck[];
  };
}

export interface ReadinessService {
  /**
   * Whether this replica can serve: database reachable (answered within 750 ms), this build's
   * migrations applied, not shutting down, nothing it serves still opening. A shared-store outage
   * leaves it ready, listed in `degraded`. Never waits longer than the database bound.
   */
  check(): Promise<ReadinessReport>;
  /** From now on the process reports unready (SIGTERM: the edge stops sending new requests). */
  markShuttingDown(): void;
  /**
   * Unready until `task` settles, however it ends: a component this process serves is still
   * opening, so the edge routes elsewhere meanwhile.
   */
  startingUntil(task: Promise<unknown>): void;
}

interface DbChecks {
  database: CheckResult;
  migrations: CheckResult;
}

const UNREACHABLE: DbChecks = { database: 'failed', migrations: 'failed' };

export function createReadinessService(deps: { db: Db; store: SharedStore; migrationsDir?: string; registry?: Registry }): ReadinessService {
  let shuttingDown = false;
  let starting = 0;
  // This build's migrations: a replica whose schema is older than its code must not take traffic.
  let expected: Promise<string[]> | null = null;
  const expectedNames = () => (expected ??= readMigrations(deps.migrationsDir).then((files) => files.map((f) => f.name)));
  const storeDegraded = () => deps.store.kind === 'redis' && deps.store.active !== 'redis';

  if (deps.registry) {
    new Gauge({
      name: 'readiness_degraded',
      help: '1 while a check fails that this process serves through (store: the shared store is unreachable, limits and presence are per process)',
      labelNames: ['check'] as const,
      registers: [deps.registry],
      collect() {
        this.set({ check: 'store' }, storeDegraded() ? 1 : 0);
      },
    });
  }

  async function probeDatabase(): Promise<DbChecks> {
    try {
      const names = await expectedNames();
      const rows = await deps.db.query<{ n: number | string }>(
        `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL AND migration_name = ANY($1)`,
        [names],
        { signal: AbortSignal.timeout(DB_CHECK_TIMEOUT_MS) },
      );
      return { database: 'ok', migrations: Number(rows[0]?.n) === names.length ? 'ok' : 'failed' };
    } catch {
      return UNREACHABLE;
    }
  }

  // One probe in flight, shared by concurrent answers: on a frozen database a cancelled query can
  // stay unsettled for as long as the freeze lasts, and a probe per health check would pile up.
  let inFlight: { startedAt: number; result: Promise<DbChecks> } | null = null;
  function databaseWithin(ms: number): Promise<DbChecks> {
    if (!inFlight || Date.now() - inFlight.startedAt > STUCK_PROBE_MS) {
      const probe = { startedAt: Date.now(), result: probeDatabase() };
      inFlight = probe;
      void probe.result.then(() => {
        if (inFlight === probe) inFlight = null;
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DbChecks>((resolve) => (timer = setTimeout(resolve, ms, UNREACHABLE)));
    return Promise.race([inFlight.result, late]).finally(() => clearTimeout(timer));
  }

  if (deps.registry) {
    new Gauge({
      name: 'database_up',
      help: 'Whether the database answered this scrape\'s readiness probe within 750 ms (1) or not (0); shares the probe /api/health/ready runs',
      registers: [deps.registry],
      async collect() {
        this.set((await databaseWithin(DB_CHECK_TIMEOUT_MS)).database === 'ok' ? 1 : 0);
      },
    });
  }

  return {
    async check() {
      const { database, migrations } = await databaseWithin(DB_CHECK_TIMEOUT_MS);
      const store: CheckResult = storeDegraded() ? 'failed' : 'ok';
      const checks = { database, store, migrations, shuttingDown, startingUp: starting > 0, degraded: store === 'failed' ? ['store' as const] : [] };
      return { ready: database === 'ok' && migrations === 'ok' && !shuttingDown && starting === 0, checks };
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
