/** Which wire protocol a source speaks. Cursors are only meaningful to the transport that issued them. */
export type Transport = 'graphql' | 'grpc';

/** One chain event as the indexer sees it, whatever the transport. */
export interface ChainEvent {
  txDigest: string;
  /** Index of the event within its transaction. With txDigest, the event's identity. */
  eventSeq: number;
  checkpoint: bigint | null;
  timestampMs: number;
  /** Normalized sender address (0x + 64 hex). */
  sender: string;
  /** Normalized Move type, `0x<64 hex>::module::Name`. */
  type: string;
  json: Record<string, unknown>;
}

export interface ListEventsInput {
  /** Fully qualified Move event type. */
  eventType: string;
  /** Opaque cursor from a previous page of the same transport; null = from genesis. */
  cursor: string | null;
  limit: number;
  signal?: AbortSignal;
  /**
   * Told where the page leaves off as soon as the source knows, before the page is complete (the
   * gRPC source then still looks up the page's transaction times), so a follower can start
   * reading the next page. The same `nextCursor` and `hasNextPage` as the page's; a source may not call it.
   */
  onPosition?(position: PagePosition): void;
}

/** Where a page leaves off. */
export type PagePosition = Pick<EventPage, 'nextCursor' | 'hasNextPage'>;

export interface EventPage {
  events: ChainEvent[];
  /**
   * Where to continue from. May advance past the last event (scan frontier) and may be set on an
   * empty page; null when the page gives no new position (keep the previous cursor).
   */
  nextCursor: string | null;
  /** True while the server has more to scan: keep paging even if this page was short or empty. */
  hasNextPage: boolean;
}

export interface EventSource {
  readonly transport: Transport;
  listEvents(input: ListEventsInput): Promise<EventPage>;
}

/** Every failure a source raises; `retryable` says whether trying the same request again may succeed. */
export class EventSourceError extends Error {
  override readonly name = 'EventSourceError';
  constructor(
    message: string,
    readonly transport: Transport,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
