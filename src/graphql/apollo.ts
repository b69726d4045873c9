import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLSchema, GraphQLFormattedError } from 'graphql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../errors';
import type { Metrics } from '../observability/metrics';
import type { GraphqlContext } from './context';
import { queryLimitRules, type QueryLimits } from './limits';

export interface ApolloOptions {
  schema: GraphQLSchema;
  limits: QueryLimits;
  introspection: boolean;
  metrics: Metrics;
}

export function createApollo(opts: ApolloOptions): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    schema: opts.schema,
    introspection: opts.introspection,
    validationRules: queryLimitRules(opts.limits),
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError,
    plugins: [ApolloServerPluginCacheControlDisabled(), operationMetricsPlugin(opts.metrics)],
  });
}

/** App errors keep their code; anything unexpected is masked. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (isAppError(original)) {
    return { ...formatted, message: original.message, extensions: { code: original.code, ...(original.details ? { details: original.details } : {}) } };
  }
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL' } };
  }
  return formatted;
}

function operationMetricsPlugin(metrics: Metrics): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      const start = process.hrtime.bigint();
      return {
        async willSendResponse(rc) {
          const operation = rc.operationName ?? 'anonymous';
          const type = rc.operation?.operation ?? 'unknown';
          const failed = rc.response.body.kind === 'single' && (rc.response.body.singleResult.errors?.length ?? 0) > 0;
          metrics.graphqlOperations.inc({ operation, type, outcome: failed ? 'error' : 'ok' });
          metrics.graphqlDuration.observe({ operation, type }, Number(process.hrtime.bigint() - start) / 1e9);
        },
      };
    },
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

export function registerGraphqlHttp(
  app: FastifyInstance,
  apollo: ApolloServer<GraphqlContext>,
  context: (request: FastifyRequest) => GraphqlContext,
): void {
  app.post('/graphql', apolloHandler(apollo, context));
}
