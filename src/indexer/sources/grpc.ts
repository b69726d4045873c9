import { RpcError, SuiGrpcClient } from '@mysten/sui/grpc';
import { toChainEvent } from './normalize.js';
import { EventSourceError, type EventPage, type EventSource, type ListEventsInput } from './types.js';

const RETRYABLE_CODES = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED', 'ABORTED', 'INTERNAL', 'UNKNOWN', 'CANCELLED']);

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
  network?: string;
}

/**
 * Pages with `LedgerService.ListEvents` (via the SDK's `listEvents`). Events carry no timestamp on
 * this transport, so each page's transactions are fetched once with `BatchGetTransactions`.
 */
export function createGrpcEventSource(options: GrpcEventSourceOptions): EventSource {
  const client = new SuiGrpcClient({ baseUrl: options.url, network: options.network ?? 'mainnet', format: 'binary' });

  async function timestamps(digests: string[], signal: AbortSignal | undefined): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (digests.length === 0) return out;
    let response;
    try {
      ({ response } = await client.ledgerService.batchGetTransactions({ digests, readMask: { paths: ['digest', 'timestamp'] } }, { abort: signal }));
    } catch (error) {
      throw classify(error, 'BatchGetTransactions', signal);
    }
    response.transactions.forEach((entry, i) => {
      if (entry.result.oneofKind !== 'transaction') return;
      const ts = entry.result.transaction.timestamp;
      if (ts) out.set(entry.result.transaction.digest ?? digests[i], Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1_000_000));
    });
    return out;
  }

  async function listEvents({ eventType, cursor, limit, signal }: ListEventsInput): Promise<EventPage> {
    let page;
    try {
      page = await client.listEvents({ filter: { eventType }, after: cursor ?? undefined, limit, signal });
    } catch (error) {
      throw classify(error, 'ListEvents', signal);
    }
    const times = await timestamps([...new Set(page.events.map((e) => e.transactionDigest))], signal);
    return {
      events: page.events.map((e) =>
        toChainEvent(
          {
            txDigest: e.transactionDigest,
            eventSeq: e.eventIndex,
            checkpoint: e.checkpoint,
            timestampMs: times.get(e.transactionDigest),
            sender: e.sender,
            type: e.eventType,
            json: e.json,
          },
          'grpc',
        ),
      ),
      nextCursor: page.endCursor,
      hasNextPage: page.hasNextPage,
    };
  }

  return { transport: 'grpc', listEvents };
}
