import type { FastifyInstance } from 'fastify';
import type { AccessClaims, TokenService } from '../services/tokens';

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/** The verified claims of an `Authorization: Bearer <jwt>` value (HTTP header or websocket handshake), else null. */
export function verifyBearer(tokens: TokenService, header: string | undefined): AccessClaims | null {
  const token = bearerToken(header);
  return token ? tokens.verifyAccess(token) : null;
}

/** Verifies an access JWT on every request that carries one; the result is `request.auth`. */
export function registerAuthContext(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.skipAuth) return;
    request.auth = verifyBearer(tokens, request.headers.authorization);
  });
}
