import { GraphQLError, Kind, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { AppError, ERROR_STATUS, isAppError, type ErrorCode } from '../errors';
import { toWireError } from '../edge/wire-error';
import type { Logger } from '../observability/logger';

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;

/** A GraphQL error with one of our codes; over HTTP it answers with that code's status. */
export const codedError = (code: ErrorCode, message: string, details?: Record<string, unknown>) =>
  new GraphQLError(message, { extensions: { code, ...(details ? { details } : {}), http: { status: ERROR_STATUS[code] } } });

/** Apollo's request-error codes, and the codes we answer with instead. */
const APOLLO_CODES: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  BAD_USER_INPUT: 'VALIDATION_FAILED',
  BAD_REQUEST: 'BAD_REQUEST',
  OPERATION_RESOLUTION_FAILURE: 'BAD_REQUEST',
};
function apolloCode(reported: unknown, message: string): ErrorCode | undefined {
  if (typeof reported !== 'string') return undefined;
  // Apollo answers a GET mutation with 405 and BAD_REQUEST; the code follows the status.
  if (reported === 'BAD_REQUEST' && message.startsWith('GET requests only support')) return 'METHOD_NOT_ALLOWED';
  return APOLLO_CODES[reported];
}

/** Protocol codes clients act on (automatic persisted queries): passed through unchanged. */
const PROTOCOL_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED']);

/** Our code found on the error or the errors it wraps (Apollo re-codes validation errors). */
function ownCode(error: unknown): ErrorCode | undefined {
  for (let e = error, hops = 0; e && hops < 4; e = (e as GraphQLError).originalError, hops++) {
    if (e instanceof GraphQLError && isErrorCode(e.extensions?.code) && !(e.extensions.code in APOLLO_CODES)) return e.extensions.code;
  }
  return undefined;
}

/** graphql-js's own request errors (no Apollo in between): variable coercion and document errors. */
function requestErrorCode(error: unknown): ErrorCode | undefined {
  if (!(error instanceof GraphQLError) || error.path) return undefined;
  if (error.nodes?.[0]?.kind === Kind.VARIABLE_DEFINITION) return 'VALIDATION_FAILED';
  return undefined;
}

/** graphql's suggestions name types and fields ("Did you mean "serverStatus"?"); hidden when introspection is. */
const SUGGESTION = / ?Did you mean .*\?$/s;

export interface ErrorFormatterOptions {
  /** Remove schema hints from messages (introspection off). */
  hideSchemaDetails: boolean;
  logger: Logger;
}

/**
 * The one formatter for GraphQL errors on every transport, over the edge's wire mapper
 * (src/edge/wire-error.ts): app errors keep their code and message, request errors get our code,
 * anything else is our bug, logged and masked as INTERNAL.
 */
export function createErrorFormatter(opts: ErrorFormatterOptions) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const reported = formatted.extensions?.code;
    if (!isAppError(original) && typeof reported === 'string' && PROTOCOL_CODES.has(reported)) return formatted;
    const { error: wire } = toWireError(original, () => {
      const code = ownCode(error) ?? apolloCode(reported, formatted.message) ?? requestErrorCode(error);
      if (!code) return undefined;
      const details = formatted.extensions?.details as Record<string, unknown> | undefined;
      return new AppError(code, opts.hideSchemaDetails ? formatted.message.replace(SUGGESTION, '') : formatted.message, details);
    });
    if (wire.code === 'INTERNAL') opts.logger.error({ err: original }, 'GraphQL operation failed');
    return {
      message: wire.message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: wire.code, ...(wire.details ? { details: wire.details } : {}) },
    };
  };
}
