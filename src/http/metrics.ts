import type { FastifyInstance } from 'fastify';
import { scrape, type Metrics } from '../observability/metrics';
import { routeOf } from '../fastify/route-hooks';

/**
 * Request counts and latency per route pattern, and the Prometheus scrape endpoint. The latency is
 * Fastify's own `reply.elapsedTime` (from the request's arrival to the end of the response), and
 * the hook is a plain callback: no hook of ours on the way in, no promise per request.
 */
/** Levels that write the per-request line (building it costs an object per request). */
const VERBOSE = new Set(['debug', 'trace']);

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request).url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, seconds);
    if (VERBOSE.has(request.log.level)) request.log.debug({ method: request.method, route, status: reply.statusCode, ms: Math.round(seconds * 1000) }, 'request completed');
    done();
  });
  app.get('/metrics', { config: { rateLimit: false } }, async (_request, reply) => {
    const { contentType, body } = await scrape(metrics.registry);
    reply.type(contentType);
    return body;
  });
}
