import { backoffDelay, isRetryable, sleep, type BackoffOptions } from './backoff.js';
import { EventDecodeError } from './decode.js';
import { eventTypeOf, type EventKind } from './kinds.js';
import { EventSourceError, type ChainEvent, type EventPage, type EventSource, type PagePosition } from './sources/types.js';

/** A chain event with its JSON decoded into the kind's typed values. */
export interface DecodedEvent<T> extends Omit<ChainEvent, 'json'> {
  data: T;
}

export interface Batch<K extends string, T> {
  kind: K;
  /** Decoded events of this batch's pages (one or more consecutive ones), in ledger order; may be empty when only the cursor advanced. */
  events: DecodedEvent<T>[];
  /** Cursor the batch's first page was read from (null = genesis). */
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
  /**
   * Consecutive pages written together as one batch (default 1): while the pages say there is
   * more (a backfill), a batch takes up to this many pages as they are read; a page that says it
   * is the last goes out at once (at the chain's tip each page is written as it comes). While a
   * batch is written, up to this many pages plus one are read ahead.
   */
  pagesPerBatch?: number;
  /** Sleep between polls once caught up. */
  pollIntervalMs: number;
  signal: AbortSignal;
  /**
   * Called once per batch (consecutive pages) that has events or moves the cursor, and awaited before the next one.
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

/** One page read from `from`; `settled` is set once it is read, `position` once the source says where it leaves off (at the latest when it is read). */
interface Read {
  from: string | null;
  fetched: Promise<Fetched>;
  settled?: Fetched;
  position?: PagePosition;
}

/** Where a page leaves off: its cursor (or `from` when it gives none), and whether it moved and the chain goes on. */
function after(read: Read, page: PagePosition): { next: string | null; continues: boolean } {
  const next = page.nextCursor ?? read.from;
  return { next, continues: page.hasNextPage && next !== read.from };
}

/**
 * Follows one event kind: pages while the source says there is more (short and empty pages
 * included), hands the pages to `onBatch`, and sleeps `pollIntervalMs` once caught up.
 * While a batch is being handed over (written), the next pages are already being read, each
 * from the previous one's cursor: fetch and write overlap, a backfill's pages are written
 * `pagesPerBatch` at a time, and the cursor stored with each batch is its last page's.
 * Resolves with the last committed cursor when `signal` aborts; rejects on a non-retryable error.
 */
export async function followKind<K extends string, T>(options: FollowOptions<K, T>): Promise<string | null> {
  const { source, kind, signal } = options;
  const eventType = eventTypeOf(kind, options.packageId);
  const depth = Math.max(options.pagesPerBatch ?? 1, 1);
  let cursor = options.startCursor;
  let failures = 0;
  /** Pages read (or being read) and not yet taken by the writer, each from the previous one's cursor; the first from `cursor`. */
  let reads: Read[] = [];

  const read = (from: string | null): Read => {
    const known = (position: PagePosition) => {
      entry.position ??= position;
      readOn();
    };
    const entry: Read = {
      from,
      fetched: source.listEvents({ eventType, cursor: from, limit: options.pageSize, signal, onPosition: known }).then(
        (page) => ({ page }),
        (error: unknown) => ({ error }),
      ),
    };
    void entry.fetched.then((fetched) => {
      entry.settled = fetched;
      if (fetched.page) known(fetched.page);
    });
    return entry;
  };

  /**
   * Starts the next read after the last one, once the last one's position is known (a page need
   * not be complete: the next read overlaps its transaction times), if it goes on and the
   * read-ahead has room (`depth` pages beyond the next batch's first). A read whose page then
   * fails is retried from the committed cursor, and the reads after it are dropped.
   */
  const readOn = (): void => {
    const last = reads.at(-1);
    if (signal.aborted || !last?.position || reads.length > depth) return;
    const { next, continues } = after(last, last.position);
    if (continues) reads.push(read(next));
  };

  const retryAfter = async (error: unknown, stage: 'list' | 'batch'): Promise<void> => {
    const delayMs = backoffDelay(failures, options.retry);
    failures++;
    options.onRetry?.({ error, attempt: failures, delayMs, stage });
    await sleep(delayMs, signal);
  };

  while (!signal.aborted) {
    if (reads[0]?.from !== cursor) reads = [read(cursor)];
    const fetched = await reads[0].fetched;
    if (!fetched.page) {
      reads = [];
      if (signal.aborted) break;
      if (!isRetryable(fetched.error)) throw fetched.error;
      await retryAfter(fetched.error, 'list');
      continue;
    }
    // The first page and the ones after it, up to `depth`: in a backfill (a page says there is
    // more) the batch waits for the pages being read rather than going out short.
    const taken: { read: Read; page: EventPage }[] = [{ read: reads[0], page: fetched.page }];
    while (taken.length < depth && reads.length > taken.length) {
      const previous = taken[taken.length - 1];
      if (!after(previous.read, previous.page).continues) break;
      const next = reads[taken.length];
      const { page } = next.settled ?? (await next.fetched);
      if (!page) break;
      taken.push({ read: next, page });
    }
    if (signal.aborted) break;
    reads = reads.slice(taken.length);
    readOn();
    const events: DecodedEvent<T>[] = [];
    for (const { page } of taken) decodePage(page.events, kind, eventType, options, source, events);
    const last = taken[taken.length - 1];
    const { next: nextCursor, continues } = after(last.read, last.page);
    if (events.length > 0 && nextCursor === null) {
      throw new EventSourceError(`${kind.key}: a page with events came without a cursor`, source.transport, false);
    }
    const progressed = nextCursor !== cursor;
    if (events.length > 0 || progressed) {
      const batch: Batch<K, T> = { kind: kind.key, events, cursor, nextCursor: nextCursor! };
      if (!(await deliver(batch, options, retryAfter))) break;
      cursor = nextCursor;
    }
    if (progressed || events.length > 0 || !last.page.hasNextPage) failures = 0;
    if (!last.page.hasNextPage) {
      options.onCaughtUp?.(cursor);
      await sleep(options.pollIntervalMs, signal);
    } else if (!continues && events.length === 0) await retryAfter(new Error('no progress on a page with hasNextPage'), 'list');
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

/** Decodes a page's events onto `out`. */
function decodePage<K extends string, T>(
  events: ChainEvent[],
  kind: EventKind<K, T>,
  eventType: string,
  options: FollowOptions<K, T>,
  source: EventSource,
  out: DecodedEvent<T>[],
): void {
  for (const event of events) {
    if (event.type !== eventType) {
      throw new EventSourceError(`${kind.key}: source returned ${event.type} for ${eventType} (${event.txDigest}#${event.eventSeq})`, source.transport, false);
    }
    try {
      // Spelled out rather than spread: one of these per event on the indexer's hot path.
      const { txDigest, eventSeq, checkpoint, timestampMs, sender, type } = event;
      out.push({ txDigest, eventSeq, checkpoint, timestampMs, sender, type, data: kind.decode(event.json) });
    } catch (error) {
      if (!(error instanceof EventDecodeError)) throw error;
      error.message = `${error.message} (tx ${event.txDigest}, event ${event.eventSeq})`;
      if ((options.onMalformedEvent?.(error, event) ?? 'fail') === 'fail') throw error;
    }
  }
}
