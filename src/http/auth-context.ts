import type { FastifyInstance } from 'fastify';
import type { TokenService } from '../services/tokens';

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/** Verifies an access JWT on every request that carries one; the result is `request.auth`. */
export function registerAuthContext(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.skipAuth) return;
    const token = bearerToken(request.headers.authorization);
    request.auth = token ? tokens.verifyAccess(token) : null;
  });
}
