/**
 * One error family for the whole backend. Each code has one HTTP status and is used as
 * the GraphQL `extensions.code`, so clients see the same code over REST and GraphQL.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  QUERY_TOO_COMPLEX: 400,
  OPERATION_NOT_SUPPORTED: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  // Auth (src/services/auth/service.ts, users.ts, social-links.ts): each refusal names its reason.
  TOKEN_INVALID: 401,
  TOKEN_EXPIRED: 401,
  CHALLENGE_INVALID: 401,
  CHALLENGE_EXPIRED: 401,
  SIGNATURE_INVALID: 401,
  REFRESH_TOKEN_INVALID: 401,
  REFRESH_TOKEN_REUSED: 401,
  ID_TOKEN_INVALID: 401,
  OAUTH_STATE_INVALID: 400,
  EMAIL_TOKEN_INVALID: 400,
  EMAIL_TOKEN_EXPIRED: 400,
  ACCOUNT_ALREADY_LINKED: 409,
  /** The social provider refused the grant (user denied, or it rejected the code or PKCE verifier). */
  OAUTH_GRANT_REFUSED: 400,
  /** A signed social login payload older than its accepted age. */
  SOCIAL_PAYLOAD_EXPIRED: 400,
  FORBIDDEN: 403,
  /** A wallet barred from chat writes by an operator (src/services/chat/moderation.ts); `details.until` (null: until lifted). */
  CHAT_BANNED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** Chat messages, reactions and typing are created only on a websocket (graphql-ws or Socket.IO), never over HTTP. */
  WEBSOCKET_ONLY: 426,
  CONFLICT: 409,
  /** An operator's edit based on a version of the row that is no longer current (src/services/quests/admin.ts): read it again and reapply. */
  VERSION_CONFLICT: 409,
  DUPLICATE_CLAIM: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CLAIM_PERIOD_INVALID: 422,
  /** A quest claim whose quest is not complete for the period (src/services/quests/service.ts). */
  QUEST_INCOMPLETE: 422,
  EDITORIAL_REJECTED: 422,
  // The partner webhook's contract (cms/webhook/types.ts WEBHOOK_FAILURES; src/services/blog/service.ts checks they agree).
  INVALID_BODY: 400,
  UNKNOWN_EVENT: 400,
  MISSING_DELIVERY_ID: 400,
  INVALID_ARTICLE: 400,
  SLUG_TAKEN: 409,
  RATE_LIMITED: 429,
  // Gifts (src/services/gifts/service.ts): the anti-proxy verdict, a spent daily quota (project or IP), nothing to hand out now.
  PROXY_DETECTED: 403,
  GIFT_QUOTA_EXCEEDED: 429,
  GIFT_UNAVAILABLE: 409,
  // Name-service sub-names (src/services/nameservice/service.ts): below the VIP level, a label someone holds, a second claim.
  NOT_ELIGIBLE: 403,
  NAME_TAKEN: 409,
  ALREADY_CLAIMED: 409,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  REQUEST_TIMEOUT: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** The body of every error response: `{ error: { code, message, requestId?, details? } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; requestId?: string; details?: Record<string, unknown> };
}

export function errorBody(err: Pick<AppError, 'code' | 'message' | 'details'>, requestId?: string): ErrorBody {
  return { error: { code: err.code, message: err.message, requestId, ...(err.details ? { details: err.details } : {}) } };
}
