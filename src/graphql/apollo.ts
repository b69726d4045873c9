import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { KeyValueCache } from '../store/kv-cache';
import { GraphQLError } from 'graphql';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors';
import { resolveOperation } from './operation-checks';
import { jitGateway } from './executor';
import { persistedQueries } from './persisted-queries';
import { responseCachePlugins } from './response-cache';
import type { CachedAnswers } from './cached-answers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphqlContext } from './context';
import type { GraphqlPolicy } from './policy';

/**
 * Apollo runs the shared policy: the handler screens the source first (document caps and limit
 * rules, see graphqlHttpHandler), Apollo parses with the same token cap, runs graphql's rules
 * with the policy's, checks the operation once it is known and formats errors with the one
 * formatter. Introspection is blocked by the policy's rules (so Apollo's own switch stays on).
 */
export function createApollo(
  policy: GraphqlPolicy,
  caching: { cache: KeyValueCache; generations: () => string; answers?: CachedAnswers },
  /** Replaces Apollo's default landing page (its CDN sandbox, or its production page). */
  landingPage?: ApolloServerPlugin,
): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    // Execution through compiled plans (./executor.ts); Apollo keeps parsing, validation and plugins.
    gateway: jitGateway(policy.schema, policy.executor),
    introspection: true,
    parseOptions: policy.parseOptions,
    validationRules: policy.documentRules,
    includeStacktraceInErrorResponses: false,
    formatError: policy.formatError,
    // The policy plugin first: a cached response is only served to an operation the policy accepts.
    plugins: [policyPlugin(policy), ...responseCachePlugins(policy.schema, caching), ...(landingPage ? [landingPage] : [])],
    // Persisted queries and cached responses live in the shared store (every replica sees them).
    cache: caching.cache,
    persistedQueries: persistedQueries(policy, caching.cache),
    // The process's shutdown (src/runtime) stops Apollo with the HTTP app; Apollo's own SIGTERM
    // handler would stop it mid-drain and re-raise the signal (exit 143).
    stopOnTerminationSignals: false,
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
 * The Fastify handler for HTTP GraphQL (POST, and GET beside the websocket upgrade): refuses a
 * too-complex document before Apollo sees it (Apollo's hooks cannot answer before its
 * validation, which would do the unbounded work), then runs the request through Apollo with
 * the maintained Fastify integration.
 */
export function graphqlHttpHandler(policy: GraphqlPolicy, apollo: ApolloServer<GraphqlContext>, context: (request: FastifyRequest) => GraphqlContext) {
  // The integration's handler never uses `this`; typed here as a plain function of our request.
  const run = fastifyApolloHandler(apollo, { context: async (request) => context(request) }) as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = process.hrtime.bigint();
    const source = sourceOf(request);
    const refused = source === undefined ? null : policy.screen(source);
    if (!refused) {
      const body = await run(request, reply).catch(refuseInvalidHost);
      // The request timeout may have answered meanwhile (src/http/timeout.ts): drop the late body.
      return reply.sent ? reply : body;
    }
    const operationName = (request.method === 'GET' ? request.query : request.body) as { operationName?: unknown } | null;
    policy.recordOperation({ name: typeof operationName?.operationName === 'string' ? operationName.operationName : null, type: undefined, failed: true, startedAt });
    const errors = refused.map((e) => policy.formatError(e.toJSON(), e));
    return reply.code(ERROR_STATUS[errors[0].extensions?.code as ErrorCode] ?? 400).type('application/json; charset=utf-8').send({ errors });
  };
}

/**
 * RFC 9112 answers a malformed Host with 400; the Fastify integration builds a URL from it (before
 * Apollo runs anything) and would fail with a 500 instead (./host.ts checks the same for cached answers).
 */
function refuseInvalidHost(err: unknown): never {
  if ((err as { code?: unknown } | null)?.code === 'ERR_INVALID_URL') throw new AppError('BAD_REQUEST', 'Invalid Host header');
  throw err;
}
