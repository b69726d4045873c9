import { GrpcTypes, RpcError } from '@mysten/sui/grpc';
import { createGrpcWebClient } from '../../providers/sui-grpc-web.js';
import { readListEventsFrame, readTransactionTimes, writeBatchGetTransactionsRequest, type WireEvent } from './grpc-wire.js';
import { toChainEvent } from './normalize.js';
import { EventSourceError, type EventPage, type EventSource, type ListEventsInput } from './types.js';

const RETRYABLE_CODES = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED', 'ABORTED', 'INTERNAL', 'UNKNOWN', 'CANCELLED']);

/**
 * The Event fields the indexer reads. The SDK's `listEvents` also asks for the BCS `contents`,
 * `package_id` and `module`, and normalizes every address and type on every event (which
 * toChainEvent does again, memoized): about a third of the client's CPU per event, for nothing.
 */
const EVENT_READ_MASK = ['transaction_digest', 'event_index', 'checkpoint', 'sender', 'event_type', 'json'];

/** Transactions whose time is remembered (about 100 bytes each). */
const TX_TIME_CACHE = 20_000;

/**
 * Settled transaction times, the oldest forgotten first. Not an LRU: the kinds' followers read
 * the same transactions at about the same time and rarely again, and lru-cache's bookkeeping was
 * 3 % of the indexer's CPU in a backfill.
 */
class TxTimes {
  private readonly times = new Map<string, number>();
  get(digest: string): number | undefined {
    return this.times.get(digest);
  }
  set(digest: string, time: number): void {
    if (this.times.has(digest)) return;
    if (this.times.size >= TX_TIME_CACHE) this.times.delete(this.times.keys().next().value!);
    this.times.set(digest, time);
  }
}

function classify(error: unknown, what: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted || error instanceof EventSourceError) return error;
  const retryable = error instanceof RpcError ? RETRYABLE_CODES.has(error.code) : error instanceof TypeError;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof RpcError ? ` [${error.code}]` : '';
  return new EventSourceError(`grpc ${what} failed${code}: ${message}`, 'grpc', retryable, { cause: error });
}

export interface GrpcEventSourceOptions {
  /** Base URL of the full node's gRPC-web endpoint. */
  url: string;
}

/**
 * Pages with `LedgerService.ListEvents` with the indexer's own read mask: requests encoded by the
 * SDK's generated types, sent as gRPC-web over node:http (./grpc-web.ts), responses decoded by
 * ./grpc-wire.ts. Events carry no timestamp on this transport, so each page's transactions are
 * fetched once with `BatchGetTransactions`.
 */
