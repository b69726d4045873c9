import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { GrpcTypes } from '@mysten/sui/grpc';
import { createGrpcWebClient } from '../providers/sui-grpc-web.js';
import type { Transport } from './sources/types.js';

/** The chain's latest checkpoint, or null when the endpoint does not say (progress is then shown as a rate only). */
export type TipReader = (signal?: AbortSignal) => Promise<bigint | null>;

const LATEST_CHECKPOINT = /* GraphQL */ `
  query indexerLatestCheckpoint {
    checkpoint {
      sequenceNumber
    }
  }
`;

export function createTipReader(options: { transport: Transport; url: string; network?: string }): TipReader {
  const network = options.network ?? 'mainnet';
  if (options.transport === 'grpc') {
    // The event source's gRPC-web client (no fetch stack in the indexer for one small call every few seconds).
    const client = createGrpcWebClient(options.url);
    const request = GrpcTypes.GetServiceInfoRequest.toBinary({});
    return async (signal) => {
      try {
        const [message] = await client.call('sui.rpc.v2.LedgerService/GetServiceInfo', request, signal);
        return GrpcTypes.GetServiceInfoResponse.fromBinary(message ?? new Uint8Array()).checkpointHeight ?? null;
      } catch {
        return null;
      }
    };
  }
  const client = new SuiGraphQLClient({ url: options.url, network });
  return async (signal) => {
    try {
      const result = (await client.query({ query: LATEST_CHECKPOINT, variables: {}, signal })) as {
        data?: { checkpoint?: { sequenceNumber?: number | string | null } | null } | null;
      };
      const seq = result.data?.checkpoint?.sequenceNumber;
      return seq === undefined || seq === null ? null : BigInt(seq);
    } catch {
      return null;
    }
  };
}
