// The project's migrator: applies schema/migrations/<name>/migration.sql in name order, each in its
// own transaction, and records it in `_prisma_migrations` with Prisma's checksum (sha256 hex of
// the file), so `prisma migrate status/deploy` consider it applied. Runs under the advisory lock
// Prisma itself uses, so concurrent start-ups (and the CLI) take turns.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations', import.meta.url));

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** One connection holding the migration lock. */
export interface MigrationSession {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in a transaction; `exec` inside it accepts multi-statement SQL. */
  transaction(fn: (tx: MigrationTx) => Promise<void>): Promise<void>;
}

export interface MigrationTx {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface MigrationTarget {
  withMigrationLock<T>(fn: (session: MigrationSession) => Promise<T>): Promise<T>;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: checksum(sql) };
    }),
  );
}

// Same shape as the table Prisma's schema engine creates.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function migrate(
  target: MigrationTarget,
  opts: { logger: Logger; migrationsDir?: string; migrations?: MigrationFile[] },
): Promise<MigrateResult> {
  const files = opts.migrations ?? (await readMigrations(opts.migrationsDir));
  const log = opts.logger.child({ component: 'migrate' });
  return target.withMigrationLock(async (s) => {
    // Created only when absent: CREATE … IF NOT EXISTS still needs CREATE on the schema, which an
    // application role under separate migration credentials lacks (docs/operations.md).
    const [{ present }] = await s.query<{ present: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`);
    if (!present) await s.query(CREATE_TABLE);
    const rows = await s.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const failed = rows.filter((r) => r.finished_at === null);
    if (failed.length > 0) {
      throw new MigrationError(
        `migration(s) ${failed.map((r) => r.migration_name).join(', ')} failed earlier; resolve with \`npm run prisma -- migrate resolve\``,
      );
    }
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const known = new Set(files.map((f) => f.name));
    for (const r of rows) {
      if (!known.has(r.migration_name)) log.warn({ migration: r.migration_name }, 'applied migration is missing from the migrations directory');
    }
    const applied: string[] = [];
    for (const f of files) {
      const row = done.get(f.name);
      if (row) {
        if (row.checksum !== f.checksum) log.warn({ migration: f.name }, 'applied migration was edited since (checksum differs)');
        continue;
      }
      const started = Date.now();
      try {
        await s.transaction(async (tx) => {
          await tx.exec(f.sql);
          await tx.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
             VALUES ($1, $2, $3, $4, clock_timestamp(), 1)`,
            [randomUUID(), f.checksum, f.name, new Date(started)],
          );
        });
      } catch (e) {
        throw new MigrationError(`migration ${f.name} failed: ${(e as Error).message}`, { cause: e });
      }
      log.info({ migration: f.name, ms: Date.now() - started }, 'migration applied');
      applied.push(f.name);
    }
    return { applied, alreadyApplied: files.length - applied.length };
  });
}
