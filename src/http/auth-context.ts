import type { FastifyInstance } from 'fastify';
import type { AppError } from '../errors';
import { createAccessRule, type OperatorRoleCheck } from '../edge/authorize';
import type { CallerReader, OperatorCheck } from '../edge/caller';

/**
 * Reads the caller of every request (src/edge/caller.ts): `request.auth` for a verified access
 * token, `request.operator` for the operator token. A refused token is remembered, not thrown, so
 * admission still charges the request to its IP; `registerAuthRefusal` (registered after
 * admission) then answers it. Routes whose Authorization header carries another secret
 * (`config.skipAuth`) are read for the operator token only.
 */
export function registerAuthContext(app: FastifyInstance, readCaller: CallerReader, operator?: OperatorCheck): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('authRefusal', null);
  app.decorateRequest('operator', false);
  app.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization;
    if (request.routeOptions.config?.skipAuth) {
      request.operator = operator?.isOperator(authorization) === true;
      return;
    }
    try {
      const caller = readCaller(authorization);
      request.auth = caller.auth;
      request.operator = caller.operator === true;
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

/**
 * A route's `config.access` (src/edge/authorize.ts), judged after the input is validated, as the
 * handlers did before the rule moved here: the same rule as GraphQL's authChecker and Socket.IO's events.
 */
export function registerRouteAccess(app: FastifyInstance, roles: OperatorRoleCheck): void {
  const rule = createAccessRule(roles);
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config?.access;
    if (access) rule.authorize(request, typeof access === 'string' ? [access] : access);
  });
}
