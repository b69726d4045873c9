import { EventDecodeError } from './decode.js';
import { CursorConflictError } from './store.js';

/** A batch write that may succeed when tried again (database unreachable, serialization failure, …). */
export class RetryableWriteError extends Error {
  override readonly name = 'RetryableWriteError';
  readonly retryable = true;
}

/**
 * The one place that maps write failures: a moved cursor (another writer), a value that does
 * not fit a column and a decode failure are final; anything else (connection, timeout,
 * transaction conflict) is retried by the follower with backoff.
 */
export function classifyWriteError(error: unknown): unknown {
  if (error instanceof CursorConflictError || error instanceof RangeError || error instanceof EventDecodeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RetryableWriteError(`batch write failed: ${message}`, { cause: error });
}
