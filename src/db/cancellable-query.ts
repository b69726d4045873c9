// Queries that stop when their caller stops: on PostgreSQL an aborted signal cancels the running
// statement server-side (pg_cancel_backend from a dedicated connection, so a cancel never waits
// for a pool slot that the overload it is meant to relieve holds).
import pg from 'pg';
import type { Logger } from 'pino';
import { AppError } from '../errors';

export interface QueryOptions {
  /** When it aborts, the query is refused (not started) or cancelled in the server. */
  signal?: AbortSignal;
}

/**
 * The query was not run to the end because its caller's signal aborted. A REQUEST_TIMEOUT, not
 * INTERNAL: the request ended first (its answer, if any, was already sent), nothing is broken.
 */
export class QueryCancelledError extends AppError {
  constructor(message: string, cause: unknown) {
    super('REQUEST_TIMEOUT', message, undefined, { cause });
    this.name = 'QueryCancelledError';
  }
}

export function cancelledError(signal: AbortSignal, running: boolean, cause?: unknown): QueryCancelledError {
  const why = signal.reason instanceof Error ? signal.reason.message : 'aborted';
  return new QueryCancelledError(`query ${running ? 'cancelled' : 'not started'}: ${why}`, cause ?? signal.reason);
}

/** One lazily opened connection that only sends `pg_cancel_backend`; reopened after it fails. */
export function createCanceller(connectionString: string, logger: Logger): { cancel(pid: number): Promise<void>; close(): Promise<void> } {
  let client: Promise<pg.Client> | null = null;
  const open = () => {
    client ??= (async () => {
      const c = new pg.Client({ connectionString, application_name: 'query-canceller' });
      c.on('error', () => (client = null));
      await c.connect();
      return c;
    })().catch((e: unknown) => {
      client = null;
      throw e;
    });
    return client;
  };
  return {
    async cancel(pid) {
      try {
        await (await open()).query('SELECT pg_cancel_backend($1)', [pid]);
      } catch (e) {
        // The pool-wide statement_timeout still ends the query.
        logger.warn({ err: e, pid }, 'could not cancel a query');
        client = null;
      }
    },
    async close() {
      const c = client;
      client = null;
      if (c) await (await c.catch(() => null))?.end().catch(() => {});
    },
  };
}

/**
 * Runs one statement on a pooled connection watched by `signal`. A connection whose statement
 * was cancelled is discarded, not returned to the pool: a cancel arriving late must not hit the
 * next borrower's statement.
 */
export async function pgQueryWithSignal<T>(
  pool: pg.Pool,
  canceller: { cancel(pid: number): Promise<void> },
  sql: string,
  params: unknown[] | undefined,
  signal: AbortSignal,
): Promise<T[]> {
  if (signal.aborted) throw cancelledError(signal, false);
  const connecting = pool.connect();
  let client: pg.PoolClient;
  try {
    client = await abortable(connecting, signal);
  } catch (e) {
    // Gave up waiting for a pool slot: hand the connection back unused once it comes.
    void connecting.then((c) => c.release(), () => {});
    throw e;
  }
  if (signal.aborted) {
    client.release();
    throw cancelledError(signal, false);
  }
  const pid = (client as unknown as { processID: number }).processID;
  // A borrowed client has no pool listener: a connection the server drops (crash, kill) would emit
  // an unhandled 'error' and end the process. The failing query already reports it.
  const ignoreDrop = () => {};
  client.on('error', ignoreDrop);
  let cancelling: Promise<void> | null = null;
  const running = client.query(sql, params);
  const onAbort = () => void (cancelling = cancelUntilSettled(canceller, pid, running));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return (await running).rows as T[];
  } catch (e) {
    throw cancelling ? cancelledError(signal, true, e) : e;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (cancelling) await cancelling;
    client.removeListener('error', ignoreDrop);
    client.release(cancelling ? true : undefined);
  }
}

/**
 * A cancel that reaches the server before the statement has started finds an idle backend and is
 * lost (the cancel travels on another connection), so it is repeated, backing off, until the
 * statement has settled.
 */
async function cancelUntilSettled(canceller: { cancel(pid: number): Promise<void> }, pid: number, running: Promise<unknown>): Promise<void> {
  let settled = false;
  const done = running.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let waitMs = 25; !settled; waitMs = Math.min(waitMs * 2, 1_000)) {
    await canceller.cancel(pid);
    await Promise.race([done, new Promise((r) => setTimeout(r, waitMs).unref())]);
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(signal, false));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
