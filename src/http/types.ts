import type { AppError } from '../errors';
import type { AccessClaims } from '../services/auth';
import type { Access } from '../edge/authorize';

/** Per-route admission override (`config.rateLimit` on a route); `false` exempts the route. */
export type RouteRateLimit = false | { max?: number; windowMs?: number; bucket?: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Verified access-token claims, when the request carried a valid JWT. */
    auth: AccessClaims | null;
    /** Set when the request carried a bearer token that was refused (answered after admission). */
    authRefusal: AppError | null;
    /** The request carried `Authorization: Bearer <OPERATOR_TOKEN>` (services/auth/operator-token.ts); `auth` is then null. */
    operator: boolean;
    /** Aborted when the request ends unanswered: time budget over, or client gone (./timeout.ts). */
    abandonedSignal: AbortSignal;
  }
  interface FastifyContextConfig {
    rateLimit?: RouteRateLimit;
    /** Skip access-token parsing (routes whose Authorization header carries another secret). */
    skipAuth?: boolean;
    /** Who may call the route (src/edge/authorize.ts); handlers read the wallet with `walletOf(request)`. */
    access?: Access | readonly Access[];
  }
}
