import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import websocket from '@fastify/websocket';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config';
import { lazySerializerFactory } from './lazy-serializers';
import type { Logger } from '../observability/logger';
import { lazyChildLoggerFactory } from '../observability/lazy-child';
import type { Metrics } from '../observability/metrics';
import type { Services } from '../services';
import type { Bus, SharedStore } from '../store';
import { createMemoryKeyValueCache, type SharedKeyValueCache } from '../store/kv-cache';
import { createApollo, graphqlHttpHandler } from '../graphql/apollo';
import { createCachedAnswers, registerCachedAnswers } from '../graphql/cached-answers';
import { createGraphqlPolicy } from '../graphql/policy';
import { graphiqlLandingPage, registerIdeAssets } from '../graphql/ide';
import type { GraphqlContext } from '../graphql/context';
import { createGraphqlWsGateway, registerGraphqlWs } from '../gateway/graphql-ws';
import type { ConnectionCaps } from '../gateway/caps';
import { registerSocketIo, type SocketIoDeps } from '../gateway/socket-io';
import { createGatewayMetrics } from '../gateway/metrics';
import { registerAdmission } from './admission';
import { createCallerReader } from '../edge/caller';
import { registerAuthContext, registerAuthRefusal, registerRouteAccess } from './auth-context';
import { answerFrameworkError, MAX_PARAM_LENGTH, registerErrorHandling } from './error-handler';
import { registerStorableInputCheck } from './storable-input';
import { registerGraphqlGetDepthCheck, registerJsonBodyParser } from './json-body';
import { createJsonDepthRule } from '../edge/json-depth';
import { registerMetrics } from './metrics';
import { registerRequestTimeout, requestSignal } from './timeout';
import { registerDrain, websocketPreClose } from '../fastify/drain';
import { registerSecurity } from './security';
import { registerEtags } from './etag';
import { registerOpenApi } from './openapi';
import { registerSurfaces } from './surfaces';
import { registerRouteSnapshot } from '../fastify/route-hooks';
import { registerConsole } from './console';
import { restRoutes } from './rest';
import './types';

export interface HttpAppDeps {
  config: Pick<Config, 'http' | 'graphql' | 'surfaces' | 'websocket' | 'input'>;
  logger: Logger;
  metrics: Metrics;
  store: SharedStore;
  /** The pub/sub the schema's subscriptions and Socket.IO share (src/store/bus.ts). */
  bus: Bus;
  services: Services;
  schema: GraphQLSchema;
  caps?: Partial<ConnectionCaps>;
  /** Clients of the shared store's Redis for Socket.IO's adapter (absent: its in-memory adapter). */
  socketIoRedis?: SocketIoDeps['redis'];
  /** Extra routes, registered with the same hooks (tests, benchmarks). */
  extraRoutes?: (app: FastifyInstance) => void | Promise<void>;
  admission?: boolean;
  /** Base URL of the blog's Next server: `/blog` is proxied there (one origin). */
  blogUpstream?: string;
  /** Persisted queries and cached responses (the runtime passes the shared one); default: per process. */
  responseCache?: SharedKeyValueCache;
  /** OpenTelemetry is on (OTEL_EXPORTER_OTLP_ENDPOINT): each request's span gets its route and a handler span. */
  tracing?: boolean;
}

/** Builds the API app without listening (server.ts / main.ts listen; tests call it). */
export async function buildHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // A request's child logger is made when it first writes a line (most requests write none).
    childLoggerFactory: lazyChildLoggerFactory as unknown as NonNullable<FastifyServerOptions['childLoggerFactory']>,
    bodyLimit: config.http.bodyLimitBytes,
    trustProxy: config.http.trustedProxyCidrs.length ? config.http.trustedProxyCidrs : false,
    requestIdHeader: false,
    // Request start/end lines are replaced by one line per response in ./metrics.ts.
    logController: new LogController({ disableRequestLogging: true }),
    // Graceful close (src/fastify/drain.ts): idle keep-alive sockets close, in-flight requests finish.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
  });
  registerRouteSnapshot(app);
  // Imported only when on: with tracing off not even @opentelemetry/api is loaded.
  if (deps.tracing) (await import('./tracing')).registerTracing(app);
  await registerSecurity(app, { ...config.http, graphqlIde: config.graphql.ide });
  registerErrorHandling(app);
  const jsonDepth = createJsonDepthRule(config.input.jsonMaxDepth);
  registerJsonBodyParser(app, jsonDepth);
  registerGraphqlGetDepthCheck(app, jsonDepth);
  registerMetrics(app, deps.metrics);
  registerDrain(app);
  registerRequestTimeout(app, config.http.requestTimeoutMs);
  const readCaller = createCallerReader(services.tokens, services.operatorToken);
  registerAuthContext(app, readCaller, services.operatorToken);
  registerStorableInputCheck(app);
  if (deps.admission !== false) {
    registerAdmission(app, { store: deps.store, max: config.http.rateLimit.max, windowMs: config.http.rateLimit.windowMs, metrics: deps.metrics });
  }
  registerAuthRefusal(app);
  registerRouteAccess(app, services.operators);

  const caps: ConnectionCaps = { ...config.websocket, ...deps.caps };
  await app.register(websocket, { options: { maxPayload: caps.maxPayloadBytes }, preClose: websocketPreClose });

  const policy = createGraphqlPolicy({ schema: deps.schema, limits: config.graphql, introspection: config.graphql.introspection, metrics: deps.metrics, logger: deps.logger, services });
  const responseCache = deps.responseCache ?? createMemoryKeyValueCache();
  const answers = createCachedAnswers({
    cache: responseCache.cache,
    generations: services.readCache.generations,
    onHit: (name, startedAt) => policy.recordOperation({ name, type: 'query', failed: false, startedAt }),
  });
  const apollo = createApollo(policy, { cache: responseCache.cache, generations: services.readCache.generations, answers }, config.graphql.ide ? graphiqlLandingPage() : undefined);
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  // Cached public answers before Apollo (the GraphQL routes below), then the ETag hook, which reuses their tags.
  registerCachedAnswers(app, answers);
  registerEtags(app);
  const context = (request: FastifyRequest): GraphqlContext =>
    policy.context({ requestId: request.id, ip: request.ip, auth: request.auth, operator: request.operator, transport: 'http', signal: requestSignal(request) });
  const handler = graphqlHttpHandler(policy, apollo, context);
  app.post('/graphql', handler);
  const gatewayMetrics = createGatewayMetrics(deps.metrics.registry);
  const gateway = createGraphqlWsGateway({ policy, readCaller, store: deps.store, logger: deps.logger, caps, presence: services.presence, metrics: gatewayMetrics, depth: jsonDepth });
  registerGraphqlWs(app, gateway, handler);
  if (config.graphql.ide) registerIdeAssets(app);
  await registerSocketIo(app, { services, readCaller, store: deps.store, bus: deps.bus, caps, logger: deps.logger, http: config.http, redis: deps.socketIoRedis, metrics: gatewayMetrics, depth: jsonDepth });

  await registerOpenApi(app, { version: services.system.info().version });
  await app.register(restRoutes, { prefix: '/api', services });
  registerSurfaces(app, config.surfaces);
  registerConsole(app);
  // Loaded only with a blog to proxy: @fastify/http-proxy brings undici (about 2.5 MiB of heap, issue 47).
  if (deps.blogUpstream) await (await import('./blog-proxy')).registerBlogProxy(app, deps.blogUpstream);
  if (deps.extraRoutes) await deps.extraRoutes(app);
  return app;
}