export function createGrpcEventSource(options: GrpcEventSourceOptions): EventSource {
  const client = createGrpcWebClient(options.url);

  // A transaction's time never changes, and one transaction often emits events of several kinds
  // (a bet: its result and the VIP XP it earned), which the kinds' followers read at about the same
  // time: each transaction's time is asked for once, by whichever page needs it first.
  const txTimes = new TxTimes();
  const inFlight = new Map<string, Promise<Map<string, number>>>();

  async function fetchTimestamps(digests: string[], signal: AbortSignal | undefined): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let entries;
    try {
      const request = writeBatchGetTransactionsRequest(digests, ['digest', 'timestamp']);
      const [response] = await client.call('sui.rpc.v2.LedgerService/BatchGetTransactions', request, signal);
      entries = response ? readTransactionTimes(response) : [];
    } catch (error) {
      throw classify(error, 'BatchGetTransactions', signal);
    }
    entries.forEach((entry, i) => {
      if (entry?.timestampMs !== undefined) out.set(entry.digest ?? digests[i], entry.timestampMs);
    });
    return out;
  }

  /**
   * Sets each event's `timestampMs` to its transaction's time (left unset when the node has none):
   * from the settled times, else from a lookup another page has in flight, else from one lookup
   * of this page's other transactions. A failed or empty lookup is not kept.
   */
  async function stampTimes(events: WireEvent[], signal: AbortSignal | undefined): Promise<void> {
    const missing = new Set<string>();
    for (const event of events) {
      const digest = event.txDigest;
      if (!digest) continue;
      const known = txTimes.get(digest);
      if (known !== undefined) event.timestampMs = known;
      else if (!inFlight.has(digest)) missing.add(digest);
    }
    if (missing.size > 0) {
      const digests = [...missing];
      const lookup = fetchTimestamps(digests, signal);
      const settle = () => digests.forEach((digest) => inFlight.get(digest) === lookup && inFlight.delete(digest));
      lookup.then((found) => {
        for (const [digest, time] of found) txTimes.set(digest, time);
        settle();
      }, settle);
      for (const digest of digests) inFlight.set(digest, lookup);
    }
    // The lookups this page waits for, each event with its own (taken now: a settled lookup leaves inFlight).
    const waits: [WireEvent, Promise<Map<string, number>>][] = [];
    for (const event of events) if (event.timestampMs === undefined && event.txDigest) waits.push([event, inFlight.get(event.txDigest)!]);
    const answers = new Map<Promise<Map<string, number>>, Map<string, number>>();
    try {
      for (const [event, lookup] of waits) {
        let found = answers.get(lookup);
        if (!found) answers.set(lookup, (found = await lookup));
        event.timestampMs = found.get(event.txDigest!);
      }
    } catch (error) {
      if (signal?.aborted || error instanceof EventSourceError) throw error;
      // A lookup this page shared with another one ended on that page's signal: try again.
      throw new EventSourceError('grpc BatchGetTransactions failed: a shared lookup was aborted', 'grpc', true, { cause: error });
    }
  }

  /**
   * One page: `limit + 1` items are asked for, so a look-ahead item says there is more; a stream
   * that ended on its scan or item limit has more too. The cursor is the watermark of the last
   * event kept, or the scan frontier when the page ended early on a limit.
   */
  async function readPage({ eventType, cursor, limit, signal }: ListEventsInput) {
    const request = GrpcTypes.ListEventsRequest.toBinary({
      readMask: { paths: EVENT_READ_MASK },
      filter: { terms: [{ literals: [{ negated: false, predicate: { oneofKind: 'eventType', eventType: { eventType } } }] }] },
      options: { limit: limit + 1, ordering: GrpcTypes.Ordering.ASCENDING, after: cursor ? new Uint8Array(Buffer.from(cursor, 'base64')) : undefined },
    });
    const messages = await client.call('sui.rpc.v2.LedgerService/ListEvents', request, signal);
    const events: WireEvent[] = [];
    let frontier: Uint8Array | undefined;
    let lastKept: Uint8Array | undefined;
    let lookahead = false;
    let endReason: number | undefined;
    for (const message of messages) {
      const frame = readListEventsFrame(message);
      if (frame.watermarkCursor) frontier = frame.watermarkCursor;
      if (frame.event) {
        if (events.length >= limit) lookahead = true;
        else {
          events.push(frame.event);
          lastKept = frontier;
        }
      }
      if (frame.endReason !== undefined) endReason = frame.endReason;
    }
    const endedOnLimit = endReason === GrpcTypes.QueryEndReason.SCAN_LIMIT || endReason === GrpcTypes.QueryEndReason.ITEM_LIMIT;
    const hasNextPage = lookahead || endedOnLimit;
    const next = !lookahead && hasNextPage ? (frontier ?? lastKept) : lastKept;
    return { events, hasNextPage, nextCursor: next ? Buffer.from(next).toString('base64') : null };
  }

  async function listEvents(input: ListEventsInput): Promise<EventPage> {
    let page;
    try {
      page = await readPage(input);
    } catch (error) {
      throw classify(error, 'ListEvents', input.signal);
    }
    input.onPosition?.({ nextCursor: page.nextCursor, hasNextPage: page.hasNextPage });
    await stampTimes(page.events, input.signal);
    return {
      events: page.events.map((e) => toChainEvent(e, 'grpc')),
      nextCursor: page.nextCursor,
      hasNextPage: page.hasNextPage,
    };
  }

  return { transport: 'grpc', listEvents };
}
