import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import type { AnyOperation, OperationSet } from '../../services/operation';
import { requestSignal } from '../../graphql/context';
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
function routeOptions(op: AnyOperation<Services>) {
  const params = op.params && Object.keys(op.params).length ? documentedBody(z.object(op.params)) : undefined;
  return {
    ...(op.access === 'public' ? {} : { config: { access: op.access } }),
    ...judgedByService,
    schema: {
      tags: [op.rest.tag],
      operationId: op.rest.operationId,
      summary: op.summary,
      ...(op.access === 'operator' ? { security: OPERATOR_SECURITY } : {}),
      ...(op.input ? { [op.rest.query ? 'querystring' : 'body']: documentedBody(op.input) } : {}),
      ...(params ? { params: { ...params, additionalProperties: undefined } } : {}),
      response: {
        200: documentedReply(op.rest.envelope ? z.object({ [op.rest.envelope]: op.output }) : op.output),
        ...errorResponses([...ACCESS_ERRORS[op.access], ...(op.errors ?? [])]),
      },
    },
  } as const;
}

/** A domain's declared operations as `/api` routes: each declaration one route, its handler called with what the request carries. */
export function restRoutesOf(set: OperationSet<never>) {
  return async function operationRoutes(app: FastifyInstance, services: Services): Promise<void> {
    for (const op of set.operations as readonly AnyOperation<Services>[]) {
      app.route({
        method: op.rest.method,
        url: op.rest.path,
        ...routeOptions(op),
        handler: async (request: FastifyRequest) => {
          const output = await op.handle(services, {
            params: request.params as Record<string, unknown>,
            input: op.input ? (op.rest.query ? request.query : request.body) : undefined,
            caller: request,
            requestId: request.id,
            ip: request.ip,
            signal: requestSignal(request),
          });
          return op.rest.envelope ? { [op.rest.envelope]: output } : output;
        },
      });
    }
  };
}
