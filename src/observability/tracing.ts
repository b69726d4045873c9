// Tracing of the backend's roles: the trace pipeline plus the instrumentations of the libraries
// a request passes through (incoming and outgoing HTTP, GraphQL, PostgreSQL, Redis). Imported
// dynamically by src/runtime/process.ts before anything it instruments is loaded; never when off.
import { register } from 'import-in-the-middle/register-hooks.mjs';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { startTracePipeline, type TracePipeline, type TracingSettings } from './tracing-provider';
import { redactedQuery, SENSITIVE_QUERY_PARAMS } from './trace-redaction';

/** Scrapes and probes: a span each would bury the requests worth looking at. */
const UNTRACED_PATHS = new Set(['/metrics', '/api/health', '/api/health/ready']);

export function startTracing(settings: TracingSettings, serviceName: string): TracePipeline {
  // Our bundle imports these packages as ESM, which require hooks never see: import-in-the-middle's
  // synchronous loader hook wraps them (and only them) for the instrumentations below.
  register({ include: ['ioredis', 'pg', 'graphql'] });
  const pipeline = startTracePipeline(settings, serviceName);
  registerInstrumentations({
    tracerProvider: pipeline.provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!),
        redactedQueryParams: SENSITIVE_QUERY_PARAMS,
        redactedQueryParamsServer: SENSITIVE_QUERY_PARAMS,
      }),
      // fetch (the calls to the blog process and the providers): query values are dropped, not only known ones.
      new UndiciInstrumentation({
        requestHook: (span, request) => {
          const query = request.path.indexOf('?');
          if (query < 0) return;
          span.setAttribute('url.full', `${request.origin}${request.path.slice(0, query)}${redactedQuery(request.path.slice(query))}`);
          span.setAttribute('url.query', redactedQuery(request.path.slice(query)).slice(1));
        },
      }),
      // Documents only (literal values masked); trivial field resolvers get no span.
      new GraphQLInstrumentation({ allowValues: false, ignoreTrivialResolveSpans: true, mergeItems: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      // The command name only: keys can name wallets, sessions or nonces.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  return pipeline;
}
