import { createGraphqlEventSource } from './graphql.js';
import { createGrpcEventSource } from './grpc.js';
import type { EventSource, Transport } from './types.js';

export { createGraphqlEventSource, type GraphqlEventSourceOptions } from './graphql.js';
export { createGrpcEventSource, type GrpcEventSourceOptions } from './grpc.js';
export * from './types.js';

export interface EventSourceOptions {
  transport: Transport;
  url: string;
  network?: string;
}

export function createEventSource(options: EventSourceOptions): EventSource {
  switch (options.transport) {
    case 'graphql':
      return createGraphqlEventSource(options);
    case 'grpc':
      return createGrpcEventSource(options);
    default:
      throw new Error(`unknown event source transport: ${String((options as { transport: unknown }).transport)}`);
  }
}
