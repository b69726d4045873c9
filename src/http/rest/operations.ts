import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { runOperation, type AnyOperation, type OperationSet } from '../../services/operation';
import { modelNames } from '../../services/model-names';
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
function routeOptions(op: AnyOperation<Services>, rest: NonNullable<AnyOperation['rest']>, input: Record<string, unknown> | undefined, refs: ReadonlyMap<string, string>) {
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
      ...(input ? { [rest.query ? 'querystring' : 'body']: input } : {}),
      ...(params ? { params: { ...params, additionalProperties: undefined } } : {}),
      response: {
        [rest.status ?? 200]: documentedReply(rest.envelope ? z.object({ [rest.envelope]: op.output }) : op.output, undefined, refs),
        ...errorResponses([...ACCESS_ERRORS[op.access], ...(op.errors ?? [])]),
      },
    },
  } as const;
}

/**
 * A query string as the input model takes it: the text of an integer field as a number (text that
 * is not a plain integer as NaN, which the model refuses); every other value as sent.
 */
function queryInput(query: unknown, integers: ReadonlySet<string>): unknown {
  if (!query || typeof query !== 'object') return query;
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, integers.has(k) && typeof v === 'string' ? (/^\d+$/.test(v) ? Number(v) : Number.NaN) : v]));
}

/** The integer fields of an input, by its JSON schema. */
function integerFields(input: Record<string, unknown> | undefined): ReadonlySet<string> {
  const properties = input?.properties as Record<string, { type?: unknown }> | undefined;
  return new Set(Object.entries(properties ?? {}).flatMap(([k, v]) => (v.type === 'integer' ? [k] : [])));
}

/** A domain's declared operations as `/api` routes: each declaration one route, its handler called with what the request carries. */
export function restRoutesOf(set: OperationSet<never>) {
  return async function operationRoutes(app: FastifyInstance, services: Services): Promise<void> {
    const shared = (set.components ?? []).map((c) => {
      const { model, id } = 'model' in c && 'id' in c ? c : { model: c, id: undefined };
      const name = modelNames.get(model)?.name;
      if (!name) throw new Error(`a shared REST schema of ${set.domain} needs a name: named('…', model)`);
      return { model, name, id: id ?? name };
    });
    const refs = new Map(shared.map(({ name, id }) => [name, id]));
    for (const { model, id } of shared) app.addSchema(documentedReply(model, id, refs));
    for (const op of set.operations as readonly AnyOperation<Services>[]) {
      const rest = op.rest;
      if (!rest) continue;
      const input = op.input ? documentedBody(op.input) : undefined;
      const integers = rest.query ? integerFields(input) : new Set<string>();
      app.route({
        method: rest.method,
        url: rest.path,
        ...routeOptions(op, rest, input, refs),
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const output = await runOperation(op, services, {
            params: request.params as Record<string, unknown>,
            input: op.input ? (rest.query ? queryInput(request.query, integers) : request.body) : undefined,
            caller: request,
            requestId: request.id,
            ip: request.ip,
            transport: 'http',
            signal: requestSignal(request),
          });
          if (rest.status) reply.code(rest.status);
          if (rest.headers) reply.headers(rest.headers);
          return rest.envelope ? { [rest.envelope]: output } : output;
        },
      });
    }
  };
}
