import type { FastifyInstance } from 'fastify';
import type { AppError } from '../errors';
import { createAccessRule, type OperatorRoleCheck } from '../edge/authorize';
import type { CallerReader, OperatorTokenCheck } from '../edge/caller';
import { addRouteHook, routeOf } from '../fastify/route-hooks';

/**
 * Reads the caller of every request (src/edge/caller.ts): `request.auth` for a verified access
 * token, `request.operator` for the operator token. A refused token is remembered, not thrown, so
 * admission still charges the request to its IP; `registerAuthRefusal` (registered after
 * admission) then answers it. Routes whose Authorization header carries another secret
 * (`config.skipAuth`) are read for the operator token only.
 */
export function registerAuthContext(app: FastifyInstance, readCaller: CallerReader, operatorToken?: OperatorTokenCheck): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('authRefusal', null);
  app.decorateRequest('operator', false);
  app.addHook('onRequest', (request, _reply, done) => {
    const authorization = request.headers.authorization;
    if (routeOf(request).config?.skipAuth) {
      request.operator = operatorToken?.isOperator(authorization) === true;
      return done();
    }
    try {
      const caller = readCaller(authorization);
      request.auth = caller.auth;
      request.operator = caller.operator === true;
    } catch (err) {
      request.authRefusal = err as AppError;
    }
    done();
  });
}

/** Answers a request whose bearer token was refused (after admission has charged it). */
export function registerAuthRefusal(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => done(request.authRefusal ?? undefined));
}

/**
 * A route's `config.access` (src/edge/authorize.ts), judged after the input is validated, as the
 * handlers did before the rule moved here: the same rule as GraphQL's authChecker and Socket.IO's events.
 */
export function registerRouteAccess(app: FastifyInstance, roles: OperatorRoleCheck): void {
  const rule = createAccessRule(roles);
  // On the routes that declare an access rule only; before their own preHandlers.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) return;
    const needs = typeof access === 'string' ? [access] : access;
    addRouteHook(route, 'preHandler', async (request) => rule.authorize(request, needs), 'first');
  });
}
