// PostgreSQL specifics: migration sessions and advisory-lock leases, each on a dedicated
// connection outside the pool (session-level locks must not go back to a pool).
import pg from 'pg';
import type { Logger } from 'pino';
import { LeaseState, type Lease } from './lease';
import { PRISMA_MIGRATE_LOCK_KEY } from './lock-key';
import type { MigrationSession, MigrationTarget } from './migrate';

export type PgConnect = () => Promise<pg.Client>;

export function pgConnector(connectionString: string): PgConnect {
  return async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    return client;
  };
}

async function rows<T>(client: pg.Client, sql: string, params?: unknown[]): Promise<T[]> {
  return (await client.query(sql, params)).rows as T[];
}

export function pgMigrationTarget(connect: PgConnect): MigrationTarget {
  return {
    async withMigrationLock(fn) {
      const client = await connect();
      client.on('error', () => {}); // surfaced by the failing query instead
      try {
        await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY.toString()]);
        const session: MigrationSession = {
          query: (sql, params) => rows(client, sql, params),
          async transaction(body) {
            await client.query('BEGIN');
            try {
              // No parameters: pg uses the simple protocol, so multi-statement scripts work.
              await body({ exec: async (sql) => void (await client.query(sql)), query: (sql, params) => rows(client, sql, params) });
              await client.query('COMMIT');
            } catch (e) {
              await client.query('ROLLBACK').catch(() => {});
              throw e;
            }
          },
        };
        return await fn(session);
      } finally {
        // Ending the session releases the lock too.
        await client.end().catch(() => {});
      }
    },
  };
}

export async function pgTryAdvisoryLock(
  connect: PgConnect,
  key: bigint,
  opts: { logger: Logger; checkIntervalMs: number },
): Promise<Lease | null> {
  const client = await connect();
  const probe: { timer?: NodeJS.Timeout } = {};
  const state = new LeaseState(key, async () => {
    clearInterval(probe.timer);
    await client.query('SELECT pg_advisory_unlock($1)', [key.toString()]).catch(() => {});
    await client.end().catch(() => {});
  });
  client.on('error', (e) => state.markLost(e));
  client.on('end', () => state.markLost(new Error('connection ended')));
  try {
    const [row] = await rows<{ ok: boolean }>(client, 'SELECT pg_try_advisory_lock($1) AS ok', [key.toString()]);
    if (!row?.ok) {
      await client.end();
      return null;
    }
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
  // A silently dead connection only shows up when used: probe it.
  probe.timer = setInterval(() => {
    client.query('SELECT 1').catch((e: unknown) => state.markLost(e));
  }, opts.checkIntervalMs);
  probe.timer.unref();
  state.signal.addEventListener('abort', () => {
    clearInterval(probe.timer);
    if (state.lost) {
      opts.logger.warn({ key: key.toString() }, 'advisory lock lost');
      void client.end().catch(() => {});
    }
  });
  return state;
}
