import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError } from 'graphql';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { resolveOperation } from './operation-checks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphqlContext } from './context';
import type { GraphqlPolicy } from './policy';

/**
 * Apollo runs the shared policy: the handler screens the source first (document caps and limit
 * rules, see graphqlHttpHandler), Apollo parses with the same token cap, runs graphql's rules
 * with the policy's, checks the operation once it is known and formats errors with the one
 * formatter. Introspection is blocked by the policy's rules (so Apollo's own switch stays on).
 */
export function createApollo(policy: GraphqlPolicy): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    schema: policy.schema,
    introspection: true,
    parseOptions: policy.parseOptions,
    validationRules: policy.documentRules,
    includeStacktraceInErrorResponses: false,
    formatError: policy.formatError,
    plugins: [ApolloServerPluginCacheControlDisabled(), policyPlugin(policy)],
  });
}

/**
 * A GraphQLError thrown from didResolveOperation is answered with its `extensions.http` status.
 * Without an operation Apollo would fail later with a bare error; the policy names the mistake.
 */
function policyPlugin(policy: GraphqlPolicy): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      const startedAt = process.hrtime.bigint();
      return {
        async didResolveOperation(rc) {
          const operation = rc.operation ?? resolveOperation(rc.document!, rc.request.operationName);
          const refused = operation instanceof GraphQLError ? operation : policy.checkOperation(operation, rc.request.variables, 'http');
          if (refused) throw refused;
        },
        async willSendResponse(rc) {
          const failed = rc.response.body.kind === 'single' && (rc.response.body.singleResult.errors?.length ?? 0) > 0;
          policy.recordOperation({ name: rc.operationName, type: rc.operation?.operation, failed, startedAt });
        },
      };
    },
  };
}

/** The GraphQL source of a POST body or GET query string, when there is one. */
function sourceOf(request: FastifyRequest): string | undefined {
  const carrier = (request.method === 'GET' ? request.query : request.body) as { query?: unknown } | null | undefined;
  return typeof carrier?.query === 'string' ? carrier.query : undefined;
}

/**
 * The Fastify handler for HTTP GraphQL: refuses a too-complex document before Apollo sees it
 * (Apollo's hooks cannot answer before its validation, which would do the unbounded work),
 * then runs the request through Apollo.
 */
export function graphqlHttpHandler(policy: GraphqlPolicy, apollo: ApolloServer<GraphqlContext>, context: (request: FastifyRequest) => GraphqlContext) {
  const run = apolloHandler(apollo, context);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = process.hrtime.bigint();
    const source = sourceOf(request);
    const refused = source === undefined ? null : policy.screen(source);
    if (!refused) return run(request, reply);
    const operationName = (request.method === 'GET' ? request.query : request.body) as { operationName?: unknown } | null;
    policy.recordOperation({ name: typeof operationName?.operationName === 'string' ? operationName.operationName : null, type: undefined, failed: true, startedAt });
    const errors = refused.map((e) => policy.formatError(e.toJSON(), e));
    return reply.code(ERROR_STATUS[errors[0].extensions?.code as ErrorCode] ?? 400).type('application/json; charset=utf-8').send({ errors });
  };
}

/** A Fastify handler running one HTTP GraphQL request through Apollo. */
export function apolloHandler(apollo: ApolloServer<GraphqlContext>, context: (request: FastifyRequest) => GraphqlContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = request.raw.url ?? '/';
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: request.method.toUpperCase(),
        headers,
        search: url.includes('?') ? url.slice(url.indexOf('?')) : '',
        body: request.body,
      },
      context: async () => context(request),
    });
    if (reply.sent) return reply;
    for (const [key, value] of response.headers) reply.header(key, value);
    reply.code(response.status ?? 200);
    if (response.body.kind === 'complete') return reply.send(response.body.string);
    const chunks: string[] = [];
    for await (const chunk of response.body.asyncIterator) chunks.push(chunk);
    return reply.send(chunks.join(''));
  };
}
