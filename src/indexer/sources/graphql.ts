import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { toChainEvent } from './normalize.js';
import { EventSourceError, type EventPage, type EventSource, type ListEventsInput } from './types.js';

/**
 * The SDK's own `listEvents` document selects no timestamp, so this source sends the same
 * selection plus `timestamp` (one round trip per page) through the SDK client's `query`.
 */
const LIST_EVENTS = /* GraphQL */ `
  query indexerListEvents($type: String!, $first: Int!, $after: String) {
    events(filter: { type: $type }, first: $first, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        sequenceNumber
        timestamp
        sender {
          address
        }
        transaction {
          digest
          effects {
            checkpoint {
              sequenceNumber
            }
          }
        }
        contents {
          type {
            repr
          }
          json
        }
      }
    }
  }
`;

interface EventNode {
  sequenceNumber?: number | null;
  timestamp?: string | null;
  sender?: { address?: string | null } | null;
  transaction?: { digest?: string | null; effects?: { checkpoint?: { sequenceNumber?: number | null } | null } | null } | null;
  contents?: { type?: { repr?: string | null } | null; json?: unknown } | null;
}

interface ListEventsData {
  events?: { pageInfo?: { hasNextPage?: boolean; endCursor?: string | null }; nodes?: EventNode[] } | null;
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

const RETRYABLE_GRAPHQL_CODES = new Set(['INTERNAL_SERVER_ERROR', 'REQUEST_TIMEOUT', 'SERVICE_UNAVAILABLE']);

function classify(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted || error instanceof EventSourceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // SuiGraphQLRequestError: "GraphQL request failed: <statusText> (<status>)"; fetch failures are TypeErrors.
  const status = /\((\d{3})\)$/.exec(message)?.[1];
  const retryable = status ? Number(status) >= 500 || status === '429' || status === '408' : error instanceof TypeError;
  return new EventSourceError(`graphql listEvents failed: ${message}`, 'graphql', retryable, { cause: error });
}

export interface GraphqlEventSourceOptions {
  url: string;
  network?: string;
  headers?: Record<string, string>;
}

export function createGraphqlEventSource(options: GraphqlEventSourceOptions): EventSource {
  const client = new SuiGraphQLClient({ url: options.url, network: options.network ?? 'mainnet', headers: options.headers });

  async function listEvents({ eventType, cursor, limit, signal }: ListEventsInput): Promise<EventPage> {
    let result: { data?: ListEventsData | null; errors?: readonly GraphqlError[] };
    try {
      result = (await client.query({
        query: LIST_EVENTS,
        variables: { type: eventType, first: limit, after: cursor },
        signal,
      })) as typeof result;
    } catch (error) {
      throw classify(error, signal);
    }
    if (result.errors?.length) {
      const retryable = result.errors.every((e) => RETRYABLE_GRAPHQL_CODES.has(e.extensions?.code ?? ''));
      throw new EventSourceError(`graphql listEvents: ${result.errors.map((e) => e.message).join('; ')}`, 'graphql', retryable);
    }
    const events = result.data?.events;
    if (!events?.pageInfo || !events.nodes) throw new EventSourceError('graphql listEvents: response has no events connection', 'graphql', false);
    return {
      events: events.nodes.map((node) =>
        toChainEvent(
          {
            txDigest: node.transaction?.digest,
            eventSeq: node.sequenceNumber,
            checkpoint: node.transaction?.effects?.checkpoint?.sequenceNumber,
            timestampMs: node.timestamp ? Date.parse(node.timestamp) : null,
            sender: node.sender?.address,
            type: node.contents?.type?.repr,
            json: node.contents?.json,
          },
          'graphql',
        ),
      ),
      nextCursor: events.pageInfo.endCursor ?? null,
      hasNextPage: events.pageInfo.hasNextPage ?? false,
    };
  }

  return { transport: 'graphql', listEvents };
}
