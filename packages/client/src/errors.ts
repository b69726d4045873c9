/**
 * The server's error codes (src/errors.ts ERROR_STATUS; a type test keeps the two lists equal), the
 * persisted-query protocol's codes and the ones the client raises itself.
 */
export const SERVER_ERROR_CODES = [
  'BAD_REQUEST',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_COMPLEX',
  'OPERATION_NOT_SUPPORTED',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'CHALLENGE_INVALID',
  'CHALLENGE_EXPIRED',
  'SIGNATURE_INVALID',
  'REFRESH_TOKEN_INVALID',
  'REFRESH_TOKEN_REUSED',
  'ID_TOKEN_INVALID',
  'OAUTH_STATE_INVALID',
  'EMAIL_TOKEN_INVALID',
  'EMAIL_TOKEN_EXPIRED',
  'ACCOUNT_ALREADY_LINKED',
  'OAUTH_GRANT_REFUSED',
  'SOCIAL_PAYLOAD_EXPIRED',
  'FORBIDDEN',
  'CHAT_BANNED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'WEBSOCKET_ONLY',
  'CONFLICT',
  'VERSION_CONFLICT',
  'DUPLICATE_CLAIM',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CLAIM_PERIOD_INVALID',
  'QUEST_INCOMPLETE',
  'EDITORIAL_REJECTED',
  'INVALID_BODY',
  'UNKNOWN_EVENT',
  'MISSING_DELIVERY_ID',
  'INVALID_ARTICLE',
  'SLUG_TAKEN',
  'RATE_LIMITED',
  'PROXY_DETECTED',
  'GIFT_QUOTA_EXCEEDED',
  'GIFT_UNAVAILABLE',
  'NOT_ELIGIBLE',
  'NAME_TAKEN',
  'ALREADY_CLAIMED',
  'INTERNAL',
  'UPSTREAM_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
  'REQUEST_TIMEOUT',
] as const;

/** A code the API answers with, on every transport (HTTP `error.code`, GraphQL `extensions.code`, Socket.IO acknowledgements). */
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/** Automatic persisted queries: the client handles both itself (it sends the text, or stops sending hashes). */
export type ProtocolErrorCode = 'PERSISTED_QUERY_NOT_FOUND' | 'PERSISTED_QUERY_NOT_SUPPORTED';

/**
 * Raised by the client: `NETWORK_ERROR` (no answer, or a websocket closed for good), `BAD_RESPONSE`
 * (an answer that is not the API's JSON), `TIMEOUT` (no acknowledgement in time).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE' | 'TIMEOUT';

/** Every `PlatformError` code: the API's, the persisted-query protocol's and the client's own. */
export type ErrorCode = ServerErrorCode | ProtocolErrorCode | ClientErrorCode;

/** `details.issues` of VALIDATION_FAILED: a JSON pointer into the input and what is wrong there. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** The `details` the API documents per code; every other code's details are an open record. */
export interface KnownErrorDetails {
  VALIDATION_FAILED: { issues?: ValidationIssue[]; path?: string; message?: string };
  /** `scope`: which cap (`ip`, `wallet`, `service`, `events-ip`, `events-wallet`, `events-service`, …). */
  RATE_LIMITED: { retryAfterSeconds?: number; scope?: string };
  GIFT_QUOTA_EXCEEDED: { retryAfterSeconds?: number };
  SERVICE_UNAVAILABLE: { retryAfterSeconds?: number; reason?: string };
  /** `until`: ISO time the ban ends, or null (until an operator lifts it). */
  CHAT_BANNED: { until: string | null };
  CONFLICT: { status?: string; reason?: string };
  NOT_FOUND: { reason?: string };
  GIFT_UNAVAILABLE: { reason?: 'outside_schedule' | 'stash_empty' };
  NAME_TAKEN: { name: string };
  EDITORIAL_REJECTED: { published: false; issues: Array<{ field: string; message: string; rule: string }> };
}

/** The `details` of a code: the documented shape (KnownErrorDetails) where there is one, an open record otherwise. */
export type ErrorDetails<C extends ErrorCode> = C extends keyof KnownErrorDetails ? KnownErrorDetails[C] & Record<string, unknown> : Record<string, unknown>;

/** A GraphQL error as the API formats it. */
export interface GraphqlErrorPayload {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; details?: Record<string, unknown> };
}

interface PlatformErrorInit<C extends ErrorCode> {
  details?: ErrorDetails<C>;
  status?: number;
  requestId?: string;
  retryAfterSeconds?: number;
  /** GraphQL: the path of the failed field, the data that did arrive and every error of the answer. */
  path?: ReadonlyArray<string | number>;
  data?: unknown;
  errors?: readonly GraphqlErrorPayload[];
  cause?: unknown;
}

/** Every failure the client reports: the API's code (or the client's own), its message and its typed details. */
export class PlatformError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: ErrorDetails<C>;
  /** The HTTP status, when the refusal came over HTTP. */
  readonly status?: number;
  readonly requestId?: string;
  /** When to try again (the `Retry-After` header or `details.retryAfterSeconds`). */
  readonly retryAfterSeconds?: number;
  readonly path?: ReadonlyArray<string | number>;
  readonly data?: unknown;
  readonly errors?: readonly GraphqlErrorPayload[];

  constructor(code: C, message: string, init: PlatformErrorInit<C> = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.code = code;
    this.details = init.details ?? ({} as ErrorDetails<C>);
    this.status = init.status;
    this.requestId = init.requestId;
    const retryAfter = init.retryAfterSeconds ?? (this.details as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    this.retryAfterSeconds = typeof retryAfter === 'number' ? retryAfter : undefined;
    this.path = init.path;
    this.data = init.data;
    this.errors = init.errors;
  }
}

/** Narrows to a PlatformError, of one code or one of several: `isPlatformError(err, 'CHAT_BANNED') && err.details.until`. */
export function isPlatformError<C extends ErrorCode = ErrorCode>(err: unknown, code?: C | readonly C[]): err is PlatformError<C> {
  if (!(err instanceof PlatformError)) return false;
  if (code === undefined) return true;
  return typeof code === 'string' ? err.code === code : (code as readonly string[]).includes(err.code);
}

/** The API's error as it arrives (`{ code, message, details? }`) turned into a PlatformError. */
export function fromWire(error: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown }, init: PlatformErrorInit<ErrorCode> = {}): PlatformError {
  const code = (typeof error.code === 'string' ? error.code : 'BAD_RESPONSE') as ErrorCode;
  const details = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : undefined;
  return new PlatformError(code, typeof error.message === 'string' ? error.message : code, {
    ...init,
    details: details as ErrorDetails<ErrorCode> | undefined,
    requestId: init.requestId ?? (typeof error.requestId === 'string' ? error.requestId : undefined),
  });
}

/** A GraphQL answer's error: its `extensions.code` and `details`. */
export function fromGraphqlError(error: GraphqlErrorPayload, init: PlatformErrorInit<ErrorCode> = {}): PlatformError {
  return fromWire({ code: error.extensions?.code ?? 'INTERNAL', message: error.message, details: error.extensions?.details }, { ...init, path: error.path });
}
