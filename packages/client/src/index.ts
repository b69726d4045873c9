export { createClient, type Client, type ClientOptions } from './client.js';
export type { Auth, Session, Signer } from './auth.js';
export { walletStandardSigner, type WalletStandardLike } from './signers.js';
export { memoryStorage, webStorage, accessClaims, type TokenStorage, type Tokens, type AccessClaims } from './tokens.js';
export type { RetryOptions } from './http.js';
export {
  PlatformError,
  isPlatformError,
  SERVER_ERROR_CODES,
  type ErrorCode,
  type ServerErrorCode,
  type ProtocolErrorCode,
  type ClientErrorCode,
  type ErrorDetails,
  type KnownErrorDetails,
  type ValidationIssue,
  type GraphqlErrorPayload,
} from './errors.js';
export type { PersistedDocument, DocumentMeta, VariablesArg, ResultOf, VariablesOf, TypedDocumentNode } from './document.js';
export { newClientId } from './realtime.js';
export type * from './realtime.js';
export type { Observer } from './graphql-ws.js';
export type { PlatformSocket, TypedSocket, SocketTransportOptions } from './socket-io.js';
export * from './generated/graphql.js';
