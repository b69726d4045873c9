// Which database failures mean "the database cannot be reached or did not answer" (503 with
// Retry-After) rather than a bug of ours (500). Read from the error's fields only: no Prisma or pg
// import, so the edge's wire mapper can use it.
import { AppError } from '../errors';

/** Seconds a client is told to wait after a database failure: the edge takes a replica out within about a second. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Prisma's codes for a server it cannot reach or that stopped answering: not reachable, timed out,
 * operations timed out, connection closed, pool time-out, too many connections.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
/** P2028 is Prisma's transaction API error; only these of its messages are the database's fault. */
const PRISMA_TRANSACTION_TIMEOUT = /Unable to start a transaction in the given time|on an expired transaction/;
/** Driver-adapter kinds (Prisma's own classification of pg errors) that say the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket and DNS errors of node:net that mean nothing answers at the address (a refused, reset or unreachable connection). */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** What pg throws mid-query as well: the unreachable codes and a write to a socket the server closed. */
const SOCKET_CODES = new Set([...UNREACHABLE_CODES, 'EPIPE']);
/**
 * SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shut down by an administrator, after a
 * crash, not accepting connections yet), 53300 (too many connections), 57014 (statement time-out:
 * the database did not answer within DATABASE.STATEMENT_TIMEOUT_MS).
 */
const SQLSTATE = /^(08\w{3}|57P0[123]|53300|57014)$/;
/** pg's own errors carry no code, only these messages. */
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

interface ErrorFields {
  code?: unknown;
  errorCode?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
  errors?: unknown;
}

function isUnavailable(err: unknown, depth: number): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as ErrorFields;
  const code = typeof e.code === 'string' ? e.code : typeof e.errorCode === 'string' ? e.errorCode : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  if (code && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (code === 'P2028' && PRISMA_TRANSACTION_TIMEOUT.test(message)) return true;
  if (typeof e.originalCode === 'string' && SQLSTATE.test(e.originalCode)) return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (!code && PG_MESSAGES.test(message)) return true;
  const inner = [e.cause, e.meta?.driverAdapterError, ...(Array.isArray(e.errors) ? e.errors : [])];
  return inner.some((i) => i !== err && isUnavailable(i, depth + 1));
}

/**
 * A database connectivity failure (Prisma, a driver adapter or pg, however wrapped) as
 * `SERVICE_UNAVAILABLE` with `retryAfterSeconds`; undefined for anything else.
 */
export function databaseUnavailable(err: unknown): AppError | undefined {
  if (!isUnavailable(err, 0)) return undefined;
  return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS }, { cause: err });
}
