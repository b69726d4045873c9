import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { runOperation, type AnyOperation, type OperationSet } from '../../services/operation';
import { requestSignal } from '../timeout';
import { ADMIN_ERRORS } from './admin';
import { documentedBody, documentedReply, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

/** The refusals of a route's access rule, beyond COMMON_ERRORS (a present but bad token is refused on every route). */
const ACCESS_ERRORS: Record<AnyOperation['access'], readonly ErrorCode[]> = {
  public: ['TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS],
  wallet: ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS],
  operator: ADMIN_ERRORS,
};

/** Operator routes take an operator wallet's access token or OPERATOR_TOKEN. */
const OPERATOR_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { operatorToken: [] }];

/** Route options read from a declaration: access, the OpenAPI entry, input judged by the service. */
function routeOptions(op: AnyOperation<Services>, rest: NonNullable<AnyOperation['rest']>) {
  const params = op.params && Object.keys(op.params).length ? documentedBody(z.object(op.params)) : undefined;
  return {
    ...(op.access === 'public' ? {} : { config: { access: op.access } }),
    ...judgedByService,
    schema: {
      tags: [rest.tag],
      operationId: rest.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.access === 'operator' ? { security: OPERATOR_SECURITY } : {}),
      ...(op.input ? { [rest.query ? 'querystring' : 'body']: documentedBody(op.input) } : {}),
      ...(params ? { params: { ...params, additionalProperties: undefined } } : {}),
      response: {
        200: documentedReply(rest.envelope ? z.object({ [rest.envelope]: op.output }) : op.output),
        ...errorResponses([...ACCESS_ERRORS[op.access], ...(op.errors ?? [])]),
      },
    },
  } as const;
}

/** A domain's declared operations as `/api` routes: each declaration one route, its handler called with what the request carries. */
export function restRoutesOf(set: OperationSet<never>) {
  return async function operationRoutes(app: FastifyInstance, services: Services): Promise<void> {
    for (const op of set.operations as readonly AnyOperation<Services>[]) {
      const rest = op.rest;
      if (!rest) continue;
      app.route({
        method: rest.method,
        url: rest.path,
        ...routeOptions(op, rest),
        handler: async (request: FastifyRequest) => {
          const output = await runOperation(op, services, {
            params: request.params as Record<string, unknown>,
            input: op.input ? (rest.query ? request.query : request.body) : undefined,
            caller: request,
            requestId: request.id,
            ip: request.ip,
            transport: 'http',
            signal: requestSignal(request),
          });
          return rest.envelope ? { [rest.envelope]: output } : output;
        },
      });
    }
  };
}
