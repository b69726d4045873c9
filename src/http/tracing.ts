import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { routeOf } from '../fastify/route-hooks';

declare module 'fastify' {
  interface FastifyRequest {
    handlerSpan: Span | null;
  }
}

const tracer = trace.getTracer('platform-http');

/**
 * With tracing on (the runtime says so): names the incoming request's span after its route
 * (`POST /graphql`, not just `POST`) and opens a `handler <route>` span around the route's
 * handlers, so GraphQL resolution, database and store calls and the calls to the blog process
 * hang under the route that made them. The request's span itself is the HTTP instrumentation's
 * (src/observability/tracing.ts), which continues an incoming `traceparent`.
 */
export function registerTracing(app: FastifyInstance): void {
  app.decorateRequest('handlerSpan', null);
  app.addHook('preHandler', (request, _reply, done) => {
    const route = routeOf(request).url;
    const server = trace.getActiveSpan();
    if (!route || !server) return done();
    server.setAttribute('http.route', route);
    server.updateName(`${request.method} ${route}`);
    const span = tracer.startSpan(`handler ${route}`, { attributes: { 'http.route': route } });
    request.handlerSpan = span;
    // The handler runs inside done(): what it awaits keeps this context.
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onError', async (request, _reply, err) => {
    request.handlerSpan?.recordException(err);
    request.handlerSpan?.setStatus({ code: SpanStatusCode.ERROR });
  });
  app.addHook('onResponse', async (request) => {
    request.handlerSpan?.end();
  });
}
