import { backoffDelay, isRetryable, sleep, type BackoffOptions } from './backoff.js';
import { EventDecodeError } from './decode.js';
import { eventTypeOf, type EventKind } from './kinds.js';
import { EventSourceError, type ChainEvent, type EventPage, type EventSource } from './sources/types.js';

/** A chain event with its JSON decoded into the kind's typed values. */
export interface DecodedEvent<T> extends Omit<ChainEvent, 'json'> {
  data: T;
}

export interface Batch<K extends string, T> {
  kind: K;
  /** Decoded events of this page, in ledger order; may be empty when only the cursor advanced. */
  events: DecodedEvent<T>[];
  /** Cursor this page was read from (null = genesis). */
  cursor: string | null;
  /** Cursor to store with these rows: resume from here after a restart. */
  nextCursor: string;
}

export interface FollowOptions<K extends string, T> {
  source: EventSource;
  kind: EventKind<K, T>;
  /** Package whose events are followed. */
  packageId: string;
  /** Stored cursor of this kind for this source's transport; null = from genesis. */
  startCursor: string | null;
  pageSize: number;
  /** Sleep between polls once caught up. */
  pollIntervalMs: number;
  signal: AbortSignal;
  /**
   * Called once per page that has events or moves the cursor, and awaited before the next page.
   * Write the rows and the cursor in one transaction. Throw an error with `retryable: true` to have
   * the same batch offered again after a backoff; any other error stops the follower.
   */
  onBatch(batch: Batch<K, T>): Promise<void>;
  /** Backoff for retryable failures. */
  retry?: BackoffOptions;
  /** Called each time the follower has caught up (a page said there is nothing more), before it sleeps. */
  onCaughtUp?(cursor: string | null): void;
  /** Observes each retry (logging, metrics). */
  onRetry?(info: { error: unknown; attempt: number; delayMs: number; stage: 'list' | 'batch' }): void;
  /** Decide what to do with an event whose JSON does not decode. Default: stop with the error. */
  onMalformedEvent?(error: EventDecodeError, event: ChainEvent): 'skip' | 'fail';
}

/** A page request's outcome, held without rejecting so a read-ahead nobody awaits never goes unhandled. */
type Fetched = { page: EventPage; error?: undefined } | { page?: undefined; error: unknown };

/**
 * Follows one event kind: pages while the source says there is more (short and empty pages
 * included), hands each page to `onBatch`, and sleeps `pollIntervalMs` once caught up.
 * While a page is being handed over (written), the next one is already being read from its
 * cursor: fetch and write overlap, and the cursor stored with each batch stays that batch's own.
 * Resolves with the last committed cursor when `signal` aborts; rejects on a non-retryable error.
 */
export async function followKind<K extends string, T>(options: FollowOptions<K, T>): Promise<string | null> {
  const { source, kind, signal } = options;
  const eventType = eventTypeOf(kind, options.packageId);
  let cursor = options.startCursor;
  let failures = 0;
  let readAhead: { cursor: string | null; fetched: Promise<Fetched> } | null = null;

  const fetchPage = (from: string | null): Promise<Fetched> =>
    source.listEvents({ eventType, cursor: from, limit: options.pageSize, signal }).then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    );

  const retryAfter = async (error: unknown, stage: 'list' | 'batch'): Promise<void> => {
    const delayMs = backoffDelay(failures, options.retry);
    failures++;
    options.onRetry?.({ error, attempt: failures, delayMs, stage });
    await sleep(delayMs, signal);
  };

  while (!signal.aborted) {
    const ahead: Fetched | null = readAhead?.cursor === cursor ? await readAhead.fetched : null;
    readAhead = null;
    const fetched: Fetched = ahead ?? (await fetchPage(cursor));
    if (!fetched.page) {
      if (signal.aborted) break;
      if (!isRetryable(fetched.error)) throw fetched.error;
      await retryAfter(fetched.error, 'list');
      continue;
    }
    const page: EventPage = fetched.page;
    const events = decodePage(page.events, kind, eventType, options, source);
    const nextCursor: string | null = page.nextCursor ?? cursor;
    if (events.length > 0 && nextCursor === null) {
      throw new EventSourceError(`${kind.key}: a page with events came without a cursor`, source.transport, false);
    }
    const progressed = nextCursor !== cursor;
    if (page.hasNextPage && progressed) readAhead = { cursor: nextCursor, fetched: fetchPage(nextCursor) };
    if (events.length > 0 || progressed) {
      const batch: Batch<K, T> = { kind: kind.key, events, cursor, nextCursor: nextCursor! };
      if (!(await deliver(batch, options, retryAfter))) break;
      cursor = nextCursor;
    }
    if (progressed || events.length > 0 || !page.hasNextPage) failures = 0;
    if (!page.hasNextPage) {
      options.onCaughtUp?.(cursor);
      await sleep(options.pollIntervalMs, signal);
    }
    else if (!progressed && events.length === 0) await retryAfter(new Error('no progress on a page with hasNextPage'), 'list');
  }
  return cursor;
}

/** Offers the batch until it is accepted; false when aborted first. */
async function deliver<K extends string, T>(
  batch: Batch<K, T>,
  options: FollowOptions<K, T>,
  retryAfter: (error: unknown, stage: 'batch') => Promise<void>,
): Promise<boolean> {
  for (;;) {
    try {
      await options.onBatch(batch);
      return true;
    } catch (error) {
      if (!isRetryable(error) || options.signal.aborted) throw error;
      await retryAfter(error, 'batch');
      if (options.signal.aborted) return false;
    }
  }
}

function decodePage<K extends string, T>(
  events: ChainEvent[],
  kind: EventKind<K, T>,
  eventType: string,
  options: FollowOptions<K, T>,
  source: EventSource,
): DecodedEvent<T>[] {
  const out: DecodedEvent<T>[] = [];
  for (const event of events) {
    const { json, ...meta } = event;
    if (event.type !== eventType) {
      throw new EventSourceError(`${kind.key}: source returned ${event.type} for ${eventType} (${event.txDigest}#${event.eventSeq})`, source.transport, false);
    }
    try {
      out.push({ ...meta, data: kind.decode(json) });
    } catch (error) {
      if (!(error instanceof EventDecodeError)) throw error;
      error.message = `${error.message} (tx ${event.txDigest}, event ${event.eventSeq})`;
      if ((options.onMalformedEvent?.(error, event) ?? 'fail') === 'fail') throw error;
    }
  }
  return out;
}
