// The parts of the chain writer that domains use while building and judging writes, without the
// SDK's clients and keypairs (src/providers/sui-writer.ts loads those only where a writer is configured).
import { normalizeSuiObjectId } from '@mysten/sui/utils';

/**
 * An object argument resolved on the node at build time, with its mutability stated: without it
 * the SDK would also ask the node for the Move function's signature.
 */
export const objectInput = (objectId: string, mutable: boolean) => ({ $kind: 'UnresolvedObject' as const, UnresolvedObject: { objectId: normalizeSuiObjectId(objectId), mutable } });

/** The node answered the execute call with an error: it did not execute these bytes (now). */
export class NodeRefusedError extends Error {
  override name = 'NodeRefusedError';
}

/** The dry run of a write failed (a Move abort, a missing object, …): sending it would fail on chain too. */
export class DryRunFailedError extends Error {
  override name = 'DryRunFailedError';
}

/** The write's gas budget (dry run plus margin) is above CHAIN.WRITE_GAS_CEILING: it is not sent. */
export class GasCeilingError extends Error {
  override name = 'GasCeilingError';
  /** `budget` null: the dry run itself ran out of gas with the ceiling as its budget. */
  constructor(
    readonly budget: bigint | null,
    readonly ceiling: bigint,
  ) {
    super(
      budget === null
        ? `gas ceiling: the dry run ran out of gas with CHAIN.WRITE_GAS_CEILING ${ceiling} MIST as its budget`
        : `gas ceiling: the write needs a budget of ${budget} MIST (dry run plus margin), above CHAIN.WRITE_GAS_CEILING ${ceiling}`,
    );
  }
}

/** Socket and DNS failures of a request that may simply work again (node's codes, undici's). */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** gRPC statuses that say "not now" rather than "no": the call may succeed when repeated. */
const TRANSIENT_GRPC_CODES = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED', 'ABORTED', 'INTERNAL', 'UNKNOWN', 'CANCELLED']);

/** Messages of a GraphQL error answer that are about the service, not the request (Sui GraphQL's timeouts and internal errors, rate limits). */
const TRANSIENT_GRAPHQL_MESSAGE = /timed? ?out|timeout|internal (server )?error|temporarily unavailable|service unavailable|too many requests|rate limit|overloaded|try again/i;

/**
 * Whether a node call's failure is transient: no definite answer came back (network error,
 * timeout, HTTP 5xx/429/408, a gRPC unavailable-like status, a GraphQL error about the service
 * itself), so the same call may succeed later. A definite answer (an object that does not exist,
 * a dry run or execution that failed, an invalid transaction, any other 4xx) and anything
 * unrecognised are not: retrying would not change them.
 */
export function isTransientNodeError(err: unknown, depth = 0): boolean {
  if (depth > 5 || !(err instanceof Error)) return false;
  if (err instanceof AggregateError) return err.errors.some((e) => isTransientNodeError(e, depth + 1));
  if (err instanceof DryRunFailedError || err instanceof GasCeilingError) return false;
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSIENT_SOCKET_CODES.has(code)) return true;
  switch (err.constructor.name) {
    case 'SuiGraphQLRequestError': {
      // "GraphQL request failed: Service Unavailable (503)"
      const status = Number(/\((\d{3})\)\s*$/.exec(err.message)?.[1]);
      return status >= 500 || status === 429 || status === 408;
    }
    case 'GraphQLResponseError':
      return TRANSIENT_GRAPHQL_MESSAGE.test(err.message);
    // The gRPC client's per-object errors (ObjectError) carry the call's status name as their code.
    case 'RpcError':
    case 'ObjectError':
      return typeof code === 'string' && TRANSIENT_GRPC_CODES.has(code);
  }
  // undici: `TypeError: fetch failed` (cause: the socket error) and `TypeError: terminated` (the body stream broke).
  if (err instanceof TypeError && /^(fetch failed|terminated)$/.test(err.message)) return true;
  return err.cause !== undefined && isTransientNodeError(err.cause, depth + 1);
}
