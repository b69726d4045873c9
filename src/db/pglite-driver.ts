// PGlite specifics. PGlite is one in-process session, so PostgreSQL advisory locks cannot
// exclude anyone: locks are kept in process (one process owns a PGlite data dir, see data-dir-lock.ts).
import type { PGlite } from '@electric-sql/pglite';
import { LeaseState, type Lease } from './lease';
import type { MigrationTarget } from './migrate';

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.#tail;
    let done!: () => void;
    this.#tail = new Promise<void>((r) => (done = r));
    await prev;
    try {
      return await fn();
    } finally {
      done();
    }
  }
}

const migrationMutexes = new WeakMap<PGlite, Mutex>();

export function pgliteMigrationTarget(db: PGlite): MigrationTarget {
  let mutex = migrationMutexes.get(db);
  if (!mutex) migrationMutexes.set(db, (mutex = new Mutex()));
  const m = mutex;
  return {
    withMigrationLock: (fn) =>
      m.run(() =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
          transaction: async (body) => {
            await db.transaction(async (tx) => {
              await body({
                exec: async (sql) => void (await tx.exec(sql)),
                query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
              });
            });
          },
        }),
      ),
  };
}

/** In-process advisory locks for one PGlite instance. */
export class PgliteLocks {
  readonly #held = new Map<bigint, LeaseState>();

  tryLock(key: bigint): Lease | null {
    if (this.#held.has(key)) return null;
    const lease = new LeaseState(key, async () => {
      this.#held.delete(key);
    });
    this.#held.set(key, lease);
    return lease;
  }

  /** Closing the database ends every lease. */
  loseAll(): void {
    for (const lease of this.#held.values()) lease.markLost(new Error('database closed'));
    this.#held.clear();
  }
}
