import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { OperatorPolicy } from '../services/auth';
import type { AccessClaims, TokenService } from '../services/auth';

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * The one reading of an `Authorization` value, for HTTP requests and the websocket handshake:
 * no value means anonymous; a `Bearer` value must be a valid access token, else the caller is
 * refused with TOKEN_EXPIRED or TOKEN_INVALID (never silently treated as anonymous).
 */
export function authenticateBearer(tokens: TokenService, header: unknown): AccessClaims | null {
  if (header === undefined || header === null || header === '') return null;
  if (typeof header !== 'string') throw new AppError('TOKEN_INVALID', 'Authorization must be "Bearer <access token>"');
  const token = bearerToken(header);
  if (!token) throw new AppError('TOKEN_INVALID', 'Authorization must be "Bearer <access token>"');
  const result = tokens.checkAccess(token);
  if (result.ok) return result.claims;
  throw result.reason === 'expired'
    ? new AppError('TOKEN_EXPIRED', 'The access token has expired; refresh it')
    : new AppError('TOKEN_INVALID', 'The access token is not valid');
}

/** The verified claims of an `Authorization: Bearer <jwt>` value, else null (refusals included). */
export function verifyBearer(tokens: TokenService, header: string | undefined): AccessClaims | null {
  try {
    return authenticateBearer(tokens, header);
  } catch {
    return null;
  }
}

/** The caller's wallet, or UNAUTHENTICATED: for routes that need a logged-in player. */
export function requireWallet(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'This needs an access token: Authorization: Bearer <token>');
  return request.auth.wallet;
}

/**
 * Verifies an access JWT on every request that carries one; the result is `request.auth`. The
 * operator token is not an access token: a request carrying it is anonymous with `request.operator`.
 * A refused token is remembered, not thrown, so admission still charges the request to its IP;
 * `registerAuthRefusal` (registered after admission) then answers it.
 */
export function registerAuthContext(app: FastifyInstance, tokens: TokenService, operator?: OperatorPolicy): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('authRefusal', null);
  app.decorateRequest('operator', false);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.skipAuth) return;
    if (operator?.isOperator(request.headers.authorization)) {
      request.operator = true;
      return;
    }
    try {
      request.auth = authenticateBearer(tokens, request.headers.authorization);
    } catch (err) {
      request.authRefusal = err as AppError;
    }
  });
}

/** Answers a request whose bearer token was refused (after admission has charged it). */
export function registerAuthRefusal(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.authRefusal) throw request.authRefusal;
  });
}
